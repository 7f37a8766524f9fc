"""GET /api/players/{username}/: the player's page for programs, documented in the schema (decision 11, point 5)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from games.selectors import player_stats
from tests.games.factories import started_topology
from tests.games.test_replay import play
from tests.web.test_web_end_of_game import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(owner, member):
    """Two finished Topology games and one Toppo game between ana and bruno, oldest first."""
    return [
        play(started_topology(owner, member)),
        finished("toppo", owner, member),
        play(started_topology(owner, member)),
    ]


def test_the_answer_has_her_statistics_and_finished_games_with_opponents(games, owner):
    answer = APIClient().get("/api/players/ana/")  # public: no token needed
    assert answer.status_code == 200
    body = answer.json()
    assert body["username"] == "ana"
    assert sorted(r["key"] for r in body["ratings"]) == ["topology", "toppo-correspondence"]  # ruling S5
    by_game = {s["game"]: s for s in body["statistics"]}
    assert set(by_game) == {"topology", "toppo"}
    for kind, mine in by_game.items():
        seats = [g.seats.get(user=owner) for g in games if g.kind == kind]
        assert mine["played"] == len(seats)
        assert mine["won"] == sum(s.rank == 1 for s in seats)
        assert mine["average_rank"] == pytest.approx(sum(s.rank for s in seats) / len(seats), abs=0.01)
        assert mine["average_seats"] == 2
    listed = body["finished_games"]
    assert listed["previous"] is None and listed["next"] is None
    assert [g["id"] for g in listed["results"]] == [g.pk for g in reversed(games)]
    first = listed["results"][0]
    mine, theirs = games[2].seats.get(user=owner), games[2].seats.exclude(user=owner).get()
    assert (first["rank"], first["score"], first["seat"]) == (mine.rank, mine.score, mine.index)
    assert first["opponents"] == [
        {
            "seat": theirs.index,
            "player": "bruno",
            "bot_level": None,
            "rank": theirs.rank,
            "score": theirs.score,
            "left": False,
        }
    ]
    assert first["url"] == f"/tables/{games[2].pk}/" and first["replay_url"] == f"/tables/{games[2].pk}/replay/"


def test_finished_games_come_a_page_at_a_time_and_by_game(games, owner_api):
    # Decision 12, point 5: cursor pages; `next` leads to GET /api/players/{username}/games/.
    page = owner_api.get("/api/players/bruno/", {"page_size": 2}).json()["finished_games"]
    assert len(page["results"]) == 2 and page["previous"] is None
    rest = owner_api.get(page["next"]).json()
    assert [g["id"] for g in page["results"] + rest["results"]] == [g.pk for g in reversed(games)]
    assert rest["next"] is None
    toppo = owner_api.get("/api/players/bruno/", {"game": "toppo"}).json()["finished_games"]
    assert [g["id"] for g in toppo["results"]] == [games[1].pk]


def test_unknown_players_and_games_are_refused_with_a_message(owner_api, owner):
    missing = owner_api.get("/api/players/nobody/")
    assert missing.status_code == 404 and "nobody" in missing.json()["detail"]
    bad = owner_api.get("/api/players/ana/", {"game": "chess"})
    assert bad.status_code == 400 and "chess" in bad.json()["detail"] and "topology" in bad.json()["detail"]


def test_a_private_table_is_listed_only_to_those_who_may_see_it(owner, member, owner_api, member_api, outsider_api):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    secret = play(services.game_start(user=owner, game_id=game.pk))
    assert secret.status == Game.Status.FINISHED
    for api in (outsider_api, APIClient()):
        body = api.get("/api/players/ana/").json()
        assert body["finished_games"]["results"] == [] and str(secret.pk) not in str(body["finished_games"])
        assert body["statistics"][0]["played"] == 1  # counted: a number names no table
    for api in (owner_api, member_api):
        assert [g["id"] for g in api.get("/api/players/ana/").json()["finished_games"]["results"]] == [secret.pk]


def test_the_schema_documents_the_answer_with_named_shapes(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/players/{username}/"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/PlayerOut")
    assert {"400", "404"} <= set(operation["responses"])
    assert {p["name"] for p in operation["parameters"]} >= {"username", "game", "cursor", "page_size"}
    components = schema["components"]["schemas"]
    assert {"played", "won", "average_rank", "average_seats"} <= set(components["GameStatsOut"]["properties"])
    assert "opponents" in components["FinishedGameOut"]["properties"]


def test_the_answer_matches_the_page(client, games, owner):
    api = APIClient().get("/api/players/ana/").json()["statistics"]
    page = client.get("/accounts/players/ana/").context["stats"]
    assert [(s["game"], s["played"], s["won"], s["average_rank"]) for s in api] == [
        (s["game"], s["played"], s["won"], s["average_rank"]) for s in page
    ]
    assert player_stats.game_stats(owner)[0]["game"] == "topology"
