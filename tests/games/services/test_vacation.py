"""The yearly vacation allowance (ruling S4): counted to the second per calendar year, enforced at the start,
running out by itself, and split between two years across the new year."""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest

from games.errors import BadRequest, Conflict
from games.models import Vacation
from games.selectors import vacation
from games.services.vacation import vacation_end, vacation_start, vacations_end_due

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def at(year, month, day, hour=12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=dt_timezone.utc)  # the site's TIME_ZONE is UTC


def test_a_vacation_without_a_length_lasts_as_long_as_her_days_and_ending_early_gives_the_rest_back(owner):
    start = at(2026, 3, 2)
    away = vacation_start(user=owner, now=start)
    assert away.ends_at == start + 21 * DAY
    vacation_end(user=owner, now=start + timedelta(days=3, hours=6))
    used = vacation.used_in_year(owner, 2026, now=start + 30 * DAY)
    assert used == timedelta(days=3, hours=6)  # counted to the second, not in whole days
    again = vacation_start(user=owner, now=start + 10 * DAY)
    assert again.ends_at == start + 10 * DAY + (21 * DAY - used)


def test_the_allowance_is_enforced_and_runs_out(owner, settings):
    settings.TOPOS_VACATION_DAYS_PER_YEAR = 5
    start = at(2026, 5, 1)
    with pytest.raises(BadRequest) as too_long:
        vacation_start(user=owner, days=6, now=start)
    assert "5.0 vacation days left" in too_long.value.message and too_long.value.field == "days"
    assert not Vacation.objects.exists()  # a refusal changes nothing
    vacation_start(user=owner, days=5, now=start)
    with pytest.raises(Conflict, match="already on vacation"):
        vacation_start(user=owner, days=1, now=start + DAY)
    assert vacations_end_due(now=start + 6 * DAY) == 1
    with pytest.raises(Conflict, match="used all 5 vacation days of 2026"):
        vacation_start(user=owner, now=start + 10 * DAY)
    # A new year brings new days.
    assert vacation_start(user=owner, days=2, now=at(2027, 1, 3)).ends_at == at(2027, 1, 5)


def test_a_vacation_across_the_new_year_uses_each_years_days_for_its_part(owner):
    start = at(2026, 12, 25)
    vacation_start(user=owner, days=5, now=at(2026, 6, 1))  # five days used in June
    vacation_end(user=owner, now=at(2026, 6, 6))
    away = vacation_start(user=owner, now=start)
    # 16 days were left in 2026: 6.5 of them to the new year, then all 21 of 2027.
    assert away.ends_at == at(2027, 1, 1, 0) + 21 * DAY
    vacations_end_due(now=away.ends_at + DAY)
    assert vacation.used_in_year(owner, 2026) == timedelta(days=11, hours=12)
    assert vacation.used_in_year(owner, 2027) == 21 * DAY


@pytest.mark.parametrize("days", [0, -2, "3", 2.5, True])
def test_a_length_that_is_not_whole_days_is_refused(owner, days):
    with pytest.raises(BadRequest, match="whole number of days"):
        vacation_start(user=owner, days=days)
    assert not Vacation.objects.exists()


def test_ending_a_vacation_one_is_not_on_is_refused(owner):
    with pytest.raises(Conflict, match="not on vacation"):
        vacation_end(user=owner)
