"""Who is looking at a table, and so need not be mailed about it (ruling S6).

The table page and its poller record that she has the page open (`Seat.seen_at`).  The
poller asks every few seconds, so the row is written at most every half minute; the
Celery worker that decides about emails is another process, hence the database.

Two rules follow for "your turn" emails (the in-site notification is always made):
- no email while she has had the table's page open within TOPOS_PRESENCE_SECONDS;
- a table's turn is mailed once until she visits that table (opens its page after the
  mail); later turns there send nothing until she has been back.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from ..models import Game, Seat

WRITE_EVERY_SECONDS = 30


def _window() -> timedelta:
    return timedelta(seconds=settings.TOPOS_PRESENCE_SECONDS)


def _write_every() -> timedelta:
    # Never coarser than half the window, or a poller every few seconds could look absent.
    return min(timedelta(seconds=WRITE_EVERY_SECONDS), _window() / 2)


def _stale(seat: Seat, now) -> bool:
    """Is her stored visit worth writing again (older than the throttle, or not yet after the last mail)?"""
    return (
        seat.seen_at is None
        or seat.seen_at < now - _write_every()
        or (seat.turn_mailed_at is not None and seat.turn_mailed_at >= seat.seen_at)
    )


def presence_record(*, game: Game, user, now=None) -> bool:
    """She has the table's page open now; True if that was written (at most every half minute per seat).

    A visit after a turn email is always written, whatever the throttle, so that the next turn can be mailed.
    Reads the seats the view already loaded, so a poll within the throttle costs no query at all.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    now = now or timezone.now()
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None or not _stale(seat, now):
        return False
    # The same test again in the database: another request (or the worker's mail) may have moved on since.
    stale = Q(seen_at__isnull=True) | Q(seen_at__lt=now - _write_every()) | Q(turn_mailed_at__gte=F("seen_at"))
    written = Seat.objects.filter(pk=seat.pk).filter(stale).update(seen_at=now) > 0
    if written:
        seat.seen_at = now
    return written


def is_present(seat: Seat, *, now=None) -> bool:
    """Has she had the seat's table open within the last TOPOS_PRESENCE_SECONDS?"""
    now = now or timezone.now()
    return seat.seen_at is not None and seat.seen_at > now - _window()


def turn_mail_due(seat: Seat, *, now=None) -> bool:
    """May a "your turn" at this seat go out by email (or into her digest)?"""
    if is_present(seat, now=now):
        return False  # she is looking at the board
    if seat.turn_mailed_at is None:
        return True
    return seat.seen_at is not None and seat.seen_at > seat.turn_mailed_at  # she came back since the last one
