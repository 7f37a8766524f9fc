"""Concurrent submissions against one game version on PostgreSQL: exactly one applies, the log has no gap.

Threads get their own database connections, so the row lock in `action_submit` is
exercised for real.  SQLite serialises whole transactions and proves nothing here.
"""

import threading

import pytest
from django.db import connections

from engine.core import get_game
from games import services
from games.errors import ServiceError, StaleVersion
from games.models import Action, Game
from tests.games.factories import started_topology

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_threads(count, work):
    barrier = threading.Barrier(count)
    outcomes = [None] * count

    def runner(i):
        try:
            barrier.wait()
            outcomes[i] = work(i)
        except Exception as exc:  # collected and asserted on below
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_exactly_one_of_many_submissions_at_one_version_applies(owner, member):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    user = game.seats.get(index=seat).user
    actions = get_game("topology").load(game.state).legal_actions(seat)
    actions = [a for a in actions if a["type"] != "undo"][:16]

    outcomes = run_threads(
        len(actions),
        lambda i: services.action_submit(game_id=game.pk, user=user, action=actions[i], expected_version=0),
    )

    applied = [o for o in outcomes if isinstance(o, services.SubmitResult)]
    stale = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(applied) == 1, outcomes
    assert len(stale) == len(actions) - 1
    assert list(Action.objects.filter(game=game).values_list("seq", flat=True)) == [1]
    assert Game.objects.get(pk=game.pk).version == 1


def test_racing_players_leave_a_log_without_gap_or_duplicate(owner, member):
    game = started_topology(owner, member)
    engine = get_game("topology")

    def play(i):
        applied = 0
        for _ in range(40):
            fresh = Game.objects.get(pk=game.pk)
            if fresh.status != Game.Status.RUNNING:
                break
            seat = fresh.to_act[0]
            user = fresh.seats.get(index=seat).user
            options = [a for a in engine.load(fresh.state).legal_actions(seat) if a["type"] != "undo"]
            try:
                services.action_submit(
                    game_id=game.pk, user=user, action=options[i % len(options)], expected_version=fresh.version
                )
                applied += 1
            except ServiceError:
                pass  # someone else got there first: look again
        return applied

    outcomes = run_threads(8, play)
    assert all(isinstance(o, int) for o in outcomes), outcomes
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    final = Game.objects.get(pk=game.pk)
    assert seqs == list(range(1, final.version + 1))
    assert sum(outcomes) == final.version > 8
    replayed = engine.new_state(2, final.options, final.seed)
    for row in Action.objects.filter(game=game).order_by("seq"):
        replayed.apply(row.seat, row.action)
    assert replayed.to_json() == final.state
