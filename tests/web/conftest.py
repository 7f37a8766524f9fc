"""Web page tests: logged-in test clients for the three personas (from tests/conftest.py) and an htmx header helper."""
from __future__ import annotations

import pytest
from django.test import Client

HX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner):
    return client_for(owner)


@pytest.fixture
def member_client(member):
    return client_for(member)


@pytest.fixture
def outsider_client(outsider):
    return client_for(outsider)
