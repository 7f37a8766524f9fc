"""A real worker on the machine's Redis and PostgreSQL: bots answer, and a killed worker loses nothing.

The table is Topology against a greedy bot, whose turn is four decisions (three placements, then end_turn;
ruling L5), each its own `bot_move` task.  The worker's bot move can be held uncommitted
(TOPOS_BOT_TEST_SLEEP) so that the test kills the worker in the middle of it; the broker redelivers the
task (late acknowledgement, reject on a lost worker, the visibility timeout), and the game's version
check makes the redelivered move apply exactly once.
"""

from __future__ import annotations

import os
import signal

import pytest
from django.db import connection

from feed.models import Event
from games.models import Action, Game, GameEffects
from notifications.models import Notification
from tests.games.tables import play_turn, topology_table
from tests.integration.workers import TEST_REDIS_URL, VISIBILITY_TIMEOUT, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BOT_TURN = ["place", "place", "place", "end_turn"]


def bot_rows(game):
    return list(Action.objects.filter(game=game, source="bot").order_by("seq").values_list("seq", "action__type"))


def whole_bot_turn(after: int) -> list[tuple[int, str]]:
    """The bot's turn as the log holds it when each decision applied once, right after version `after`."""
    return [(after + n, kind) for n, kind in enumerate(BOT_TURN, start=1)]


def answered(game, after: int):
    fresh = Game.objects.get(pk=game.pk)
    return fresh if fresh.version == after + len(BOT_TURN) and fresh.to_act == [0] else None


def my_turn_against_the_bot(owner) -> Game:
    game = topology_table(owner, bots=["greedy"])
    game = play_turn(game, owner)  # each decision committed here; its effects task goes to Redis
    assert game.version == len(BOT_TURN) and game.to_act == [1]
    return game


def move_held_open() -> bool:
    """A worker's transaction has written its move and is waiting (TOPOS_BOT_TEST_SLEEP) before commit."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND state = 'idle in transaction' "
            "AND state_change < now() - interval '300 milliseconds'"
        )
        return cursor.fetchone()[0] > 0


def test_a_move_against_a_bot_is_answered_by_the_worker(start_worker, owner):
    worker = start_worker("answer")
    game = my_turn_against_the_bot(owner)
    mine = game.version
    game = wait_for(lambda: answered(game, mine), 60, "the bot's answer")
    assert bot_rows(game) == whole_bot_turn(mine)
    # the worker also told the owner it is her turn again
    wait_for(
        lambda: Notification.objects.filter(recipient=owner, kind="your_turn").exists(),
        30,
        "the your-turn notification",
    )
    assert "games.tasks.bot_move" in worker.output()


def test_a_worker_killed_in_the_middle_of_a_bot_move_loses_nothing_and_the_move_applies_once(start_worker, owner):
    doomed = start_worker("doomed", TOPOS_BOT_TEST_SLEEP=6)
    game = my_turn_against_the_bot(owner)
    mine = game.version
    wait_for(move_held_open, 60, "the bot's first placement to be written and held open")
    doomed.kill()  # SIGKILL to the whole worker: its transaction is rolled back, its message not acknowledged
    assert bot_rows(game) == []
    assert Game.objects.get(pk=game.pk).version == mine

    rescuer = start_worker("rescuer")  # no pause: redelivered after the visibility timeout
    game = wait_for(lambda: answered(game, mine), VISIBILITY_TIMEOUT + 60, "the redelivered bot move")
    assert bot_rows(game) == whole_bot_turn(mine)
    assert "games.tasks.bot_move" in rescuer.output()
    # nothing else is pending that could apply it a second time
    wait_for(lambda: not move_held_open(), 10, "the workers to be idle")
    assert Game.objects.get(pk=game.pk).version == mine + len(BOT_TURN) and len(bot_rows(game)) == len(BOT_TURN)


def test_a_pool_process_killed_mid_move_is_replaced_and_the_task_redelivered_at_once(start_worker, owner):
    worker = start_worker("survivor", TOPOS_BOT_TEST_SLEEP=3)
    game = my_turn_against_the_bot(owner)
    mine = game.version
    wait_for(move_held_open, 60, "the bot's first placement to be written and held open")
    (child,) = worker.pool_children()
    os.kill(child, signal.SIGKILL)  # the process running the task dies; the worker itself lives
    # every decision of the bot's turn waits 3 s before its commit: four of them, after the requeued one
    game = wait_for(lambda: answered(game, mine), 90, "the requeued bot move and the rest of the bot's turn")
    assert bot_rows(game) == whole_bot_turn(mine)
    assert "WorkerLostError" in worker.output()


def test_with_the_queued_mark_in_redis_each_confirmed_turn_is_told_and_answered(
    start_worker, redis_broker, owner, settings
):
    """Decision 16: with Redis the "dispatch queued" mark is a key (games.services.effects_mark) and a decision inside
    a turn sends no dispatch (ruling S3); the worker still tells each confirmed turn and the bot answers each."""
    settings.REDIS_URL = TEST_REDIS_URL  # this process marks in Redis too, as the site's web processes do
    start_worker("marks")
    game = my_turn_against_the_bot(owner)
    for turn in (1, 2):
        mine = game.version
        game = wait_for(lambda: answered(game, mine), 60, f"the bot's answer to turn {turn}")  # noqa: B023
        told = f"turn:{game.pk}:0:v{game.version}"  # her turn, as the feed names it (once per turn)
        wait_for(lambda: Event.objects.filter(user=owner, key=told).exists(), 30, f"the your-turn event {told}")  # noqa: B023
        if turn == 1:
            game = play_turn(game, owner)
    # the last dispatch told it all, every dispatch took its mark, and none was ever kept on the row
    final = game.version
    wait_for(lambda: GameEffects.objects.get(game=game).version == final, 30, "the last dispatch")
    assert not redis_broker.keys("topos:effects:queued:*")
    assert GameEffects.objects.get(game=game).queued_at is None
