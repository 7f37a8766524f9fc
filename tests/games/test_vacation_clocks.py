"""Vacation (ruling S4): her correspondence clocks stand still while she is away, through the same deadline
sweep and reminders as every clock (ruling S1); live tables and tables with a time bank are not stopped."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services, tasks
from games.errors import Conflict
from games.models import Action, Seat, Vacation
from games.selectors import sweeps
from games.services.vacation import vacation_end, vacation_start, vacations_end_due
from notifications.events import reminders_send
from tests.games.tables import kinds_of, play_turn, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def due_seats(now) -> list[tuple[int, int]]:
    return [(game_id, index) for game_id, index, _ in sweeps.deadlines_due(now=now)]


def test_the_sweep_does_not_play_her_turn_while_she_is_away_and_she_finds_the_time_that_was_left(owner, member):
    game = topology_table(owner, member)  # 3 days a turn, the owner to play
    deadline = seat(game, 0).deadline
    left = timedelta(hours=30)
    away = deadline - left  # she leaves with 30 hours on her clock
    vacation_start(user=owner, days=10, now=away)
    long_past = deadline + 5 * DAY
    assert (game.pk, 0) not in due_seats(long_past)
    assert services.deadline_expire(game_id=game.pk, seat=0, version=game.version, now=long_past) is None
    assert not Action.objects.filter(game=game).exists()

    back = away + 4 * DAY
    vacation_end(user=owner, now=back)
    assert seat(game, 0).deadline == back + left  # the 30 hours she had left
    assert (game.pk, 0) not in due_seats(back + left - timedelta(seconds=1))
    assert (game.pk, 0) in due_seats(back + left)
    logged = services.deadline_expire(game_id=game.pk, seat=0, version=game.version, now=back + left)
    assert logged is not None and logged.source == Action.Source.TIMEOUT
    assert seat(game, 0).missed_deadlines == 1


def test_the_beat_sweep_leaves_her_passed_deadline_alone_and_plays_her_opponents(owner, member, outsider):
    mine = topology_table(owner, member)
    theirs = topology_table(outsider, member)
    vacation_start(user=owner)
    for game in (mine, theirs):
        Seat.objects.filter(game=game, index=0).update(deadline=timezone.now() - DAY)
    assert tasks.deadlines_sweep() == 1
    assert not Action.objects.filter(game=mine).exists()
    assert Action.objects.filter(game=theirs, seat=0, source="timeout").exists()
    assert kinds_of(owner).count("bot_played") == 0


def test_a_clock_that_started_while_she_was_away_gives_her_a_whole_turn_when_she_is_back(owner, member):
    game = topology_table(member, owner)  # the member plays first, the owner sits in seat 1
    now = timezone.now()
    vacation_start(user=owner, now=now - 2 * DAY)  # away for two days already, as long as her days last
    game = play_turn(game, member)
    assert game.to_act == [1]
    started = seat(game, 1).deadline
    assert now + 3 * DAY - timedelta(minutes=1) < started <= timezone.now() + 3 * DAY
    back = now + DAY
    vacation_end(user=owner, now=back)
    assert seat(game, 1).deadline == back + 3 * DAY  # a whole turn from her return, not more
    assert seat(game, 0).deadline is None  # the member's clock is not hers


def test_reminders_wait_while_she_is_away_and_come_for_the_deadline_she_has_when_back(owner, member):
    game = topology_table(owner, member)
    now = timezone.now()
    Seat.objects.filter(pk=seat(game, 0).pk).update(deadline=now + timedelta(hours=20))
    vacation_start(user=owner, days=3, now=now - timedelta(hours=1))
    assert reminders_send(now=now) == 0
    assert reminders_send(now=now + timedelta(hours=19, minutes=30)) == 0
    assert "deadline" not in kinds_of(owner)
    back = now + DAY
    vacation_end(user=owner, now=back)
    moved = seat(game, 0).deadline
    assert moved == now + timedelta(hours=20) + (back - (now - timedelta(hours=1)))
    assert reminders_send(now=moved - timedelta(hours=23)) == 1
    assert kinds_of(owner).count("deadline") == 1


def test_a_vacation_ends_by_itself_at_its_planned_end_and_the_clocks_run_again(owner, member):
    game = topology_table(owner, member)
    deadline = seat(game, 0).deadline
    start = timezone.now()
    vacation_start(user=owner, days=2, now=start)
    assert vacations_end_due(now=start + DAY) == 0
    # The beat comes late: the vacation ends at its planned end all the same, not when the beat ran.
    assert vacations_end_due(now=start + 2 * DAY + timedelta(minutes=7)) == 1
    vacation = Vacation.objects.get(user=owner)
    assert vacation.ended_at == start + 2 * DAY
    assert seat(game, 0).deadline == deadline + 2 * DAY
    assert vacations_end_due(now=start + 3 * DAY) == 0  # ended is ended


def test_live_seats_and_time_bank_tables_keep_running_while_she_is_away(owner, member):
    live = toppo_table(owner, member, pace="live", turn_seconds=30)
    banked = topology_table(owner, member, time_bank_days=1)
    vacation_start(user=owner)
    for game in (live, banked):
        Seat.objects.filter(game=game, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 2
    assert Action.objects.filter(game=live, seat=0, source="timeout").exists()  # the bot's beat at the live table
    drawn = seat(banked, 0)
    assert drawn.bank_drawn_from is not None and drawn.deadline > timezone.now()  # her bank, not her vacation
    end = timezone.now()
    vacation_end(user=owner, now=end)
    assert seat(banked, 0).deadline == drawn.deadline  # not moved on: nothing stood still there


@pytest.mark.postgres
def test_two_starts_at_once_make_one_vacation_and_a_clear_refusal(owner):
    """Two clicks, two tabs: her row lock queues them, the second finds her away already."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks): set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")
    barrier = threading.Barrier(2)
    outcomes = []

    def start():
        try:
            barrier.wait()
            vacation_start(user=owner, days=3)
            outcomes.append("started")
        except Conflict as exc:
            outcomes.append(exc.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["You are already on vacation.", "started"]
    assert Vacation.objects.filter(user=owner).count() == 1
