"""GET/PATCH /api/me/ (decision 12, point 4): the account as the profile page shows and edits it, with the profile
form's validation."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.services.vacation import vacation_start

pytestmark = pytest.mark.django_db


User = get_user_model()


def test_she_reads_her_account(owner, owner_api, member_api):
    vacation_start(user=owner, days=2)
    reply = owner_api.get("/api/me/")
    assert reply.status_code == 200
    me = reply.json()
    assert (me["username"], me["email"], me["time_zone"], me["bot_account"]) == ("ana", "ana@example.com", "UTC", False)
    assert me["language"] == "en" and me["unread_notifications"] == 0
    assert me["vacation"]["on_vacation"] is True and me["vacation"]["ends_at"]
    assert member_api.get("/api/me/").json()["username"] == "bruno"  # each her own


def test_she_changes_her_language_and_time_zone_and_the_answer_speaks_it(owner, owner_api):
    reply = owner_api.patch("/api/me/", {"language": "es", "time_zone": "Europe/Madrid"}, format="json")
    assert reply.status_code == 200, reply.content
    assert (reply.json()["language"], reply.json()["time_zone"]) == ("es", "Europe/Madrid")
    assert reply["Content-Language"] == "es"
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("es", "Europe/Madrid")
    # One field alone changes that one only.
    assert owner_api.patch("/api/me/", {"time_zone": "Asia/Taipei"}, format="json").json()["language"] == "es"
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("es", "Asia/Taipei")


def test_a_time_zone_alone_keeps_following_her_browser(owner, owner_api):
    assert owner.language == ""
    assert owner_api.patch("/api/me/", {"time_zone": "Asia/Taipei"}, format="json").status_code == 200
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("", "Asia/Taipei")


def _refused(owner, reply) -> None:
    assert reply.status_code == 400 and reply.json()["error"] == "invalid"
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("", "UTC")


@pytest.mark.parametrize(
    "body",
    [
        {"language": "fr"},
        {"time_zone": "Mars/Olympus"},
        {"time_zone": 5},
        ["es"],
        {"time_zone": ""},
        {"language": None},
    ],
)
def test_a_bad_value_is_400_and_changes_nothing(owner, owner_api, body):
    _refused(owner, owner_api.patch("/api/me/", body, format="json"))


def test_bodies_are_json_only(owner, owner_api):
    # A form would read `time_zone=` as "not given" (DRF's rule for forms), not as the empty value it is.
    for fmt in ("multipart", None):
        body = {"time_zone": ""} if fmt else "language=es&time_zone="
        kwargs = {"format": fmt} if fmt else {"content_type": "application/x-www-form-urlencoded"}
        reply = owner_api.patch("/api/me/", body, **kwargs)
        assert reply.status_code == 415 and reply.json()["error"] == "unsupported_media_type"
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("", "UTC")


def test_username_email_and_the_bot_flag_are_read_only(owner, owner_api):
    reply = owner_api.patch(
        "/api/me/", {"username": "queen", "email": "x@example.com", "bot_account": True}, format="json"
    )
    assert reply.status_code == 200
    owner.refresh_from_db()
    assert (owner.username, owner.email, owner.is_bot_account) == ("ana", "ana@example.com", False)


def test_anonymous_callers_are_refused():
    for method in ("get", "patch"):
        reply = getattr(APIClient(), method)("/api/me/")
        assert reply.status_code == 401 and reply.json()["error"] == "not_authenticated"
