"""Decision 17 over the API: the watch list, the open list without full tables, challenges, the spectator's view."""

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game, Spectator
from games.selectors.positions import load_state
from tests.conftest import api_client_for
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def _ids(reply) -> list[int]:
    assert reply.status_code == 200, reply.content
    return [t["id"] for t in reply.json()["results"]]


def _started(owner, member, kind="topoum", **kwargs) -> Game:
    game = services.game_create(user=owner, kind=kind, players=2, **kwargs)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    return services.game_start(user=owner, game_id=game.pk)


def test_anyone_may_list_running_public_games_to_watch_latest_activity_first(owner, member, outsider_api):
    older = started_topology(owner, member)
    newer = started_topology(owner, member)
    private = _started(owner, member, kind="topology", private=True)
    waiting = services.game_create(user=owner, kind="topology", players=2)
    Game.objects.filter(pk=older.pk).update(version=5)  # a move at the older table: it has the latest activity
    older.save(update_fields=["updated_at"])
    for client in (APIClient(), outsider_api):
        listed = _ids(client.get("/api/tables/watch/"))
        assert listed == [older.pk, newer.pk]
        assert private.pk not in listed and waiting.pk not in listed


def test_the_watch_list_counts_spectators_and_pages_with_a_cursor(owner, member, outsider):
    first = started_topology(owner, member)
    second = started_topology(owner, member)
    Spectator.objects.create(game=first, viewer="someone", seen_at=first.updated_at)
    Spectator.objects.create(game=first, viewer="a player", user=member, seen_at=first.updated_at)  # not counted
    page = APIClient().get("/api/tables/watch/?page_size=1").json()
    assert [t["id"] for t in page["results"]] == [second.pk] and page["results"][0]["spectators"] == 0
    rest = APIClient().get(page["next"]).json()
    assert [t["id"] for t in rest["results"]] == [first.pk] and rest["results"][0]["spectators"] == 1
    assert rest["next"] is None


def test_the_watch_list_filters_by_game_players_pace_and_rated(owner, member, outsider):
    topology = started_topology(owner, member)
    toppo = services.game_create(user=owner, kind="toppo", players=2, pace="live", rated=False)
    services.game_join(user=member, game_id=toppo.pk)
    services.game_start(user=owner, game_id=toppo.pk)
    client = APIClient()
    assert _ids(client.get("/api/tables/watch/?game=toppo")) == [toppo.pk]
    assert _ids(client.get("/api/tables/watch/?pace=correspondence")) == [topology.pk]
    assert _ids(client.get("/api/tables/watch/?rated=false")) == [toppo.pk]
    assert _ids(client.get("/api/tables/watch/?rated=true&players=2")) == [topology.pk]
    assert _ids(client.get("/api/tables/watch/?players=3")) == []


@pytest.mark.parametrize("query", ["game=chess", "players=nine", "pace=slow", "rated=maybe", "cursor=made-up"])
def test_a_bad_watch_filter_is_400_naming_it(query):
    reply = APIClient().get(f"/api/tables/watch/?{query}")
    assert reply.status_code == 400 and reply.json()["error"] in ("invalid", "invalid_cursor")


def test_full_and_started_tables_are_never_listed_as_open(owner, member, outsider, outsider_api):
    waiting = services.game_create(user=owner, kind="topology", players=3)
    full = services.game_create(user=owner, kind="topology", players=2, auto_start=False)
    services.game_join(user=member, game_id=full.pk)
    started = started_topology(owner, member)
    listed = _ids(outsider_api.get("/api/tables/"))
    assert waiting.pk in listed and full.pk not in listed and started.pk not in listed
    assert _ids(outsider_api.get("/api/tables/?status=open")) == [waiting.pk]
    assert started.pk in _ids(outsider_api.get("/api/tables/?status=running"))


def test_the_open_list_filters_by_rated(owner, outsider_api):
    rated = services.game_create(user=owner, kind="topology", players=2)
    friendly = services.game_create(user=owner, kind="topology", players=2, rated=False)
    assert _ids(outsider_api.get("/api/tables/?rated=true")) == [rated.pk]
    assert _ids(outsider_api.get("/api/tables/?rated=false")) == [friendly.pk]


def test_a_table_opened_by_the_api_starts_itself_unless_told_not_to(owner_api, member_api):
    plain = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json").json()
    manual = owner_api.post(
        "/api/tables/", {"game": "topology", "players": 2, "auto_start": False}, format="json"
    ).json()
    assert plain["auto_start"] is True and manual["auto_start"] is False
    assert member_api.post(f"/api/tables/{plain['id']}/join/").json()["status"] == "running"
    assert member_api.post(f"/api/tables/{manual['id']}/join/").json()["status"] == "open"


def test_a_table_of_bots_opened_by_the_api_is_running_at_once(owner_api):
    # Decision 26: every seat taken at the creation (the others by bots) with auto_start on, its default.
    body = {"game": "toppo", "players": 3, "bots": ["random", "random"], "options": {"hands": 1}}
    started = owner_api.post("/api/tables/", body, format="json")
    manual = owner_api.post("/api/tables/", {**body, "auto_start": False}, format="json")
    assert (started.status_code, started.json()["status"]) == (201, "running")
    assert (manual.status_code, manual.json()["status"]) == (201, "open")


def test_a_challenged_player_accepts_and_the_table_starts(owner_api, member_api, owner, member):
    reply = owner_api.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json")
    assert reply.status_code == 201, reply.content
    table = reply.json()
    assert table["status"] == "open" and table["players"] == 2 and table["auto_start"] is True
    invitations = member_api.get("/api/invitations/").json()["results"]
    assert [(i["table"], i["invited_by"]) for i in invitations] == [(table["id"], "ana")]
    accepted = member_api.post(f"/api/invitations/{invitations[0]['id']}/accept/")
    assert accepted.status_code == 200
    assert member_api.get(f"/api/tables/{table['id']}/").json()["status"] == "running"


def test_a_challenge_with_options_and_without_auto_start(owner_api, member_api):
    body = {
        "username": "bruno",
        "game": "toppo",
        "players": 3,
        "pace": "live",
        "turn_seconds": 30,
        "rated": False,
        "auto_start": False,
    }
    table = owner_api.post("/api/challenges/", body, format="json").json()
    assert (table["game"], table["players"], table["pace"], table["turn_seconds"], table["rated"]) == (
        "toppo",
        3,
        "live",
        30,
        False,
    )
    invitation = member_api.get("/api/invitations/").json()["results"][0]
    member_api.post(f"/api/invitations/{invitation['id']}/accept/")
    assert member_api.get(f"/api/tables/{table['id']}/").json()["status"] == "open"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"username": "nobody", "game": "topology"}, 404),
        ({"username": "ana", "game": "topology"}, 400),
        ({"game": "topology"}, 400),
        ({"username": "bruno", "game": "chess"}, 400),
    ],
)
def test_a_refused_challenge_says_why_and_opens_nothing(owner_api, member, body, status):
    reply = owner_api.post("/api/challenges/", body, format="json")
    assert reply.status_code == status and set(reply.json()) >= {"error", "detail"}
    assert not Game.objects.exists()


def test_an_anonymous_challenge_is_401(member):
    assert (
        APIClient().post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json").status_code
        == 401
    )


def test_a_spectator_gets_the_public_view_only(owner, member, outsider_api):
    """Ruling G0.3: someone who does not sit at the table, logged in or not, sees no hand."""
    game = _started(owner, member)
    public = load_state(game).view(None)
    for client in (APIClient(), outsider_api):
        detail = client.get(f"/api/tables/{game.pk}/").json()
        assert detail["my_seat"] is None and detail["legal_actions"] == []
        assert "hand" not in detail["view"] and detail["view"] == public
        assert detail["spectators"] == 0
    seat = game.seats.get(user=owner).index
    mine = api_client_for(owner).get(f"/api/tables/{game.pk}/").json()["view"]
    assert mine["hand"] == load_state(game).view(seat)["hand"]  # her own hand, to her only
