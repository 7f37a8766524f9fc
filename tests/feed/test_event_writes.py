"""The effects dispatch writes each person's events once: start, turns, moves, the end; an invitation its own."""

from __future__ import annotations

import json

import pytest

from feed.models import Event
from games import services
from games.models import Game, GameEffects
from notifications.events import game_effects_dispatch
from tests.games.tables import decide, everyone_played, play_turn, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)
PUBLIC_KEYS = {"table", "game", "version", "status", "to_act", "seat", "turn_began", "invited_by"}


@pytest.fixture(autouse=True)
def inline(celery_eager):
    """The dispatch runs as the worker would, right after each commit."""


def events_of(user) -> list[tuple[str, str]]:
    return list(Event.objects.filter(user=user).order_by("id").values_list("kind", "key"))


def test_it_tells_both_players_of_the_start_and_the_one_to_act_of_her_turn(owner, member):
    game = topology_table(owner, member)
    assert events_of(owner) == [("started", f"started:{game.pk}"), ("your_turn", f"turn:{game.pk}:0:v0")]
    assert events_of(member) == [("started", f"started:{game.pk}")]
    turn = Event.objects.get(user=owner, kind="your_turn")
    assert turn.data == {
        "table": game.pk,
        "game": "topology",
        "version": 0,
        "status": "running",
        "to_act": [0],
        "seat": 0,
        "turn_began": 0,
    }


def test_a_turn_tells_moves_to_everyone_seated_and_the_next_turn_once(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # several decisions, private to her until her end_turn (ruling S3)
    moves = Event.objects.filter(user=member, kind="move").order_by("id")
    assert [e.data["version"] for e in moves] == [game.version]  # only her confirmation sends a dispatch
    assert list(Event.objects.filter(user=owner, kind="move").values_list("key", flat=True)) == list(
        moves.values_list("key", flat=True)
    )
    (turn,) = Event.objects.filter(user=member, kind="your_turn")
    assert turn.data["seat"] == 1 and turn.data["turn_began"] == game.version
    assert Event.objects.filter(user=owner, kind="your_turn").count() == 1  # her own turn, told once


def test_a_retried_dispatch_writes_nothing_twice(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    before = sorted(Event.objects.values_list("user_id", "key"))
    GameEffects.objects.filter(game=game).update(version=-1, status="")  # as if the cursor had never moved
    assert game_effects_dispatch(game_id=game.pk) is True
    assert sorted(Event.objects.values_list("user_id", "key")) == before


def test_the_end_of_a_game_is_told_to_every_player(owner, member):
    game = everyone_played(topology_table(owner, member))  # ruling S1, turn 3
    services.game_resign(game_id=game.pk, user=member)
    assert Game.objects.get(pk=game.pk).status == "finished"
    for user in (owner, member):
        assert Event.objects.filter(user=user, kind="finished", key=f"finished:{game.pk}").count() == 1


def test_an_invitation_is_an_event_of_the_invited_at_once(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_invite(user=owner, game_id=game.pk, username=member.username)
    (event,) = Event.objects.filter(user=member)
    assert (event.kind, event.game_id, event.data["invited_by"]) == ("invited", game.pk, owner.username)
    services.game_invite(user=owner, game_id=game.pk, username=member.username)  # again: nothing new
    assert Event.objects.filter(user=member).count() == 1


def test_events_carry_no_hidden_information(owner, member):
    """Toppo hands are secret: nothing of any hand, the deck or the seed is in any event."""
    game = toppo_table(owner, member)
    for _ in range(3):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            break
        game = decide(game, owner if 0 in game.to_act else member)
    state = Game.objects.get(pk=game.pk).state
    secrets = [json.dumps(deck) for deck in state["decks"] if deck]  # each seat's own cards
    rows = list(Event.objects.filter(game=game))
    assert rows
    for event in rows:
        assert set(event.data) <= PUBLIC_KEYS, event.data
        text = json.dumps(event.data, sort_keys=True)
        assert game.seed not in text
        assert all(secret not in text for secret in secrets)
