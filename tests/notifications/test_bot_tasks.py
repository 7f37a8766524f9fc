"""Bots move through Celery: after commit, with a person's reaction time, computed for a version (ruling S2)."""
from __future__ import annotations

import pytest

from config.celery import app
from engine.bots import levels
from games import services, tasks
from games.models import Action, Game
from tests.notifications.tables import play_turn, relay_table

pytestmark = pytest.mark.django_db(transaction=True)


def sources(game):
    return list(Action.objects.filter(game=game).values_list("seat", "source"))


def test_a_table_filled_with_bots_plays_them_until_the_person_is_to_act(relay, owner):
    game = services.game_create(user=owner, kind="relay", players=3)
    game = services.game_start(user=owner, game_id=game.pk, fill_with_bots="random")
    assert list(game.seats.values_list("bot_level", flat=True)) == ["", "random", "random"]
    game = play_turn(game, owner)
    assert game.to_act == [0]  # both bots answered, in turn
    assert sources(game) == [(0, "player")] * 2 + [(1, "bot")] * 2 + [(2, "bot")] * 2


def test_a_resigned_seat_is_played_by_the_bot_at_once(relay, owner, member):
    game = relay_table(owner, member, bots=["greedy"])  # the bot sits in seat 1, the member joined seat 2
    game = play_turn(game, owner)
    assert game.to_act == [2]
    services.game_resign(game_id=game.pk, user=member)  # no version bump: the bots are asked all the same
    game.refresh_from_db()
    assert game.to_act == [0]
    assert sources(game)[2:] == [(1, "bot")] * 2 + [(2, "bot")] * 2


def test_a_stale_bot_task_does_nothing(relay, owner):
    game = relay_table(owner, bots=["random"])
    game = play_turn(game, owner)  # the bot answered: version 4, the owner to act
    assert game.version == 4
    assert tasks.bot_move.run(game.pk, 1, 3) is None
    assert tasks.bot_move.run(game.pk, 1, 4) is None  # not the bot's decision
    assert Game.objects.get(pk=game.pk).version == 4


@pytest.fixture
def with_broker(monkeypatch, settings):
    """As if a broker were there: record what would be sent instead of running it."""
    sent = []
    monkeypatch.setattr(app.conf, "task_always_eager", False)
    monkeypatch.setattr("celery.app.task.Task.apply_async",
                        lambda self, args=None, kwargs=None, **opts: sent.append((self.name, tuple(args), opts)))
    settings.TOPOS_BOT_DELAY_SCALE = 1
    return sent


def test_with_a_broker_each_bot_move_is_a_task_after_a_human_reaction_time(relay, owner, with_broker):
    game = relay_table(owner, bots=["random", "strong"], start=False)
    game = services.game_start(user=owner, game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(to_act=[1, 2])  # as at a Toppo table: two bots to act at once
    with_broker.clear()
    tasks.schedule_bots(game.pk)
    assert [(name, args) for name, args, _ in with_broker] == [
        ("games.tasks.bot_move", (game.pk, 1, 0)), ("games.tasks.bot_move", (game.pk, 2, 0))]
    for (_, (_, seat, _), opts), level in zip(with_broker, ["random", "strong"]):
        low, high = levels()[level]["delay_seconds"]
        assert low <= opts["countdown"] <= high


def test_with_a_broker_a_move_sends_its_effects_only_after_commit(relay, owner, member, with_broker):
    game = relay_table(owner, member)
    with_broker.clear()
    play_turn(game, owner)
    assert [name for name, _, _ in with_broker] == ["games.tasks.game_effects"] * 2
