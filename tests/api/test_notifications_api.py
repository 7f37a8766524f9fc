"""Notifications through the API (decision 12, point 4): the list in cursor pages, marking read, and the email
preferences, with the same rules as the pages (ruling S6: at most one unread "your turn" per table)."""

from __future__ import annotations

from datetime import time

import pytest
from rest_framework.test import APIClient

from notifications.models import Notification, NotificationEvent, NotificationPreference, QuietHours
from notifications.selectors import default_email
from notifications.services import notification_create, turn_notification_tell
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def tell(user, n: int, game=None, kind=NotificationEvent.INVITED) -> list[Notification]:
    return [
        notification_create(
            recipient=user, kind=kind, key=f"test:{user.pk}:{i}", text=f"Note {i} for {user}", game=game
        )
        for i in range(n)
    ]


def test_she_lists_hers_newest_first_a_page_at_a_time(owner, owner_api, member):
    mine = tell(owner, 5)
    tell(member, 2)
    first = owner_api.get("/api/notifications/", {"page_size": 2})
    assert first.status_code == 200, first.content
    body = first.json()
    assert body["unread"] == 5 and body["previous"] is None
    seen = [n["id"] for n in body["results"]]
    while body["next"]:
        body = owner_api.get(body["next"]).json()
        seen += [n["id"] for n in body["results"]]
    assert seen == [n.pk for n in reversed(mine)]  # every one of hers once, none of bruno's
    one = first.json()["results"][0]
    assert one["kind"] == "invited" and one["label"] == "You are invited to a table" and one["text"] == "Note 4 for ana"
    assert one["read"] is False and one["read_at"] is None and one["table"] is None and one["url"] is None


def test_unread_filters_and_a_bad_filter_or_cursor_is_400(owner, owner_api):
    game = started_topology(owner, owner.__class__.objects.create_user("dora", "dora@example.com", "x" * 20))
    first, second = tell(owner, 2, game=game)
    owner_api.post(f"/api/notifications/{first.pk}/read/")
    unread = owner_api.get("/api/notifications/", {"unread": "true"}).json()["results"]
    assert [n["id"] for n in unread] == [second.pk] and unread[0]["url"] == f"/tables/{game.pk}/"
    read = owner_api.get("/api/notifications/", {"unread": "false"}).json()["results"]
    assert [n["id"] for n in read] == [first.pk] and read[0]["read"] is True
    bad = owner_api.get("/api/notifications/", {"unread": "perhaps"})
    assert bad.status_code == 400 and "unread" in bad.json()["fields"]
    cursor = owner_api.get("/api/notifications/", {"cursor": "not-a-cursor"})
    assert cursor.status_code == 400 and cursor.json()["error"] == "invalid_cursor"


def test_marking_read_is_hers_only(owner, owner_api, member_api):
    (note,) = tell(owner, 1)
    assert member_api.post(f"/api/notifications/{note.pk}/read/").status_code == 404  # not hers: not found
    assert member_api.post("/api/notifications/999999/read/").status_code == 404
    assert Notification.objects.get(pk=note.pk).read_at is None
    reply = owner_api.post(f"/api/notifications/{note.pk}/read/")
    assert reply.status_code == 200 and reply.json()["read"] is True and reply.json()["id"] == note.pk
    again = owner_api.post(f"/api/notifications/{note.pk}/read/")
    assert again.status_code == 200 and again.json()["read_at"] == reply.json()["read_at"]  # nothing changes


def test_read_all_marks_every_unread_one_of_hers_and_no_one_elses(owner, owner_api, member):
    tell(owner, 3)
    tell(member, 2)
    reply = owner_api.post("/api/notifications/read-all/")
    assert reply.status_code == 200 and reply.json() == {"marked": 3, "unread": 0}
    assert not Notification.objects.filter(recipient=owner, read_at__isnull=True).exists()
    assert Notification.objects.filter(recipient=member, read_at__isnull=True).count() == 2
    assert owner_api.post("/api/notifications/read-all/").json() == {"marked": 0, "unread": 0}


def test_a_read_your_turn_is_not_rewritten_the_next_turn_makes_a_new_one(owner, member, owner_api):
    """Ruling S6: one unread "your turn" per table; a later turn rewrites it while unread, not once read."""
    game = started_topology(owner, member)
    seat = game.seats.get(user=owner)
    first = turn_notification_tell(seat=seat, key=f"turn:{game.pk}:0:v1", text="Turn one")
    turn_notification_tell(seat=seat, key=f"turn:{game.pk}:0:v3", text="Turn two")
    listed = owner_api.get("/api/notifications/", {"unread": "true"}).json()["results"]
    assert [(n["id"], n["text"]) for n in listed] == [(first.pk, "Turn two")]
    owner_api.post(f"/api/notifications/{first.pk}/read/")
    later = turn_notification_tell(seat=seat, key=f"turn:{game.pk}:0:v5", text="Turn three")
    assert later.pk != first.pk
    listed = owner_api.get("/api/notifications/").json()["results"]
    assert [(n["id"], n["text"], n["read"]) for n in listed] == [
        (later.pk, "Turn three", False),
        (first.pk, "Turn two", True),
    ]


def test_anonymous_callers_are_refused(owner):
    (note,) = tell(owner, 1)
    anonymous = APIClient()
    for method, url in (
        ("get", "/api/notifications/"),
        ("post", f"/api/notifications/{note.pk}/read/"),
        ("post", "/api/notifications/read-all/"),
        ("get", "/api/me/notification-preferences/"),
        ("patch", "/api/me/notification-preferences/"),
    ):
        reply = getattr(anonymous, method)(url)
        assert reply.status_code in (401, 403) and reply.json()["error"] == "not_authenticated", url
    assert Notification.objects.get(pk=note.pk).read_at is None


def test_labels_come_in_her_language_like_the_pages(owner, owner_api):
    tell(owner, 1)
    owner.language = "es"
    owner.save(update_fields=["language"])
    one = owner_api.get("/api/notifications/").json()["results"][0]
    assert one["label"] == "Te invitan a una mesa"
    assert owner_api.get("/api/notifications/?unread=maybe").json()["detail"] == "Algunos campos no son válidos."


def test_preferences_are_read_and_changed_as_on_the_settings_page(owner, owner_api, member_api):
    reply = owner_api.get("/api/me/notification-preferences/")
    assert reply.status_code == 200
    body = reply.json()
    assert [p["event"] for p in body["preferences"]] == NotificationEvent.values
    # Each event's default, as the settings page shows it (chat is not mailed unless she asks).
    assert {p["event"]: p["email"] for p in body["preferences"]} == {
        e: default_email(e) for e in NotificationEvent.values
    }
    assert body["has_email"] is True
    assert [c["value"] for c in body["choices"]] == ["immediate", "digest", "none"]

    changed = owner_api.patch(
        "/api/me/notification-preferences/", {"your_turn": "digest", "finished": "none"}, format="json"
    )
    assert changed.status_code == 200, changed.content
    assert {p["event"]: p["email"] for p in changed.json()["preferences"]}["your_turn"] == "digest"
    assert dict(NotificationPreference.objects.filter(user=owner).values_list("event", "email")) == {
        "your_turn": "digest",
        "finished": "none",
    }
    others = member_api.get("/api/me/notification-preferences/").json()["preferences"]
    assert {p["event"]: p["email"] for p in others} == {
        e: default_email(e) for e in NotificationEvent.values
    }  # hers only


@pytest.mark.parametrize(
    "body", [{"your_turn": "sometimes"}, {"no_such_event": "none"}, ["your_turn"], {"your_turn": ["digest"]}]
)
def test_a_bad_preference_body_is_400_and_changes_nothing(owner, owner_api, body):
    reply = owner_api.patch("/api/me/notification-preferences/", body, format="json")
    assert reply.status_code == 400 and reply.json()["error"] == "invalid" and reply.json()["detail"]
    assert not NotificationPreference.objects.filter(user=owner).exists()


def test_the_schema_says_the_preferences_take_events_and_quiet_hours_only(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    body = schema["components"]["schemas"]["PatchedPreferencesInRequest"]
    assert body["additionalProperties"] is False
    assert set(body["properties"]) == {*NotificationEvent.values, "quiet_hours"}
    assert "crosses midnight" in body["properties"]["quiet_hours"]["description"]
    out = schema["components"]["schemas"]["PreferencesOut"]["properties"]["quiet_hours"]
    assert "null" in str(out) or out.get("nullable")


def test_quiet_hours_are_set_read_and_cleared_through_the_api(owner, owner_api):
    """Ruling S6: her quiet hours, in her time zone, where her email preferences are set."""
    assert owner_api.get("/api/me/notification-preferences/").json()["quiet_hours"] is None
    owner.time_zone = "Asia/Taipei"
    owner.save(update_fields=["time_zone"])
    body = {"quiet_hours": {"start": "22:00", "end": "07:00"}, "chat": "digest"}
    reply = owner_api.patch("/api/me/notification-preferences/", body, format="json")
    assert reply.status_code == 200, reply.content
    assert reply.json()["quiet_hours"] == {"start": "22:00", "end": "07:00", "time_zone": "Asia/Taipei"}
    assert QuietHours.objects.get(user=owner).start == time(22)
    again = owner_api.patch("/api/me/notification-preferences/", {"your_turn": "none"}, format="json").json()
    assert again["quiet_hours"]["start"] == "22:00"  # left out: kept
    cleared = owner_api.patch("/api/me/notification-preferences/", {"quiet_hours": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["quiet_hours"] is None
    assert not QuietHours.objects.filter(user=owner).exists()


@pytest.mark.parametrize(
    "quiet",
    [
        {"start": "22:00", "end": "22:00"},
        {"start": "24:30", "end": "07:00"},
        {"start": "22:00"},
        {"start": "late", "end": "07:00"},
        "22:00-07:00",
    ],
)
def test_bad_quiet_hours_are_400_with_a_message_and_change_nothing(owner, owner_api, quiet):
    owner_api.patch(
        "/api/me/notification-preferences/", {"quiet_hours": {"start": "23:00", "end": "06:00"}}, format="json"
    )
    body = {"quiet_hours": quiet, "finished": "none"}
    reply = owner_api.patch("/api/me/notification-preferences/", body, format="json")
    assert reply.status_code == 400 and reply.json()["detail"], reply.content
    kept = QuietHours.objects.get(user=owner)
    assert (kept.start, kept.end) == (time(23), time(6))
    assert not NotificationPreference.objects.filter(user=owner, event="finished").exists()  # all or nothing


def test_a_quiet_hours_refusal_speaks_her_language(owner, owner_api):
    owner.language = "es"
    owner.save(update_fields=["language"])
    body = {"quiet_hours": {"start": "07:00", "end": "07:00"}}
    reply = owner_api.patch("/api/me/notification-preferences/", body, format="json")
    assert reply.status_code == 400
    assert reply.json()["detail"] == "Las horas de silencio deben empezar y terminar a horas distintas."
