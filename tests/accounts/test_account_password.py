"""Changing and resetting a password; the reset form never says whether an address has an account."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.accounts.conftest import PASSWORD, links_in

User = get_user_model()
pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-password-7"


def without_csrf(response) -> str:
    """The page with its CSRF tokens blanked: they are masked afresh on every response."""
    return re.sub(r"[A-Za-z0-9]{64}", "CSRF", response.content.decode())


def test_change_needs_login(client):
    r = client.get(reverse("password_change"))
    assert r.status_code == 302 and reverse("login") in r["Location"]


def test_change_refuses_a_wrong_old_password(client, owner):
    client.force_login(owner)
    r = client.post(
        reverse("password_change"),
        {"old_password": "guess", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert r.status_code == 200
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_change_sets_the_new_password_and_keeps_me_logged_in(client, owner):
    client.force_login(owner)
    r = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert r.status_code == 302 and r["Location"] == reverse("password_change_done")
    assert client.get(reverse("profile")).status_code == 200
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD) and not owner.check_password(PASSWORD)


def test_reset_mails_a_link_that_sets_a_new_password_once(client, owner, mailoutbox, celery_eager):
    r = client.post(reverse("password_reset"), {"email": "Ana@Example.com"})
    assert r.status_code == 302 and r["Location"] == reverse("password_reset_done")
    assert [m.to for m in mailoutbox] == [[owner.email]]
    [link] = [p for p in links_in(mailoutbox[0]) if "/password/reset/" in p]

    r = client.get(link)  # Django moves the token into the session and redirects
    assert r.status_code == 302
    form_url = r["Location"]
    assert client.get(form_url).context["validlink"] is True
    r = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert r.status_code == 302 and r["Location"] == reverse("password_reset_complete")
    assert client.login(username="ana", password=NEW_PASSWORD)

    client.logout()
    assert client.get(link, follow=True).context["validlink"] is False


def test_reset_of_an_unknown_address_looks_the_same_and_sends_nothing(client, owner, mailoutbox, celery_eager):
    known = client.post(reverse("password_reset"), {"email": owner.email}, follow=True)
    mailoutbox.clear()
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.com"}, follow=True)
    assert mailoutbox == []
    assert unknown.redirect_chain == known.redirect_chain
    assert without_csrf(unknown) == without_csrf(known)
    assert "If an account exists for that address" in unknown.content.decode()
