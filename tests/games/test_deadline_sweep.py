"""Deadlines through the beat sweep (ruling S1): the bot plays a missed turn, the player hears of it,
three in a row abandon the seat, which then loses; live and correspondence clocks share the mechanism."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import tasks
from games.models import Action, Game, Seat
from notifications.events import reminders_send
from notifications.models import Notification
from tests.games.tables import (
    decide,
    everyone_played,
    kinds_of,
    play_turn,
    topology_table,
    toppo_table,
    words_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Topology with two players: three tiles to place, then end_turn (ruling L5).
WHOLE_TURN = ["place", "place", "place", "end_turn"]


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def expire(game: Game, *seats: int) -> None:
    Seat.objects.filter(game=game, index__in=seats).update(deadline=timezone.now() - timedelta(seconds=1))


def test_the_sweep_plays_a_missed_turn_with_the_bot_and_tells_the_player(owner, member):
    game = topology_table(owner, member)
    assert tasks.deadlines_sweep() == 0  # nothing is due yet
    expire(game, 0)
    assert tasks.deadlines_sweep() == 1
    game.refresh_from_db()
    rows = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "source", "action__type"))
    assert rows == [(0, "timeout", kind) for kind in WHOLE_TURN]  # the whole turn, once
    assert game.to_act == [1]
    seat = game.seats.get(index=0)
    assert seat.missed_deadlines == 1 and not seat.abandoned
    (text,) = words_of(Notification.objects.filter(recipient=owner, kind="bot_played"))
    name = owner.username  # decision 13: the player's name, not "Seat 1"
    assert f"the site's bot played for you: {name} placed a tile on (" in text
    assert text.count("placed a tile") == 3 and f"{name} ended the turn" in text
    assert "missed 1 deadline in a row" in text
    assert tasks.deadlines_sweep() == 0  # done is done


def test_three_missed_deadlines_through_the_sweep_abandon_the_seat_which_the_bot_plays_and_which_loses(owner, member):
    game = everyone_played(topology_table(owner, member))  # ruling S1, turn 3: else the third miss aborts
    start = game.version
    for _ in range(3):
        expire(game, 0)
        tasks.deadlines_sweep()
        game.refresh_from_db()
        game = play_turn(game, member)
    # after the third miss the bot played the owner's turn straight after the member's
    sleeper = game.seats.get(index=0)
    assert sleeper.abandoned and sleeper.missed_deadlines == 3
    assert game.to_act == [1]
    while game.is_running:
        game = play_turn(game, member)
    sleeper.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sleeper.rank == 2  # a loss whatever the score (ruling S1)
    owners = list(
        Action.objects.filter(game=game, seat=0, seq__gt=start).order_by("seq").values_list("source", "action__type")
    )
    # at the third miss the log says she left, before the bot plays that turn (ruling S1)
    assert owners.pop(2 * 4) == ("timeout", "abandon")
    assert {source for source, _ in owners[: 3 * 4]} == {"timeout"}  # three missed turns
    assert owners[3 * 4 :] and {source for source, _ in owners[3 * 4 :]} == {"bot"}  # then the bot, to the end
    assert [kind for _, kind in owners] == WHOLE_TURN * (len(owners) // 4)
    notes = words_of(Notification.objects.filter(recipient=owner, kind="bot_played").order_by("pk"))
    assert len(notes) == 3
    assert "missed 2 deadlines in a row" in notes[1]
    assert "third missed deadline in a row" in notes[2]
    (final,) = words_of(Notification.objects.filter(recipient=owner, kind="finished"))
    assert "counts as a loss for you" in final


def test_three_missed_deadlines_through_the_sweep_before_her_first_turn_abort_the_game(owner, member):
    """Ruling S1, turn 3: she never played a turn of her own, so abandoning aborts the game; both are told."""
    game = topology_table(owner, member)
    for _ in range(3):
        expire(game, 0)
        tasks.deadlines_sweep()
        game.refresh_from_db()
        if game.is_running:
            game = play_turn(game, member)
    assert (game.status, game.abort_reason, game.abort_seat) == (Game.Status.ABORTED, "abandoned", 0)
    assert kinds_of(owner).count("aborted") == kinds_of(member).count("aborted") == 1
    assert kinds_of(owner).count("bot_played") == 2  # the first two misses; the third is told as the abort


def test_a_round_of_simultaneous_decisions_times_out_for_every_seat_in_one_sweep(owner, member, outsider):
    """Toppo by correspondence: no claim by the deadline is a renew (ruling P4)."""
    game = toppo_table(owner, member, outsider)
    assert sorted(game.to_act) == [0, 1, 2]
    first_round = game.state["round"]
    game = play_turn(game, member)  # she claims in time
    assert sorted(game.to_act) == [0, 2]
    expire(game, 0, 2)
    assert tasks.deadlines_sweep() == 2
    game.refresh_from_db()
    timeouts = list(Action.objects.filter(game=game, source="timeout").values_list("seat", "action"))
    assert sorted(timeouts, key=lambda t: t[0]) == [(0, {"type": "renew"}), (2, {"type": "renew"})]
    assert game.state["round"] == first_round + 1 and sorted(game.to_act) == [0, 1, 2]
    assert kinds_of(owner).count("bot_played") == 1 and kinds_of(outsider).count("bot_played") == 1
    assert kinds_of(member).count("bot_played") == 0
    assert all(s.deadline > timezone.now() for s in game.seats.all())  # the new round's clocks


def test_a_live_clock_of_seconds_goes_through_the_same_sweep_without_reminders(owner, member):
    game = toppo_table(owner, member, pace="live", turn_seconds=30)
    assert game.seats.get(index=0).deadline <= timezone.now() + timedelta(seconds=30)
    told = kinds_of(owner) + kinds_of(member)
    assert reminders_send(now=timezone.now()) == 0
    assert reminders_send(now=timezone.now() + timedelta(seconds=29)) == 0  # not even just before the deadline
    expire(game, 0)  # the start player, who must reveal before anyone else may (ruling P3)
    assert tasks.deadlines_sweep() == 1
    rows = list(Action.objects.filter(game=game).values_list("seat", "source"))
    assert rows == [(0, "timeout")]  # the bot's one action for the missed beat, not a whole turn
    assert game.seats.get(index=0).missed_deadlines == 1
    game.refresh_from_db()
    for _ in range(3):
        game = decide(game, member)  # play goes on: at a live table nobody is told "your turn"
    assert Action.objects.filter(game=game, source="player").count() == 3
    assert [k for k in kinds_of(owner) + kinds_of(member) if k not in told] == ["bot_played"]
    assert kinds_of(owner).count("bot_played") == 1


def test_a_live_deadline_counts_as_missed_only_when_something_was_played_for_the_seat(owner, member):
    """Before the start player's first reveal the other seat can at most propose a new display (ruling P3, P6);
    if the bot sees nothing worth doing it waits, and a deadline that played nothing is no missed deadline."""
    game = toppo_table(owner, member, pace="live", turn_seconds=30)
    for _ in range(3):
        expire(game, 1)
        tasks.deadlines_sweep()
    seat = game.seats.get(index=1)
    played = Action.objects.filter(game=game, seat=1, source="timeout").count()
    assert seat.missed_deadlines == played and seat.abandoned == (played >= 3)
    assert Notification.objects.filter(recipient=member, kind="bot_played").count() == played


def test_reminders_come_24_hours_and_1_hour_before_a_correspondence_deadline_once_each(owner, member):
    game = topology_table(owner, member)  # the default clock: 3 days per turn
    now = timezone.now()
    seat = game.seats.get(index=0)
    seat.deadline = now + timedelta(hours=20)
    seat.save()
    assert reminders_send(now=now) == 1
    assert reminders_send(now=now) == 0
    assert reminders_send(now=now + timedelta(hours=19, minutes=30)) == 1
    assert reminders_send(now=now + timedelta(hours=19, minutes=45)) == 0
    texts = words_of(Notification.objects.filter(recipient=owner, kind="deadline").order_by("pk"))
    assert "less than 24 hours" in texts[0] and "less than 1 hour" in texts[1]
    assert kinds_of(member).count("deadline") == 0  # not her turn


def test_a_one_day_clock_gets_only_the_one_hour_reminder(owner, member):
    game = topology_table(owner, member, turn_seconds=86400)
    now = timezone.now()
    game.seats.filter(index=0).update(deadline=now + timedelta(hours=23))
    assert reminders_send(now=now) == 0
    assert reminders_send(now=now + timedelta(hours=22, minutes=30)) == 1


@pytest.mark.postgres
def test_two_sweeps_at_once_apply_each_timeout_once(owner, member, outsider):
    """Two beat processes by mistake: the version check and the game's row lock keep every timeout single."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks): set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")
    games = [
        topology_table(owner, member),
        topology_table(member, outsider),
        topology_table(outsider, owner),
        topology_table(owner, outsider),
    ]
    for game in games:
        expire(game, *game.to_act)
    barrier = threading.Barrier(2)
    done = []

    def sweep():
        try:
            barrier.wait()
            done.append(tasks.deadlines_sweep())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(done) == 2
    for game in games:
        rows = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "source", "action__type"))
        assert rows == [(seq, "timeout", kind) for seq, kind in enumerate(WHOLE_TURN, start=1)]
        assert game.seats.get(index=0).missed_deadlines == 1
        assert Notification.objects.filter(game=game, kind="bot_played").count() == 1
