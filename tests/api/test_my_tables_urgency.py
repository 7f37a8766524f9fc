"""Where is my turn: GET /api/tables/mine/ lists her tables the most urgent first (those waiting for her, the
soonest deadline first), each with her deadline and the seconds left, in cursor pages that hold every table
once (games.selectors.tables_of_user_by_urgency, games.api.pagination.UrgencyPages)."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.services.vacation import vacation_start
from tests.games.tables import play_turn, topology_table

pytestmark = pytest.mark.django_db


def her_turn_at(owner, member, *, hours: float | None = None, **table) -> Game:
    """A running table where `member` is to act: the owner (seat 0, first) played her turn.  `hours`: her deadline
    moved to that many hours from now, as if the turn had come at another time."""
    game = play_turn(topology_table(owner, member, **table), owner)
    assert game.seats.get(user=member).index in game.to_act
    if hours is not None:
        Seat.objects.filter(game=game, user=member).update(deadline=timezone.now() + timedelta(hours=hours))
    return game


def their_turn_at(owner, member) -> Game:
    """A running table waiting for the owner (seat 0 decides first)."""
    return topology_table(owner, member)


def walk(client, url: str) -> tuple[list[dict], list[str | None]]:
    """Every entry from the first page on, following `next`; the `previous` link of each page."""
    entries, previous = [], []
    while url:
        page = client.get(url)
        assert page.status_code == 200, page.content
        entries += page.data["results"]
        previous.append(page.data["previous"])
        url = page.data["next"]
    return entries, previous


@pytest.fixture
def tables(owner, member, outsider):
    """The member's tables, in the order she must read them, each named for what it is."""
    theirs_old = their_turn_at(owner, member)
    late = her_turn_at(owner, member, hours=70)
    soon = her_turn_at(owner, member, hours=2)
    finished = their_turn_at(owner, member)
    services.game_resign(user=member, game_id=finished.pk)
    theirs_new = their_turn_at(owner, member)
    open_table = services.game_create(user=owner, kind="topology", players=3)
    services.game_join(user=member, game_id=open_table.pk)
    middle = her_turn_at(owner, member, hours=20)
    services.game_create(user=outsider, kind="topology", players=2)  # not hers
    return {
        "soon": soon.pk,
        "middle": middle.pk,
        "late": late.pk,
        "theirs_new": theirs_new.pk,
        "theirs_old": theirs_old.pk,
        "open": open_table.pk,
        "finished": finished.pk,
    }


ORDER = ["soon", "middle", "late", "theirs_new", "theirs_old", "open", "finished"]


def test_her_turns_come_first_by_time_left_then_the_others(tables, member_api):
    entries, _ = walk(member_api, "/api/tables/mine/")
    assert [t["id"] for t in entries] == [tables[name] for name in ORDER]
    assert [t["my_turn"] for t in entries] == [True, True, True, False, False, False, False]


def test_each_table_says_her_deadline_and_the_seconds_left(tables, member_api, member):
    entries = {t["id"]: t for t in walk(member_api, "/api/tables/mine/")[0]}
    for name, hours in (("soon", 2), ("middle", 20), ("late", 70)):
        entry = entries[tables[name]]
        deadline = Seat.objects.get(game_id=tables[name], user=member).deadline
        assert entry["my_deadline"] == deadline.isoformat()
        assert 0 < entry["my_seconds_left"] <= hours * 3600
        assert entry["my_seconds_left"] > hours * 3600 - 600  # read within minutes of making it
    for name in ("theirs_new", "theirs_old", "open", "finished"):
        assert entries[tables[name]]["my_deadline"] is None and entries[tables[name]]["my_seconds_left"] is None


@pytest.mark.parametrize("size", [1, 2, 3, 6])
def test_pages_hold_every_table_once_in_order_and_lead_back(tables, member_api, size):
    whole = [tables[name] for name in ORDER]
    entries, previous = walk(member_api, f"/api/tables/mine/?page_size={size}")
    assert [t["id"] for t in entries] == whole
    assert previous[0] is None and all(previous[1:])
    # Back from the last page by the `previous` links: the same tables, page by page.
    last = member_api.get(f"/api/tables/mine/?page_size={size}")
    while last.data["next"]:
        last = member_api.get(last.data["next"])
    back, page = list(last.data["results"]), last
    while page.data["previous"]:
        page = member_api.get(page.data["previous"])
        back = page.data["results"] + back
    assert [t["id"] for t in back] == whole


def test_the_filters_keep_the_order(tables, member_api):
    running = [t["id"] for t in walk(member_api, "/api/tables/mine/?status=running&page_size=2")[0]]
    assert running == [tables[name] for name in ORDER[:5]]
    current = [t["id"] for t in walk(member_api, "/api/tables/mine/?finished=false&page_size=4")[0]]
    assert current == [tables[name] for name in ORDER[:6]]
    over = [t["id"] for t in walk(member_api, "/api/tables/mine/?finished=1")[0]]
    assert over == [tables["finished"]]


def test_a_clock_her_vacation_stops_comes_after_the_running_ones(owner, member, member_api):
    # ruling S4: a vacation stops her correspondence clocks, not one with a time bank; a stopped one cannot run out.
    stopped = her_turn_at(owner, member, hours=1)
    banked = her_turn_at(owner, member, time_bank_days=1)  # a time bank instead of vacation (ruling S4)
    theirs = their_turn_at(owner, member)
    vacation_start(user=member, days=3)
    entries = walk(member_api, "/api/tables/mine/?page_size=1")[0]
    assert [t["id"] for t in entries] == [banked.pk, stopped.pk, theirs.pk]
    assert entries[0]["my_deadline"] and 0 < entries[0]["my_seconds_left"] <= banked.turn_seconds
    assert entries[1]["my_turn"] and entries[1]["my_deadline"] is None and entries[1]["my_seconds_left"] is None


def test_a_seat_that_left_is_not_waited_for(owner, member, outsider, member_api):
    # ruling S1: a seat that resigned decides nothing more, even while the bot plays its turn.
    game = services.game_create(user=owner, kind="topology", players=3)
    services.game_join(user=member, game_id=game.pk)
    services.game_join(user=outsider, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    services.game_resign(user=member, game_id=game.pk)
    entry = member_api.get("/api/tables/mine/").data["results"][0]
    assert entry["id"] == game.pk and not entry["my_turn"] and entry["my_deadline"] is None


def test_a_page_costs_the_same_queries_however_many_tables(owner, member, member_api):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert member_api.get("/api/tables/mine/?page_size=50").status_code == 200
        return len(captured)

    her_turn_at(owner, member)
    their_turn_at(owner, member)
    few = queries()
    for _ in range(3):
        her_turn_at(owner, member)
        their_turn_at(owner, member)
    assert queries() == few


@pytest.mark.parametrize("position", ["0|tomorrow|3", "0|2026-01-01T00:00:00|3", "x|2026-01-01T00:00:00+00:00|3", "1"])
def test_a_cursor_not_given_by_the_api_is_400(member_api, position):
    cursor = base64.b64encode(f"p={position}".encode()).decode()
    reply = member_api.get("/api/tables/mine/", {"cursor": cursor})
    assert reply.status_code == 400 and reply.data["error"] == "invalid_cursor"


def test_the_schema_documents_the_order_and_the_time_left(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/tables/mine/"]["get"]
    assert "most urgent first" in operation["summary"] and "soonest deadline first" in operation["description"]
    fields = schema["components"]["schemas"]["TableSummaryOut"]["properties"]
    assert fields["my_deadline"]["format"] == "date-time" and fields["my_deadline"]["nullable"]
    assert fields["my_seconds_left"]["type"] == "integer" and "my_turn" in fields
