"""Deadlines through the beat sweep (ruling S1): the bot plays a missed turn, the player hears of it,
three in a row abandon the seat, which then loses; live and correspondence clocks share the mechanism."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import tasks
from games.models import Action, Game, Notification, Seat
from games.notifications.events import reminders_send
from tests.notifications.tables import kinds_of, play_turn, relay_table

pytestmark = pytest.mark.django_db(transaction=True)


def expire(game: Game, *seats: int) -> None:
    Seat.objects.filter(game=game, index__in=seats).update(deadline=timezone.now() - timedelta(seconds=1))


def test_the_sweep_plays_a_missed_turn_with_the_bot_and_tells_the_player(relay, owner, member):
    game = relay_table(owner, member)
    assert tasks.deadlines_sweep() == 0  # nothing is due yet
    expire(game, 0)
    assert tasks.deadlines_sweep() == 1
    game.refresh_from_db()
    rows = list(Action.objects.filter(game=game).values_list("seat", "source", "action__type"))
    assert rows == [(0, "timeout", "play"), (0, "timeout", "end_turn")]  # the whole turn, once
    assert game.to_act == [1]
    seat = game.seats.get(index=0)
    assert seat.missed_deadlines == 1 and not seat.abandoned
    (note,) = Notification.objects.filter(recipient=owner, kind="bot_played")
    assert "the site's bot played for you: Seat 1 played c" in note.text
    assert "missed 1 deadline in a row" in note.text
    assert tasks.deadlines_sweep() == 0  # done is done


def test_three_missed_deadlines_through_the_sweep_abandon_the_seat_which_the_bot_plays_and_which_loses(
        relay, owner, member):
    game = relay_table(owner, member, rounds=5)
    for _ in range(3):
        expire(game, 0)
        tasks.deadlines_sweep()
        game.refresh_from_db()
        game = play_turn(game, member)
    # after the third miss the bot played the owner's turn straight after the member's move
    sleeper = game.seats.get(index=0)
    assert sleeper.abandoned and sleeper.missed_deadlines == 3
    while game.is_running:
        game = play_turn(game, member)
    sleeper.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sleeper.rank == 2  # a loss whatever the score (ruling S1)
    assert Action.objects.filter(game=game, seat=0, source="bot").count() == 2 * 2  # the last two turns
    notes = list(Notification.objects.filter(recipient=owner, kind="bot_played").order_by("pk")
                 .values_list("text", flat=True))
    assert len(notes) == 3
    assert "missed 2 deadlines in a row" in notes[1]
    assert "third missed deadline in a row" in notes[2]
    (final,) = Notification.objects.filter(recipient=owner, kind="finished").values_list("text", flat=True)
    assert "counts as a loss for you" in final


def test_a_round_of_simultaneous_decisions_times_out_for_every_seat_in_one_sweep(relay, owner, member, outsider):
    """Toppo by correspondence: no claim by the deadline is a renew (ruling P4), here a pass."""
    game = relay_table(owner, member, outsider, together=True)
    assert sorted(game.to_act) == [0, 1, 2]
    game = play_turn(game, member)  # she claims in time
    expire(game, 0, 2)
    assert tasks.deadlines_sweep() == 2
    game.refresh_from_db()
    timeouts = list(Action.objects.filter(game=game, source="timeout").values_list("seat", "action"))
    assert sorted(timeouts, key=lambda t: t[0]) == [(0, {"type": "pass"}), (2, {"type": "pass"})]
    assert game.state["round"] == 1 and sorted(game.to_act) == [0, 1, 2]
    assert kinds_of(owner).count("bot_played") == 1 and kinds_of(outsider).count("bot_played") == 1
    assert kinds_of(member).count("bot_played") == 0


def test_a_live_clock_of_seconds_goes_through_the_same_sweep_without_reminders(relay, owner, member):
    game = relay_table(owner, member, together=True)
    Game.objects.filter(pk=game.pk).update(pace="live", turn_seconds=30)
    told = kinds_of(owner) + kinds_of(member)
    Seat.objects.filter(game=game).update(deadline=timezone.now() + timedelta(seconds=30))
    assert reminders_send(now=timezone.now()) == 0
    expire(game, 1)
    assert tasks.deadlines_sweep() == 1
    assert list(Action.objects.filter(game=game).values_list("seat", "source", "action")) == [
        (1, "timeout", {"type": "pass"})]
    game.refresh_from_db()
    game = play_turn(game, owner)  # a new round: at a live table nobody is told "your turn"
    assert game.state["round"] == 1
    assert [k for k in kinds_of(owner) + kinds_of(member) if k not in told] == ["bot_played"]


def test_reminders_come_24_hours_and_1_hour_before_a_correspondence_deadline_once_each(relay, owner, member):
    game = relay_table(owner, member)  # the default clock: 3 days per turn
    now = timezone.now()
    seat = game.seats.get(index=0)
    seat.deadline = now + timedelta(hours=20)
    seat.save()
    assert reminders_send(now=now) == 1
    assert reminders_send(now=now) == 0
    assert reminders_send(now=now + timedelta(hours=19, minutes=30)) == 1
    assert reminders_send(now=now + timedelta(hours=19, minutes=45)) == 0
    texts = list(Notification.objects.filter(recipient=owner, kind="deadline").order_by("pk")
                 .values_list("text", flat=True))
    assert "less than 24 hours" in texts[0] and "less than 1 hour" in texts[1]
    assert kinds_of(member).count("deadline") == 0  # not her turn


def test_a_one_day_clock_gets_only_the_one_hour_reminder(relay, owner, member):
    game = relay_table(owner, member)
    Game.objects.filter(pk=game.pk).update(turn_seconds=86400)
    now = timezone.now()
    game.seats.filter(index=0).update(deadline=now + timedelta(hours=23))
    assert reminders_send(now=now) == 0
    assert reminders_send(now=now + timedelta(hours=22, minutes=30)) == 1


@pytest.mark.postgres
def test_two_sweeps_at_once_apply_each_timeout_once(relay, owner, member, outsider):
    """Two beat processes by mistake: the version check and the game's row lock keep every timeout single."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks): set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")
    games = [relay_table(owner, member), relay_table(member, outsider), relay_table(outsider, owner),
             relay_table(owner, outsider)]
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
        rows = list(Action.objects.filter(game=game).values_list("seq", "source", "action__type"))
        assert rows == [(1, "timeout", "play"), (2, "timeout", "end_turn")]
        assert game.seats.get(index=0).missed_deadlines == 1
        assert Notification.objects.filter(game=game, kind="bot_played").count() == 1


def test_without_a_broker_the_inline_beat_command_sweeps_deadlines(relay, owner, member):
    """The embedded default has no `celery beat`: `manage.py topos_beat` runs the same schedule in process."""
    from django.core.management import call_command

    game = relay_table(owner, member)
    expire(game, 0)
    call_command("topos_beat", "--once")
    assert list(Action.objects.filter(game=game).values_list("source", flat=True)) == ["timeout", "timeout"]
    assert Notification.objects.filter(recipient=owner, kind="bot_played").count() == 1
