"""The real Toppo through the same deadline sweep: rounds by correspondence (days), live clocks (seconds)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.models import Action, Seat
from notifications.models import Notification
from tests.games.tables import toppo_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def test_a_correspondence_round_nobody_claimed_is_renewed_for_both_at_its_deadline(owner, member):
    game = toppo_table(owner, member, hands=3, turn_seconds=86400)
    first_round = game.state["round"]
    assert sorted(game.to_act) == [0, 1]
    Seat.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 2
    game.refresh_from_db()
    rows = list(Action.objects.filter(game=game).values_list("seat", "source", "action__type"))
    assert sorted(rows) == [(0, "timeout", "renew"), (1, "timeout", "renew")]  # ruling P4: no claim = renew
    assert game.state["round"] == first_round + 1  # a new round, with fresh clocks of a day
    assert all(s.deadline > timezone.now() + timedelta(hours=23) for s in game.seats.all())
    for user in (owner, member):
        assert Notification.objects.filter(recipient=user, kind="bot_played").count() == 1


def test_a_live_clock_of_seconds_expires_through_the_same_sweep(owner, member):
    game = toppo_table(owner, member, hands=3, pace="live", turn_seconds=30)  # seat 0 starts (ruling P3)
    assert all(s.deadline <= timezone.now() + timedelta(seconds=30) for s in game.seats.all())
    Seat.objects.filter(game=game, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 1
    rows = list(Action.objects.filter(game=game).values_list("seat", "source"))
    assert rows == [(0, "timeout")]  # one action for the missed beat, not a whole turn
    assert Seat.objects.get(game=game, index=0).missed_deadlines == 1
