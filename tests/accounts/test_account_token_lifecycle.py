"""API tokens end: when their owner's password is changed or reset (and she is told), and when they expire."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create
from tests.accounts.conftest import PASSWORD, links_in

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-password-7"


def api(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


# --- revoked with the password ------------------------------------------------------------------


def test_changing_the_password_revokes_every_token_and_tells_her(
    client, owner, member, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    _, bot_key = api_token_create(user=owner, name="my bot")
    _, app_key = api_token_create(user=owner, name="phone", expires_in_days=30)
    _, theirs = api_token_create(user=member, name="bruno's bot")
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            reverse("password_change"),
            {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
            follow=True,
        )
    assert r.status_code == 200
    assert "2 API tokens were revoked" in r.content.decode()
    for key in (bot_key, app_key):
        refused = api(key).get("/api/tables/mine/")
        assert refused.status_code == 401 and "revoked" in refused.json()["detail"]
    assert api(theirs).get("/api/tables/mine/").status_code == 200  # only hers
    assert client.get(reverse("profile")).status_code == 200  # she stays logged in here

    [mail] = mailoutbox
    assert mail.to == [owner.email] and "password was changed" in mail.subject
    assert "my bot" in mail.body and "phone" in mail.body and "bruno" not in mail.body
    assert reverse("password_reset") in "".join(links_in(mail))


def test_a_reset_by_email_revokes_the_tokens_too(
    client, owner, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    token, key = api_token_create(user=owner, name="script")
    client.post(reverse("password_reset"), {"email": owner.email})
    [link] = [p for p in links_in(mailoutbox[0]) if "/password/reset/" in p]
    form_url = client.get(link)["Location"]
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
    assert r.redirect_chain[-1][0] == reverse("password_reset_complete")
    assert "1 API token was revoked" in r.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert api(key).get("/api/tables/mine/").status_code == 401
    [mail] = mailoutbox
    assert "reset with a link" in mail.body and "script" in mail.body


def test_without_tokens_she_is_still_told_her_password_changed(
    client, owner, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("password_change"),
            {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        )
    [mail] = mailoutbox
    assert "changed on your profile page" in mail.body and "revoked" not in mail.body


def test_a_refused_change_revokes_nothing(client, owner, sent_tasks):
    _, key = api_token_create(user=owner, name="bot")
    client.force_login(owner)
    client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert api(key).get("/api/tables/mine/").status_code == 200
    assert sent_tasks() == []


# --- expiry ---------------------------------------------------------------------------------


@pytest.mark.parametrize("choice, days", [("30", 30), ("90", 90), ("365", 365), ("never", None)])
def test_the_expiry_is_chosen_when_the_token_is_made(client, owner, choice, days):
    client.force_login(owner)
    before = timezone.now()
    r = client.post(reverse("token_create"), {"name": "bot", "expires": choice})
    assert r.status_code == 200
    token = ApiToken.objects.get(user=owner)
    if days is None:
        assert token.expires_at is None
        assert "never (until revoked)" in r.content.decode()
    else:
        assert before + timedelta(days=days) <= token.expires_at <= timezone.now() + timedelta(days=days)


def test_a_form_without_the_choice_gets_90_days_and_a_wrong_choice_is_refused(client, owner):
    client.force_login(owner)
    client.post(reverse("token_create"), {"name": "old form"})
    assert ApiToken.objects.get(user=owner).expires_at > timezone.now() + timedelta(days=89)
    r = client.post(reverse("token_create"), {"name": "odd", "expires": "9999"})
    assert r.status_code == 400 and ApiToken.objects.filter(user=owner).count() == 1


def test_an_expired_token_gets_401_with_a_clear_message_and_shows_as_expired(client, owner):
    token, key = api_token_create(user=owner, name="short", expires_in_days=30)
    assert api(key).get("/api/tables/mine/").status_code == 200
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    r = api(key).get("/api/tables/mine/")
    assert r.status_code == 401 and r["WWW-Authenticate"] == "Token"
    assert r.json()["detail"].startswith("This API token expired on ")
    assert "profile page" in r.json()["detail"]
    client.force_login(owner)
    assert "expired on" in client.get(reverse("profile")).content.decode()
