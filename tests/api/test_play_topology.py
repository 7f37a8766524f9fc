"""A whole 2-player Topology game through the HTTP API, two users, from table to result."""

import pytest

from games.models import Action, Game

pytestmark = pytest.mark.django_db


def pick(actions):
    """A deterministic choice a script would make: never undo, else the first legal action."""
    return next(a for a in actions if a["type"] != "undo")


def test_it_plays_a_whole_game_over_http(owner_api, member_api):
    created = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json")
    assert created.status_code == 201, created.data
    table = created.data["id"]
    assert created.data["status"] == "open" and created.data["free_seats"] == 1

    listed = member_api.get("/api/tables/")
    assert table in [t["id"] for t in listed.data["results"]]
    # Decision 17: the table starts by itself (auto_start, on by default) when the last seat is taken.
    started = member_api.post(f"/api/tables/{table}/join/")
    assert started.status_code == 200 and started.data["status"] == "running"

    clients = {0: owner_api, 1: member_api}
    moves = 0
    while True:
        state = owner_api.get(f"/api/tables/{table}/").data
        if state["status"] != "running":
            break
        seat = next(s["index"] for s in state["seats"] if s["to_act"])
        client = clients[seat]
        mine = client.get(f"/api/tables/{table}/legal-actions/").data
        assert mine["my_turn"] and mine["seat"] == seat
        other = clients[1 - seat].get(f"/api/tables/{table}/legal-actions/").data
        assert other["actions"] == [] and not other["my_turn"]
        reply = client.post(
            f"/api/tables/{table}/actions/",
            {"action": pick(mine["actions"]), "expected_version": mine["version"]},
            format="json",
        )
        assert reply.status_code == 200, reply.data
        assert reply.data["version"] == mine["version"] + 1
        moves += 1
        assert moves < 500

    final = member_api.get(f"/api/tables/{table}/").data
    assert final["status"] == "finished"
    ranks = sorted(s["rank"] for s in final["seats"])
    assert ranks == [1, 2]  # ruling L7: ties are broken, so someone wins
    scores = [s["score"] for s in sorted(final["seats"], key=lambda s: s["index"])]
    assert scores == final["view"]["scores"]
    winner = next(s for s in final["seats"] if s["rank"] == 1)
    assert winner["score"] == max(scores)
    assert final["seed"], "the seed is published once the game is over (ruling G0.2)"

    log = member_api.get(f"/api/tables/{table}/actions/").data["results"]
    assert [row["seq"] for row in log] == list(range(1, moves + 1))
    assert all(row["description"] for row in log)
    assert Action.objects.filter(game_id=table).count() == moves == Game.objects.get(pk=table).version

    mine = member_api.get("/api/tables/mine/?finished=1").data["results"]
    assert [t["id"] for t in mine] == [table]
