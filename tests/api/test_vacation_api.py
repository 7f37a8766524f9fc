"""/api/me/vacation/ and the time bank in the API (ruling S4): started and ended by the player, shown to her
opponents in the table's details, options checked with answers a person can act on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.models import Game, Seat
from tests.games.tables import topology_table

pytestmark = pytest.mark.django_db

URL = "/api/me/vacation/"


def started(owner, member) -> Game:
    return topology_table(owner, member)  # she (seat 0) plays first


def test_she_starts_and_ends_a_vacation_and_her_opponent_sees_it_at_their_table(owner_api, member_api, owner, member):
    game = started(owner, member)
    before = owner_api.get(URL).json()
    assert before["on_vacation"] is False and before["allowance_days"] == 21 and before["used_seconds"] == 0
    assert before["left_seconds"] == 21 * 86400

    reply = owner_api.post(URL, {"days": 7}, format="json")
    assert reply.status_code == 201, reply.content
    until = parse_datetime(reply.json()["ends_at"])
    assert reply.json()["on_vacation"] is True
    assert timedelta(days=7) - timedelta(minutes=1) < until - timezone.now() <= timedelta(days=7)

    detail = member_api.get(f"/api/tables/{game.pk}/").json()
    hers = next(s for s in detail["seats"] if s["player"] == "ana")
    assert parse_datetime(hers["on_vacation_until"]) == until
    assert hers["to_act"] and hers["clock_stopped"] is True
    assert hers["deadline"] is None  # the stored one is not the one she will have
    his = next(s for s in detail["seats"] if s["player"] == "bruno")
    assert his["on_vacation_until"] is None and his["clock_stopped"] is False

    assert owner_api.post(URL, {}, format="json").status_code == 409  # already away
    back = owner_api.delete(URL)
    assert back.status_code == 200 and back.json()["on_vacation"] is False
    assert 0 <= back.json()["used_seconds"] < 60
    detail = member_api.get(f"/api/tables/{game.pk}/").json()
    hers = next(s for s in detail["seats"] if s["player"] == "ana")
    assert hers["on_vacation_until"] is None and hers["deadline"] is not None
    assert owner_api.delete(URL).status_code == 409  # not away any more


def test_a_length_she_cannot_have_is_refused_with_what_she_has_left(owner_api, owner):
    for days in (0, -3, 22):
        reply = owner_api.post(URL, {"days": days}, format="json")
        assert reply.status_code == 400, (days, reply.content)
        assert reply.json()["error"] == "bad_request"
    for days in ("a week", 2.5):
        reply = owner_api.post(URL, {"days": days}, format="json")
        assert reply.status_code == 400 and "days" in reply.json()["fields"], (days, reply.content)
    assert "21.0 vacation days left" in owner_api.post(URL, {"days": 22}, format="json").json()["detail"]
    assert owner_api.get(URL).json()["on_vacation"] is False
    assert owner_api.post(URL, {}, format="json").status_code == 201  # as long as her days last


def test_the_vacation_endpoint_needs_a_login_and_is_documented(client):
    assert client.get(URL).status_code in (401, 403)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = schema["paths"][URL]
    assert {"get", "post", "delete"} <= set(operations)
    assert "409" in operations["post"]["responses"] and "400" in operations["post"]["responses"]
    table = schema["components"]["schemas"]["TableCreateInRequest"]["properties"]
    assert "time_bank_days" in table


def test_a_table_with_a_time_bank_shows_each_seats_bank(owner_api, member_api, owner, member):
    reply = owner_api.post("/api/tables/", {"game": "topology", "players": 2, "time_bank_days": 3}, format="json")
    assert reply.status_code == 201, reply.content
    assert reply.json()["time_bank_days"] == 3
    game_id = reply.json()["id"]
    # The join takes the last seat: the table starts by itself (decision 17, auto_start).
    assert member_api.post(f"/api/tables/{game_id}/join/", {}, format="json").json()["status"] == "running"
    seats = member_api.get(f"/api/tables/{game_id}/").json()["seats"]
    assert [s["time_bank_seconds"] for s in seats] == [3 * 86400, 3 * 86400]
    assert [s["drawing_time_bank"] for s in seats] == [False, False]
    # Ten hours into her bank: the bank counts down in the table's details.
    Seat.objects.filter(game_id=game_id, index=0).update(bank_drawn_from=timezone.now() - timedelta(hours=10))
    mine = owner_api.get(f"/api/tables/{game_id}/").json()["seats"][0]
    assert mine["drawing_time_bank"] is True
    assert 3 * 86400 - 10 * 3600 - 60 < mine["time_bank_seconds"] <= 3 * 86400 - 10 * 3600
    plain = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json").json()
    assert plain["time_bank_days"] == 0


@pytest.mark.parametrize(
    "body, words",
    [
        ({"time_bank_days": -1}, "from 0 (none) to 30"),
        ({"time_bank_days": 31}, "from 0 (none) to 30"),
        ({"game": "toppo", "pace": "live", "turn_seconds": 30, "time_bank_days": 2}, "a live table has none"),
    ],
)
def test_a_time_bank_that_cannot_be_is_refused_and_no_table_is_opened(owner_api, body, words):
    reply = owner_api.post("/api/tables/", {"game": "topology", "players": 2, **body}, format="json")
    assert reply.status_code == 400, reply.content
    assert words in reply.json()["detail"]
    assert not Game.objects.exists()


def test_a_time_bank_that_is_not_a_number_is_refused_field_by_field(owner_api):
    reply = owner_api.post("/api/tables/", {"game": "topology", "players": 2, "time_bank_days": "two"}, format="json")
    assert reply.status_code == 400 and "time_bank_days" in reply.json()["fields"]
    assert not Game.objects.exists()
