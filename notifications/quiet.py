"""Quiet hours (ruling S6): a daily window in her own time zone in which nothing is mailed to her.

Pure clock arithmetic plus one read; the writes are in services (`quiet_hours_set`).  A window whose end is
earlier than its start crosses midnight (22:00 to 07:00 is quiet from 22:00 until 07:00 the next morning).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.utils.translation import gettext_noop

from accounts.personal import zone

from .models import QuietHours

# The refusal of a time that is not one (services.quiet_hours_set, and the API's own check of the body).
BAD_CLOCK = gettext_noop("Quiet hours are two times of day written as HH:MM, such as 22:00 and 07:00.")


def quiet_hours_of(user) -> QuietHours | None:
    """Her quiet hours, or None (read afresh: the worker asks just before it sends)."""
    return QuietHours.objects.filter(user_id=user.pk).first()


def _inside(start: time, end: time, clock: time) -> bool:
    if start < end:
        return start <= clock < end
    return clock >= start or clock < end  # across midnight


def quiet_until(*, start: time, end: time, time_zone: str, moment: datetime) -> datetime | None:
    """If `moment` falls in the window `start`-`end` (local times in `time_zone`), when the window ends; else None."""
    local = moment.astimezone(zone(time_zone))
    clock = local.time().replace(tzinfo=None)
    if not _inside(start, end, clock):
        return None
    day = local.date()
    if start > end and clock >= start:  # in the evening part of a window that crosses midnight: it ends tomorrow
        day += timedelta(days=1)
    ends = datetime.combine(day, end, tzinfo=local.tzinfo)
    # A local time skipped by a clock change is read as after it; never earlier than the moment itself.
    return max(ends.astimezone(moment.tzinfo), moment)


def quiet_end(user, moment: datetime, hours: QuietHours | None = None) -> datetime | None:
    """When the quiet hours she is in at `moment` end; None if she is not in quiet hours then."""
    hours = hours if hours is not None else quiet_hours_of(user)
    if hours is None:
        return None
    return quiet_until(start=hours.start, end=hours.end, time_zone=user.time_zone, moment=moment)


def parse_clock(raw) -> time | None:
    """'HH:MM' (24-hour) as a time; None if it is not one."""
    if isinstance(raw, time):
        return raw.replace(second=0, microsecond=0, tzinfo=None)
    try:
        hours, minutes = str(raw).strip().split(":")
        if len(hours) not in (1, 2) or len(minutes) != 2:
            return None
        return time(int(hours), int(minutes))
    except ValueError:
        return None
