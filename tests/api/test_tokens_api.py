"""API tokens through the API (decision 12, point 4): listed without their keys, created (with a session only) with
the key shown once, renamed and revoked, as on the profile page and with its rules."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(owner):
    client = Client()
    client.force_login(owner)
    return client


def test_the_list_never_holds_a_key_and_marks_the_one_in_use(owner, owner_api, member):
    old, old_key = api_token_create(user=owner, name="old bot", expires_in_days=30)
    api_token_create(user=member, name="bruno's")
    reply = owner_api.get("/api/me/tokens/")
    assert reply.status_code == 200
    listed = reply.json()["results"]
    assert [t["name"] for t in listed] == ["old bot", "tests"]  # newest first, hers only
    assert old_key not in reply.content.decode() and "tps_" not in reply.content.decode()
    assert listed[0]["prefix"] == old.prefix and listed[0]["expires_at"] and listed[0]["expired"] is False
    assert [t["current"] for t in listed] == [False, True]
    assert set(listed[0]) == {"id", "name", "prefix", "created_at", "last_used_at", "expires_at", "expired", "current"}


def test_a_session_creates_a_token_and_sees_its_key_once(owner, session):
    reply = session.post("/api/me/tokens/", {"name": "phone app", "expires": "never"}, content_type="application/json")
    assert reply.status_code == 201, reply.content
    made = reply.json()
    token = ApiToken.objects.get(pk=made["id"], user=owner)
    assert made["key"].startswith("tps_" + token.prefix) and made["name"] == "phone app" and made["expires_at"] is None
    assert made["key"] not in (token.digest, token.prefix)
    # The key works, and it is never given again.
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {made['key']}")
    assert api.get("/api/me/").json()["username"] == "ana"
    assert made["key"] not in session.get("/api/me/tokens/").content.decode()
    # The page's defaults: 90 days, and a name for a blank one.
    default = session.post("/api/me/tokens/", {}, content_type="application/json").json()
    assert default["name"] == "API token" and default["expires_at"]


def test_a_token_cannot_create_tokens(owner, owner_api):
    reply = owner_api.post("/api/me/tokens/", {"name": "another"}, format="json")
    assert reply.status_code == 403 and reply.json()["error"] == "forbidden" and "profile" in reply.json()["detail"]
    assert ApiToken.objects.filter(user=owner).count() == 1


@pytest.mark.parametrize(
    "body", [{"name": "x" * 61}, {"expires": "tomorrow"}, ["a list"], {"name": ["a"]}, {"expires": 30}]
)
def test_a_bad_creation_is_400_and_makes_nothing(owner, session, body):
    reply = session.post("/api/me/tokens/", body, content_type="application/json")
    assert reply.status_code == 400 and reply.json()["error"] == "invalid"
    assert not ApiToken.objects.filter(user=owner).exists()


def test_rename_and_revoke_hers_only(owner, owner_api, member_api, member):
    token, key = api_token_create(user=owner, name="old")
    theirs, _ = api_token_create(user=member, name="bruno's bot")
    renamed = owner_api.patch(f"/api/me/tokens/{token.pk}/", {"name": "tournament bot"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "tournament bot"
    assert ApiToken.objects.get(pk=token.pk).name == "tournament bot"
    bad = owner_api.patch(f"/api/me/tokens/{token.pk}/", {"name": ""}, format="json")
    assert bad.status_code == 400 and "1 to 60" in bad.json()["detail"]
    assert ApiToken.objects.get(pk=token.pk).name == "tournament bot"

    # Another's token is not found, whatever the verb; nothing changes.
    assert owner_api.patch(f"/api/me/tokens/{theirs.pk}/", {"name": "mine now"}, format="json").status_code == 404
    assert owner_api.delete(f"/api/me/tokens/{theirs.pk}/").status_code == 404
    assert owner_api.post(f"/api/me/tokens/{theirs.pk}/revoke/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "bruno's bot" and theirs.revoked_at is None

    assert owner_api.delete(f"/api/me/tokens/{token.pk}/").status_code == 204
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert owner_api.post(f"/api/me/tokens/{token.pk}/revoke/").status_code == 404  # revoked: gone
    revoked = APIClient()
    revoked.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert revoked.get("/api/me/").status_code == 401


def test_a_token_may_revoke_itself(owner):
    token, key = api_token_create(user=owner, name="leaked")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post(f"/api/me/tokens/{token.pk}/revoke/").status_code == 204
    assert api.get("/api/me/tokens/").status_code == 401


def test_anonymous_callers_are_refused(owner):
    token, _ = api_token_create(user=owner, name="kept")
    anonymous = APIClient()
    for method, url in (
        ("get", "/api/me/tokens/"),
        ("post", "/api/me/tokens/"),
        ("patch", f"/api/me/tokens/{token.pk}/"),
        ("delete", f"/api/me/tokens/{token.pk}/"),
        ("post", f"/api/me/tokens/{token.pk}/revoke/"),
    ):
        reply = getattr(anonymous, method)(url)
        assert reply.status_code == 401 and reply.json()["error"] == "not_authenticated", url
    token.refresh_from_db()
    assert token.revoked_at is None and ApiToken.objects.count() == 1
