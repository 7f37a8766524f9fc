"""Shared fixtures: three personas (owner, member, outsider) and API clients for them."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create, user_create


@pytest.fixture
def fast_hashing(settings):
    # Personas are created with a password; the real hasher takes a noticeable fraction of a second per call.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(db):
    return user_create(username="ana", email="ana@example.com", password="a-long-test-password")


@pytest.fixture
def member(db):
    return user_create(username="bruno", email="bruno@example.com", password="a-long-test-password")


@pytest.fixture
def outsider(db):
    return user_create(username="chen", email="chen@example.com", password="a-long-test-password")


def api_client_for(user) -> APIClient:
    _, key = api_token_create(user=user, name="tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def owner_api(owner):
    return api_client_for(owner)


@pytest.fixture
def member_api(member):
    return api_client_for(member)


@pytest.fixture
def outsider_api(outsider):
    return api_client_for(outsider)


def pytest_collection_finish(session):
    """Freeze what import and collection allocated: the random-game tests then spend their time
    on the games, not on the garbage collector walking Django's objects again and again."""
    import gc

    gc.collect()
    gc.freeze()
