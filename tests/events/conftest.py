"""Fixtures of the event-feed tests: fast logins."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
