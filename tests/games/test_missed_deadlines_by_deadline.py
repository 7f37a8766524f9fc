"""Missed deadlines are counted by deadline, not by adjacent rows (ruling S1): every one, and the abandonment at the
third, is told once, also when one seat's renew at Toppo ends one deadline and the next round's deadline passes with
nothing logged between (ruling P4: no claim = renew), and with two beats sweeping at once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, connections
from django.utils import timezone

from games import tasks
from games.models import Action, Game, GameEffects, Seat
from games.ranking import LEAVE_TYPES
from notifications.events import game_effects_dispatch
from notifications.models import Notification
from tests.games.tables import everyone_played, play_turn, topology_table, topoum_table, toppo_table, words_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def expire(game: Game, seat: int) -> None:
    Seat.objects.filter(game=game, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))


def sweep(beats: int) -> None:
    """The deadlines sweep, by one beat or by two at once (two beat processes by mistake)."""
    if beats == 1:
        tasks.deadlines_sweep()
        return
    barrier = threading.Barrier(beats)
    done = []

    def beat():
        try:
            barrier.wait()
            done.append(tasks.deadlines_sweep())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=beat) for _ in range(beats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(done) == beats


def told(user) -> list[str]:
    return words_of(Notification.objects.filter(recipient=user, kind="bot_played").order_by("pk"))


def assert_three_told_once(user) -> None:
    notes = told(user)
    assert len(notes) == 3, notes
    assert "missed 1 deadline in a row" in notes[0]
    assert "missed 2 deadlines in a row" in notes[1]
    assert "third missed deadline in a row" in notes[2]


@pytest.mark.parametrize("beats", [1, 2])
def test_a_toppo_seat_missing_three_deadlines_with_nothing_between_is_told_each_and_its_abandonment(
    owner, member, beats
):
    if beats > 1 and connection.vendor != "postgresql":
        pytest.skip("two beats at once need PostgreSQL (row locks): set DATABASE_URL")
    game = toppo_table(owner, member, hands=3)  # by correspondence: each round is a turn of both (ruling P4)
    game = everyone_played(game)  # else the third miss aborts the game instead (ruling S1, turn 3)
    # Neither claims; each round one seat's deadline passes before the other's, by turns, so that one seat's
    # renew ending a round and its renew in the next lie side by side in the log.
    for first, second in [(0, 1), (1, 0), (0, 1)]:
        for seat in (first, second):
            expire(game, seat)
            sweep(beats)
    game.refresh_from_db()
    rows = list(
        Action.objects.filter(game=game, source="timeout")
        .exclude(action__type__in=LEAVE_TYPES)
        .order_by("seq")
        .values_list("seat", "missed_turn")
    )
    seats = [seat for seat, _ in rows]
    assert seats[:6] == [0, 1, 1, 0, 0, 1]  # side by side: merged by adjacency, three misses looked like two
    for seat in (0, 1):
        assert len({missed for s, missed in rows[:6] if s == seat}) == 3  # three deadlines, each named once
        assert Seat.objects.get(game=game, index=seat).abandoned
    assert_three_told_once(owner)
    assert_three_told_once(member)
    for user in (owner, member):  # and each by email once
        assert len([m for m in mail.outbox if m.to == [user.email] and "bot played" in m.subject]) == 3


@pytest.mark.parametrize("table", [topology_table, topoum_table])
def test_three_missed_turns_at_topology_and_topoum_are_told_once_each(owner, member, table):
    game = everyone_played(table(owner, member))  # else the third miss aborts the game (ruling S1, turn 3)
    assert game.to_act == [0]
    for _ in range(3):
        expire(game, 0)
        tasks.deadlines_sweep()
        game.refresh_from_db()
        if game.is_running and game.to_act == [1]:
            game = play_turn(game, member)
    assert Seat.objects.get(game=game, index=0).abandoned
    assert_three_told_once(owner)
    # a dispatch run again from the start tells nothing twice
    GameEffects.objects.filter(game=game).update(version=0)
    game_effects_dispatch(game_id=game.pk)
    assert len(told(owner)) == 3
