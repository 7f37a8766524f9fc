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


@pytest.fixture
def clients(owner, member, owner_client, member_client):
    """The logged-in client of each player of `game`, by user id (for helpers that play as whoever is to act)."""
    return {owner.pk: owner_client, member.pk: member_client}
