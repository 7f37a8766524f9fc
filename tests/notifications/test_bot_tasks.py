"""Bots move through Celery: after commit, with a person's reaction time, computed for a version (ruling S2)."""
from __future__ import annotations

import pytest
from django.db import transaction

from config.celery import app
from engine.bots import levels
from games import services, tasks
from games.models import Action, Game
from tests.notifications.tables import decide, dealt_with, play_turn, seed_for, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)


def turns(game) -> list[tuple[int, str, int]]:
    """The log as turns: (seat, source, decisions), each run of one seat's actions ending with end_turn."""
    rows = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "source", "action__type"))
    out, decisions = [], 0
    for seat, source, kind in rows:
        decisions += 1
        if kind == "end_turn":
            out.append((seat, source, decisions))
            decisions = 0
    assert decisions == 0, "a turn was left half played"
    return out


def test_a_table_filled_with_bots_plays_them_until_the_person_is_to_act(owner):
    game = services.game_create(user=owner, kind="topology", players=3)
    with dealt_with(seed_for("topology", 3)):
        game = services.game_start(user=owner, game_id=game.pk, fill_with_bots="random")
    assert list(game.seats.order_by("index").values_list("bot_level", flat=True)) == ["", "random", "random"]
    game = play_turn(game, owner)
    assert game.to_act == [0]  # both bots answered, in turn
    # with three players the start player places one tile in her first turn, then everyone two (ruling L5)
    assert turns(game) == [(0, "player", 1 + 1), (1, "bot", 2 + 1), (2, "bot", 2 + 1)]


def test_a_resigned_seat_is_played_by_the_bot_at_once(owner, member):
    game = topology_table(owner, member, bots=["greedy"])  # the bot sits in seat 1, the member joined seat 2
    game = play_turn(game, owner)
    assert game.to_act == [2]
    game = decide(game, member)  # she starts her turn, then gives up in the middle of it
    services.game_resign(game_id=game.pk, user=member)  # no version bump: the bots are asked all the same
    game.refresh_from_db()
    assert game.to_act == [0]
    assert game.seats.get(index=2).abandoned
    # the bot finished her turn from where she left it
    assert turns(game) == [(0, "player", 2), (1, "bot", 3), (2, "bot", 3)]
    assert list(Action.objects.filter(game=game, seat=2).order_by("seq").values_list("source", flat=True)) == [
        "player", "bot", "bot"]


def test_a_stale_bot_task_does_nothing(owner):
    game = topology_table(owner, bots=["random"])
    game = play_turn(game, owner)  # the bot answered with its whole turn: the owner is to act again
    assert game.to_act == [0] and game.version == Action.objects.filter(game=game).count()
    assert Action.objects.filter(game=game, source="bot").count() == 4
    version = game.version
    assert tasks.bot_move.run(game.pk, 1, version - 1) is None  # computed for a version that is gone
    assert tasks.bot_move.run(game.pk, 1, version) is None  # not the bot's decision
    assert Game.objects.get(pk=game.pk).version == version


@pytest.fixture
def with_broker(monkeypatch, settings):
    """As if a broker were there: record what would be sent instead of running it."""
    sent = []
    monkeypatch.setattr(app.conf, "task_always_eager", False)
    monkeypatch.setattr("celery.app.task.Task.apply_async",
                        lambda self, args=None, kwargs=None, **opts: sent.append((self.name, tuple(args), opts)))
    settings.TOPOS_BOT_DELAY_SCALE = 1
    return sent


def test_with_a_broker_each_bot_move_is_a_task_after_a_human_reaction_time(owner, with_broker):
    game = toppo_table(owner, bots=["random", "strong"])  # a Toppo round: every seat claims at once (ruling P4)
    assert sorted(game.to_act) == [0, 1, 2]
    assert [name for name, _, _ in with_broker] == ["games.tasks.game_effects"]  # sent when the start committed
    with_broker.clear()
    tasks.schedule_bots(game.pk)
    assert [(name, args) for name, args, _ in with_broker] == [
        ("games.tasks.bot_move", (game.pk, 1, 0)), ("games.tasks.bot_move", (game.pk, 2, 0))]
    for (_, (_, seat, _), opts), level in zip(with_broker, ["random", "strong"]):
        low, high = levels()[level]["delay_seconds"]
        assert low <= opts["countdown"] <= high


def test_with_a_broker_a_move_sends_its_effects_only_after_commit(owner, member, with_broker):
    game = topology_table(owner, member)
    with_broker.clear()
    with transaction.atomic():
        game = decide(game, owner)
        game = decide(game, owner)
        assert with_broker == []  # nothing leaves before the commit
    assert [name for name, _, _ in with_broker] == ["games.tasks.game_effects"] * 2
    with_broker.clear()
    play_turn(game, owner)  # the last placement and end_turn, each committed on its own
    assert [name for name, _, _ in with_broker] == ["games.tasks.game_effects"] * 2
