"""Tests of the write services, one module per games/services/ module (tests/test_tests_mirror_code.py)."""
