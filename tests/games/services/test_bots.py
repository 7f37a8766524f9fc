"""Bots move through Celery: after commit, with a person's reaction time, computed for a version (ruling S2)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from config.celery import app
from engine.bots import levels, thinking_seconds
from games import services, tasks
from games.models import Action, Game, GameEffects, Seat
from tests.games.tables import (
    dealt_with,
    decide,
    dispatches_sent,
    everyone_played,
    play_turn,
    seed_for,
    topology_table,
    toppo_table,
)
from tests.integration.workers import TEST_REDIS_URL, redis_problem

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


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
    game = everyone_played(game)  # ruling S1, turn 3: resigning before that would abort the game
    start = game.version
    game = play_turn(game, owner)
    assert game.to_act == [2]
    game = decide(game, member)  # she starts her turn, then gives up in the middle of it
    services.game_resign(game_id=game.pk, user=member)  # a log entry of its own (ruling S1), then the bot
    game.refresh_from_db()
    assert game.to_act == [0]
    assert game.seats.get(index=2).abandoned
    # the bot finished her turn from where she left it, after the entry saying she resigned
    assert turns(game)[-3:] == [(0, "player", 2 + 1), (1, "bot", 3), (2, "bot", 3 + 1)]
    assert list(
        Action.objects.filter(game=game, seat=2, seq__gt=start).order_by("seq").values_list("source", "action__type")
    ) == [
        ("player", "place"),
        ("player", "resign"),
        ("bot", "place"),
        ("bot", "end_turn"),
    ]


def test_a_bot_task_that_already_played_or_was_superseded_does_nothing(owner):
    game = topology_table(owner, bots=["random"])
    game = play_turn(game, owner)  # the bot answered with its whole turn: the owner is to act again
    assert game.to_act == [0] and game.version == Action.objects.filter(game=game).count()
    assert Action.objects.filter(game=game, source="bot").count() == 4
    assert game.seats.get(index=1).bot_task == ""  # its task is spent
    version = game.version
    assert tasks.bot_move.run(game.pk, 1, "a-token-that-is-gone") is None  # redelivered or duplicated
    assert Game.objects.get(pk=game.pk).version == version


@pytest.fixture
def with_broker(celery_eager, settings, sent_tasks):
    """A broker is there but no worker: what is sent stays in the broker's queue for the test to read."""
    app.conf.task_always_eager = False
    settings.TOPOS_BOT_DELAY_SCALE = 1
    return sent_tasks


def test_each_bot_gets_one_task_after_a_human_reaction_time_and_no_second_one(owner, with_broker):
    game = toppo_table(owner, bots=["random", "strong"])  # a Toppo round: every seat claims at once (ruling P4)
    assert sorted(game.to_act) == [0, 1, 2]
    assert [name for name, _, _ in with_broker()] == ["games.tasks.game_effects"]  # sent when the start committed
    before = timezone.now()
    assert tasks.schedule_bots(game.pk) == 2
    sent = sorted(with_broker()[1:], key=lambda task: task[1][1])  # sent within one millisecond: by seat
    seats = {s.index: s for s in game.seats.all()}
    assert [(name, args[:2]) for name, args, _ in sent] == [
        ("games.tasks.bot_move", (game.pk, 1)),
        ("games.tasks.bot_move", (game.pk, 2)),
    ]
    for (_, (_, seat, token), eta), level in zip(sent, ["random", "strong"]):
        seats[seat].refresh_from_db()
        assert seats[seat].bot_task == token  # the one task this seat may play with
        low, high = levels()[level]["delay_seconds"]
        if game.pace != "live":  # decision 26: by correspondence its turn's thinking limit counts in its reaction time
            think = thinking_seconds(level, game.pace) or 0.0
            low, high = max(0.0, low - think), max(0.0, high - think)
        wait = (datetime.fromisoformat(eta) - before).total_seconds() if eta else 0.0
        assert low - 0.5 <= wait <= high + 0.5
    # effects dispatched again (a retried task, the outbox sweep): the bots already have their tasks
    assert tasks.schedule_bots(game.pk) == 0
    tasks.game_effects.run(game.pk)
    assert [name for name, _, _ in with_broker()].count("games.tasks.bot_move") == 2


def test_a_bot_task_lost_long_ago_is_replaced(owner, with_broker):
    game = toppo_table(owner, bots=["random"])
    assert tasks.schedule_bots(game.pk) == 1
    Seat.objects.filter(game=game, index=1).update(bot_task_due=timezone.now() - timedelta(minutes=10))
    assert tasks.schedule_bots(game.pk) == 1  # the worker that held it died; the seat gets a fresh task
    tokens = [args[2] for name, args, _ in with_broker() if name == "games.tasks.bot_move"]
    assert len(set(tokens)) == 2
    assert tasks.bot_move.run(game.pk, 1, tokens[0]) is None  # the old one, should it come back, does nothing
    assert tasks.bot_move.run(game.pk, 1, tokens[1]) is not None


@pytest.fixture(params=["row", "redis"])
def mark_store(request, settings):
    """Where a move keeps the "dispatch queued" mark (games.services.effects_mark): on the GameEffects row (no
    Redis), or in Redis as a key; the promises below hold for both."""
    if request.param == "redis":
        problem = redis_problem(TEST_REDIS_URL)
        if problem:
            pytest.skip(problem)
        import redis

        settings.REDIS_URL = TEST_REDIS_URL
        client = redis.Redis.from_url(TEST_REDIS_URL)
        for key in client.keys("topos:effects:queued:*"):  # a game of an earlier run may have had this id
            client.delete(key)
        client.close()
    return request.param


def public_decision(game, *people):
    """One decision at a Toppo table, whose decisions are all public: the first of `people` whose decision it is
    makes it.  The first claim of a correspondence round tells nobody anything new and sends no dispatch
    (decision 28, games.services.effects.sealed_decision_told); the one that resolves the round sends one."""
    to_decide = [user for user in people if game.seats.get(user=user).index in game.to_act]
    return decide(game, to_decide[0])


def public_round(game, *people):
    """A whole correspondence Toppo round: every seat's claim (the last one resolves it, and sends a dispatch)."""
    round_began = game.turn_version
    while game.turn_version == round_began:
        game = public_decision(game, *people)
    return game


def test_with_a_broker_a_move_sends_its_effects_only_after_commit(owner, member, with_broker, mark_store):
    game = toppo_table(owner, member, hands=20)
    tasks.game_effects.run(game.pk)  # the start's dispatch, taken by a worker
    before = len(with_broker())
    with transaction.atomic():
        game = public_decision(game, owner, member)
        game = public_decision(game, member, owner)
        assert len(with_broker()) == before  # nothing leaves before the commit
    assert [name for name, _, _ in with_broker()[before:]] == ["games.tasks.game_effects"]


def test_moves_made_while_a_dispatch_waits_send_no_second_one(owner, member, with_broker, mark_store):
    """One pending dispatch per game: it reads the game when it runs, so it tells every move made before."""
    game = toppo_table(owner, member, hands=20)
    tasks.game_effects.run(game.pk)  # the start's dispatch
    before = len(with_broker())
    game = public_decision(game, owner, member)
    game = public_decision(game, member, owner)
    assert [name for name, _, _ in with_broker()[before:]] == ["games.tasks.game_effects"]
    tasks.game_effects.run(game.pk)  # the worker takes it: it has told both decisions
    assert GameEffects.objects.get(game=game).version == Game.objects.get(pk=game.pk).version
    public_round(game, owner, member)  # a change after the dispatch began sends a task of its own
    assert dispatches_sent(with_broker()[before:]) == 2


def test_a_dispatch_sent_long_ago_and_never_started_does_not_silence_the_table(owner, member, with_broker):
    game = toppo_table(owner, member, hands=20)
    tasks.game_effects.run(game.pk)
    before = len(with_broker())
    game = public_round(game, owner, member)
    GameEffects.objects.filter(game=game).update(
        queued_at=timezone.now() - timedelta(minutes=5)
    )  # lost with its broker
    public_round(game, member, owner)
    assert dispatches_sent(with_broker()[before:]) == 2


def test_a_live_bot_facing_an_idle_table_stops_after_a_round_of_decisions(owner):
    """At a live pace a bot makes at most LIVE_BOT_ACTIONS_PER_ROUND decisions in a row while nobody else acts.

    Tasks run inline here and the reaction time is 0, so without the bound the bot would play the whole
    hand down inside the start (as it once did inside a person's request).
    """
    from games.services import bot_tasks_claim
    from games.services.bots import LIVE_BOT_ACTIONS_PER_ROUND
    from tests.games.tables import open_table

    game = open_table("toppo", owner, bots=["greedy"], options={"hands": 1}, pace="live", turn_seconds=60, start=False)
    with dealt_with(seed_for("toppo", 2, game.options, first=1)):  # the bot starts: it may reveal at once
        services.game_start(user=owner, game_id=game.pk)
    game.refresh_from_db()
    sources = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "source"))
    assert sources == [(1, "bot")] * LIVE_BOT_ACTIONS_PER_ROUND
    assert game.is_running and 1 in game.to_act  # it stopped with moves left: it waits for the table
    assert bot_tasks_claim(game_id=game.pk) == []
    decide(game, owner)  # someone else acts: the bot may play a new round of decisions
    tail = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", flat=True))[len(sources) :]
    assert tail == [0] + [1] * LIVE_BOT_ACTIONS_PER_ROUND
