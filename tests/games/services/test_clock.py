"""A seat's time bank (games.services.clock, ruling S4): drawn whole when a deadline passes, and what was used of
it taken off when her clock next stops."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat
from games.services.clock import time_bank_draw, time_bank_settle
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def test_a_passed_deadline_draws_the_whole_bank_once_and_the_use_is_settled_later(owner, member):
    game = started_topology(owner, member)
    seat = game.seats.get(index=game.to_act[0])
    passed = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(pk=seat.pk).update(deadline=passed, bank_seconds=3600)
    seat.refresh_from_db()
    assert time_bank_draw(seat)
    seat.refresh_from_db()
    assert seat.deadline == passed + timedelta(hours=1) and seat.bank_drawn_from == passed
    assert not time_bank_draw(seat)  # already drawing on it
    assert time_bank_settle(seat, passed + timedelta(minutes=10)) == ["bank_seconds", "bank_drawn_from"]
    assert seat.bank_seconds == 3000 and seat.bank_drawn_from is None
    assert time_bank_settle(seat, passed + timedelta(hours=2)) == []  # nothing drawn: nothing to settle


def test_an_empty_bank_is_not_drawn(owner, member):
    game = started_topology(owner, member)
    seat = game.seats.get(index=game.to_act[0])
    assert seat.bank_seconds == 0 and not time_bank_draw(seat)
