"""Logging in and out; a failed login never says whether the username exists."""

import pytest
from django.urls import reverse

from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def logged_in(client) -> bool:
    return bool(client.session.get("_auth_user_id"))


def test_it_logs_the_owner_in(client, owner):
    r = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert r.status_code == 302 and r["Location"] == reverse("home")
    assert logged_in(client)


def test_it_follows_next_after_login(client, owner):
    r = client.post(
        reverse("login") + "?next=/accounts/profile/",
        {"username": "ana", "password": PASSWORD, "next": "/accounts/profile/"},
    )
    assert r["Location"] == reverse("profile")


def test_a_wrong_password_and_an_unknown_name_read_the_same(client, owner):
    wrong = client.post(reverse("login"), {"username": "ana", "password": "not-her-password"})
    unknown = client.post(reverse("login"), {"username": "nobody-here", "password": "not-her-password"})
    assert wrong.status_code == unknown.status_code == 200
    assert wrong.context["form"].errors == unknown.context["form"].errors
    assert "do not match" in wrong.content.decode()
    assert not logged_in(client)


def test_a_deactivated_account_reads_like_a_wrong_password(client, owner):
    owner.is_active = False
    owner.save()
    r = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert "do not match" in r.content.decode() and not logged_in(client)


def test_logout_by_post(client, owner):
    client.force_login(owner)
    r = client.post(reverse("logout"))
    assert r.status_code == 302 and r["Location"] == reverse("home")
    assert not logged_in(client)


def test_logout_by_get_only_asks_for_a_click(client, owner):
    client.force_login(owner)
    r = client.get(reverse("logout"))
    assert r.status_code == 200 and "<form" in r.content.decode()
    assert logged_in(client)


def test_anonymous_logout_page_goes_home(client):
    r = client.get(reverse("logout"))
    assert r.status_code == 302 and r["Location"] == reverse("home")
