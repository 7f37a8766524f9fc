"""The embedded default (no Redis): a real worker with the beat inside, on kombu's filesystem broker.

This is what `config/scripts/run.sh` starts beside the web server.  A move is answered before any bot
has thought about it; the worker plays the bot's turn afterwards; the beat inside the worker sweeps a
missed deadline.  Runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Action, Game
from games.selectors.positions import load_state
from notifications.models import Notification
from tests.conftest import api_client_for
from tests.games.tables import dealt_with, pick, seed_for, topology_table
from tests.integration.workers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_answer_to_a_move_comes_before_the_bot_and_the_worker_plays_the_bot(embedded_worker, owner):
    game = topology_table(owner, bots=["strong"])
    api = api_client_for(owner)
    while True:  # her turn, decision by decision, through the API as a client would
        game = Game.objects.get(pk=game.pk)
        action = pick("topology", load_state(game), 0)
        answer = api.post(
            f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
        )
        assert answer.status_code in (200, 201), answer.data
        if action["type"] == "end_turn":
            break
    # The answer is the game right after her own decision: the bot had not moved yet, and nobody waited for it.
    mine = answer.data["seq"]
    assert answer.data["version"] == mine and answer.data["my_turn"] is False
    assert not Action.objects.filter(game=game, source="bot", seq__lte=mine).exists()
    played = wait_for(
        lambda: Game.objects.filter(pk=game.pk, to_act=[0], version__gt=mine).first(),
        90,
        "the worker to play the bot's turn",
    )
    assert [
        kind
        for kind in Action.objects.filter(game=played, seq__gt=mine)
        .order_by("seq")
        .values_list("action__type", flat=True)
    ] == ["place", "place", "place", "end_turn"]
    assert "games.tasks.bot_move" in embedded_worker.output()


def test_the_beat_inside_the_worker_plays_a_missed_deadline(embedded_worker, owner, member):
    game = topology_table(owner, member)
    game.seats.filter(index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    wait_for(
        lambda: Action.objects.filter(game=game, source="timeout", action__type="end_turn").exists(),
        60,
        "the deadline sweep to play the missed turn",
    )
    assert Game.objects.get(pk=game.pk).to_act == [1]
    wait_for(
        lambda: Notification.objects.filter(recipient=owner, kind="bot_played").exists(),
        30,
        "the owner to be told the bot played for her",
    )
    assert "games.tasks.deadlines_sweep" in embedded_worker.output()


def test_a_challenge_accepted_tells_the_creator_her_first_turn_and_a_decline_is_told(embedded_worker, owner, member):
    """The issue's scripted life (ruling S6), with the real worker: the challenger who moves first is told her turn
    by the worker's dispatch, whoever's click started the table; a declined challenge is told and its table closed."""
    ana, bruno = api_client_for(owner), api_client_for(member)
    table = ana.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json").json()
    (invitation,) = bruno.get("/api/invitations/").json()["results"]
    with dealt_with(seed_for("topology", 2, first=0)):  # ana, in seat 0, moves first
        assert bruno.post(f"/api/invitations/{invitation['id']}/accept/").status_code == 200
    wait_for(
        lambda: Notification.objects.filter(recipient=owner, game_id=table["id"], kind="your_turn").exists(),
        60,
        "the worker to tell the challenger her first turn",
    )
    assert sorted(n["kind"] for n in ana.get("/api/notifications/").json()["results"]) == ["answered", "your_turn"]
    assert not Notification.objects.filter(recipient=member, kind="started").exists()  # his click started it
    declined = ana.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json").json()
    (invitation,) = bruno.get("/api/invitations/").json()["results"]
    assert bruno.post(f"/api/invitations/{invitation['id']}/decline/").status_code in (200, 204)
    assert Game.objects.get(pk=declined["id"]).status == "aborted"
    (answer,) = [n for n in ana.get("/api/notifications/").json()["results"] if n["table"] == declined["id"]]
    assert answer["kind"] == "answered" and "declined your invitation" in answer["text"]
