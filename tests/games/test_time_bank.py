"""Time banks (ruling S4): a seat draws on its bank when a turn's clock runs out, and only when the bank is spent
too does the bot play the turn as a missed deadline (ruling S1)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.errors import BadRequest
from games.models import Action, Seat
from notifications.events import reminders_send
from tests.games.tables import kinds_of, play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def seat(game, index: int) -> Seat:
    return Seat.objects.get(game=game, index=index)


def pass_deadline(game, index: int, by: timedelta = timedelta(seconds=1)) -> None:
    Seat.objects.filter(game=game, index=index).update(deadline=timezone.now() - by)


def test_every_seat_starts_with_the_tables_bank(owner, member):
    game = topology_table(owner, member, time_bank_days=2)
    assert game.time_bank_days == 2
    assert [s.bank_seconds for s in game.seats.order_by("index")] == [2 * DAY, 2 * DAY]
    plain = topology_table(owner, member)
    assert [s.bank_seconds for s in plain.seats.all()] == [0, 0]


def test_a_passed_deadline_draws_on_the_bank_before_the_bot_plays_and_a_spent_bank_lets_it(owner, member):
    game = topology_table(owner, member, time_bank_days=2)
    pass_deadline(game, 0)
    passed = seat(game, 0).deadline
    assert tasks.deadlines_sweep() == 1
    assert not Action.objects.filter(game=game).exists()  # no bot yet
    drawing = seat(game, 0)
    assert drawing.bank_drawn_from == passed
    assert drawing.deadline == passed + timedelta(days=2)  # the whole bank on top of the deadline
    assert drawing.missed_deadlines == 0 and "bot_played" not in kinds_of(owner)
    assert tasks.deadlines_sweep() == 0  # nothing due until the bank is spent too

    # The bank runs out as well: now it is a missed deadline, and the bank is gone.
    Seat.objects.filter(pk=drawing.pk).update(
        deadline=timezone.now() - timedelta(seconds=1), bank_drawn_from=timezone.now() - timedelta(days=2, seconds=1)
    )
    assert tasks.deadlines_sweep() == 1
    spent = seat(game, 0)
    assert spent.bank_seconds == 0 and spent.bank_drawn_from is None and spent.missed_deadlines == 1
    assert [s for (s,) in Action.objects.filter(game=game).values_list("source")] == ["timeout"] * 4
    assert kinds_of(owner).count("bot_played") == 1

    # With no bank left, her next passed deadline goes to the bot at once.
    game = play_turn(game, member)
    pass_deadline(game, 0)
    assert tasks.deadlines_sweep() == 1
    assert seat(game, 0).missed_deadlines == 2


def test_only_what_she_used_of_the_bank_is_taken_off_when_she_moves(owner, member):
    game = topology_table(owner, member, time_bank_days=3)
    pass_deadline(game, 0, by=timedelta(hours=10))  # she is ten hours into her bank when the sweep comes
    assert tasks.deadlines_sweep() == 1
    game = play_turn(game, owner)
    mine = seat(game, 0)
    assert mine.bank_drawn_from is None and mine.deadline is None
    used = 3 * DAY - mine.bank_seconds
    assert 10 * 3600 <= used < 10 * 3600 + 60
    # Her next turn starts with a full clock and what is left of the bank.
    game = play_turn(game, member)
    assert seat(game, 0).bank_seconds == mine.bank_seconds
    assert seat(game, 0).deadline > timezone.now() + timedelta(days=2, hours=23)


def test_reminders_come_for_the_deadline_the_bank_gives(owner, member):
    game = topology_table(owner, member, time_bank_days=1)
    pass_deadline(game, 0)
    tasks.deadlines_sweep()
    extended = seat(game, 0).deadline
    assert reminders_send(now=extended - timedelta(minutes=30)) == 1
    assert kinds_of(owner).count("deadline") == 1


@pytest.mark.parametrize(
    "days, pace, seconds",
    [
        (-1, "correspondence", None),
        (31, "correspondence", None),
        ("2", "correspondence", None),
        (1.5, "correspondence", None),
        (True, "correspondence", None),
        (1, "live", 30),
    ],
)
def test_a_time_bank_that_is_not_whole_days_of_a_correspondence_table_is_refused(owner, days, pace, seconds):
    with pytest.raises(BadRequest) as refused:
        services.game_create(user=owner, kind="toppo", players=2, pace=pace, turn_seconds=seconds, time_bank_days=days)
    assert refused.value.field == "time_bank_days"
    assert "time bank" in refused.value.message


def test_a_rematch_keeps_the_time_bank(owner, member):
    from tests.accounts.conftest import finish

    game = finish(topology_table(owner, member, time_bank_days=5), {0: (1, 40), 1: (2, 30)})
    again = services.game_rematch(user=member, game_id=game.pk)
    assert again.time_bank_days == 5 and again.pace == game.pace
