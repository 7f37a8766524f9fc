"""A player's finished games (her game history under her own name): GET /api/players/{username}/games/, in cursor
pages with filters game, pace, players, rated and result (decision 12, points 4 and 5)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def resigned(winner, loser, *, kind="topology", private=False, rated=True, pace="correspondence") -> Game:
    """A two-seat game `loser` resigned (ruling S1: she left, ranked last; the other won)."""
    game = services.game_create(user=winner, kind=kind, players=2, private=private, rated=rated, pace=pace)
    services.game_join(user=loser, game_id=game.pk, invite_code=game.invite_code)
    services.game_start(user=winner, game_id=game.pk)
    everyone_played(game)  # ruling S1, turn 3: before that, resigning would abort it
    services.game_resign(user=loser, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def history(owner, member):
    """ana's finished games, oldest first: won (topology), lost by leaving (topoum, unrated), won (toppo, live),
    and a private one she won."""
    return [
        resigned(owner, member),
        resigned(member, owner, kind="topoum", rated=False),
        resigned(owner, member, kind="toppo", pace="live"),
        resigned(owner, member, private=True),
    ]


def ids(reply) -> list[int]:
    assert reply.status_code == 200, reply.content
    return [g["id"] for g in reply.json()["results"]]


def test_her_history_comes_newest_first_in_cursor_pages_with_her_private_tables(history, owner_api):
    page = owner_api.get("/api/players/ana/games/", {"page_size": 3}).json()
    assert page["previous"] is None and len(page["results"]) == 3
    rest = owner_api.get(page["next"]).json()
    assert [g["id"] for g in page["results"] + rest["results"]] == [g.pk for g in reversed(history)]
    assert rest["next"] is None and rest["previous"]
    first = page["results"][0]
    assert first["private"] is True and first["won"] is True and first["url"] == f"/tables/{history[3].pk}/"
    assert first["opponents"][0]["player"] == "bruno"


def test_others_see_only_the_tables_they_may_see(history, outsider_api):
    public = [g.pk for g in reversed(history[:3])]
    assert ids(outsider_api.get("/api/players/ana/games/")) == public
    assert ids(APIClient().get("/api/players/ana/games/")) == public  # no token needed


@pytest.mark.parametrize(
    "query,expected",
    [
        ({"game": "topoum"}, [1]),
        ({"pace": "live"}, [2]),
        ({"rated": "false"}, [1]),
        ({"rated": "true"}, [3, 2, 0]),
        ({"result": "won"}, [3, 2, 0]),
        ({"result": "lost"}, [1]),
        ({"result": "left"}, [1]),
        ({"players": 3}, []),
        ({"game": "topology", "result": "won"}, [3, 0]),
    ],
)
def test_filters(history, owner_api, query, expected):
    assert ids(owner_api.get("/api/players/ana/games/", query)) == [history[i].pk for i in expected]


@pytest.mark.parametrize(
    "query,field",
    [
        ({"game": "chess"}, None),
        ({"result": "drew"}, "result"),
        ({"rated": "sometimes"}, "rated"),
        ({"players": 0}, "players"),
        ({"pace": "slow"}, "pace"),
        ({"cursor": "made-up"}, None),
    ],
)
def test_a_bad_filter_or_cursor_is_400(history, owner_api, query, field):
    reply = owner_api.get("/api/players/ana/games/", query)
    assert reply.status_code == 400 and reply.json()["detail"]
    if field:
        assert field in reply.json()["fields"]


def test_an_unknown_player_is_404(owner_api):
    reply = owner_api.get("/api/players/nobody/games/")
    assert reply.status_code == 404 and "nobody" in reply.json()["detail"]


def test_the_player_answer_holds_the_first_page_and_its_next_leads_to_the_list(history, owner_api):
    first = owner_api.get("/api/players/ana/", {"page_size": 2, "game": "topology"}).json()["finished_games"]
    assert [g["id"] for g in first["results"]] == [history[3].pk, history[0].pk] and first["next"] is None
    first = owner_api.get("/api/players/ana/", {"page_size": 2}).json()["finished_games"]
    assert "/api/players/ana/games/" in first["next"] and "page_size=2" in first["next"]
    rest = owner_api.get(first["next"]).json()
    assert [g["id"] for g in first["results"] + rest["results"]] == [g.pk for g in reversed(history)]
