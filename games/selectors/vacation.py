"""Vacation reads (ruling S4): the yearly allowance, what is used of it, and whose clocks stand still.

Time is counted exactly, to the second: a vacation uses the time it lasts, not whole days, so ending
one early gives back the rest.  Years are calendar years in the site's time zone (settings.TIME_ZONE);
a vacation across the new year uses each year's allowance for the part that falls in it.

A vacation stops the clocks of her seats at correspondence tables without a time bank (a table with
a time bank has it instead of vacation, ruling S4), and never at a live table.  While it has not ended
(`ended_at` unset) her deadlines there are neither missed nor reminded of; when it ends, each one is
moved on by the time it stood still (games.services.vacation).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import timezone

from ..models import Game, Pace, Vacation

DAY = 86400


def allowance() -> timedelta:
    return timedelta(days=settings.TOPOS_VACATION_DAYS_PER_YEAR)


def year_bounds(year: int) -> tuple[datetime, datetime]:
    zone = timezone.get_default_timezone()
    return datetime(year, 1, 1, tzinfo=zone), datetime(year + 1, 1, 1, tzinfo=zone)


def year_of(moment: datetime) -> int:
    return timezone.localtime(moment, timezone.get_default_timezone()).year


def _span_end(vacation: Vacation, now: datetime) -> datetime:
    """Where a vacation's use ends: when it ended, or (not yet ended) now, never past its planned end."""
    if vacation.ended_at is not None:
        return vacation.ended_at
    return max(vacation.started_at, min(now, vacation.ends_at))


def used_in_year(user, year: int, *, now: datetime | None = None) -> timedelta:
    """How much of `year`'s allowance her vacations used (a vacation under way counts up to `now`)."""
    now = now or timezone.now()
    first, last = year_bounds(year)
    used = timedelta()
    for vacation in Vacation.objects.filter(user=user, started_at__lt=last).filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=first)
    ):
        start, end = max(vacation.started_at, first), min(_span_end(vacation, now), last)
        if end > start:
            used += end - start
    return used


def latest_end(user, start: datetime) -> datetime:
    """The latest a vacation starting at `start` may end: when the allowance of the year it is in runs out,
    or later if the new year comes first and brings its own."""
    moment = start
    while True:
        year = year_of(moment)
        left = allowance() - used_in_year(user, year, now=start)
        if left <= timedelta():
            return moment
        year_end = year_bounds(year)[1]
        if moment + left <= year_end:
            return moment + left
        moment = year_end


def current(user, *, now: datetime | None = None) -> Vacation | None:
    """Her vacation under way (started, not yet ended), if any; `user` is a user or her id."""
    if user is None or not getattr(user, "is_authenticated", True):
        return None
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, ended_at__isnull=True, started_at__lte=now).first()


def stops_clocks_at(game: Game) -> bool:
    """Does a vacation stop the clocks at this table?  Correspondence without a time bank (ruling S4)."""
    return game.pace == Pace.CORRESPONDENCE and not game.time_bank_days


def away_q(now: datetime) -> Q:
    """For Seat querysets: seats whose clock stands still now, because their player is on vacation."""
    away = Vacation.objects.filter(user=OuterRef("user"), ended_at__isnull=True, started_at__lte=now)
    return Q(Exists(away), user__isnull=False, abandoned=False, game__pace=Pace.CORRESPONDENCE, game__time_bank_days=0)


def stopped_for_q(user, now: datetime) -> Q:
    """For Game querysets: tables where `user`'s clock stands still now, because she is on vacation (away_q for
    one person's tables: her seat is known, so only the table's pace and bank matter)."""
    away = Vacation.objects.filter(user=user, ended_at__isnull=True, started_at__lte=now)
    return Q(Exists(away), pace=Pace.CORRESPONDENCE, time_bank_days=0)


def away_until(user_ids, *, now: datetime | None = None) -> dict[int, datetime]:
    """For each of these players now on vacation: when it is planned to end."""
    now = now or timezone.now()
    ids = [i for i in set(user_ids) if i is not None]
    if not ids:
        return {}
    rows = Vacation.objects.filter(user_id__in=ids, ended_at__isnull=True, started_at__lte=now)
    return dict(rows.values_list("user_id", "ends_at"))


def away_annotation(now: datetime) -> Subquery:
    """Annotation for a query of seats: the planned end of her vacation under way at `now`, else None (at most
    one is open per player: the vacation_one_at_a_time constraint).  away_until from seats read with it."""
    open_now = Vacation.objects.filter(user_id=OuterRef("user_id"), ended_at__isnull=True, started_at__lte=now)
    return Subquery(open_now.values("ends_at")[:1])


@dataclass
class Standing:
    """Her allowance this year, for the profile page and the API."""

    year: int
    allowance_days: int
    used_seconds: int
    left_seconds: int
    current: Vacation | None
    latest_end: datetime | None  # if she started one now; None when nothing is left (or one is under way)


def standing(user, *, now: datetime | None = None) -> Standing:
    now = now or timezone.now()
    year = year_of(now)
    used = used_in_year(user, year, now=now)
    left = max(allowance() - used, timedelta())
    ongoing = current(user, now=now)
    latest = latest_end(user, now) if ongoing is None and left > timedelta() else None
    return Standing(
        year=year,
        allowance_days=settings.TOPOS_VACATION_DAYS_PER_YEAR,
        used_seconds=int(used.total_seconds()),
        left_seconds=int(left.total_seconds()),
        current=ongoing,
        latest_end=latest,
    )


def standing_data(s: Standing) -> dict:
    """Her standing as the API gives it."""
    return {
        "on_vacation": s.current is not None,
        "started_at": s.current.started_at.isoformat() if s.current else None,
        "ends_at": s.current.ends_at.isoformat() if s.current else None,
        "year": s.year,
        "allowance_days": s.allowance_days,
        "used_seconds": s.used_seconds,
        "left_seconds": s.left_seconds,
        "latest_end_if_started_now": s.latest_end.isoformat() if s.latest_end else None,
    }
