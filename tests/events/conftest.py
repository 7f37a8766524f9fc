"""Fixtures of the event-feed tests: fast logins."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# Real worker processes and the test Redis, as the integration tests start them.
from tests.integration.conftest import embedded_worker, postgres, redis_broker, start_worker  # noqa: E402,F401
