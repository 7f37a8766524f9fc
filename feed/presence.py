"""Who is looking at a table, and so need not be mailed about it (ruling S6).

Presence is what the site can observe: a page of that table (its poller) or the table's event stream open and
answering.  Either writes `Seat.seen_at`, at most every `write_every()` and always on the first look after a turn
was mailed; the Celery worker that decides about emails is another process, hence the database.

How a "your turn" email is timed (notifications.services, docs/notifications.md):
- it is never decided when the turn is told: the delivery waits `grace()` (TOPOS_TURN_MAIL_GRACE_SECONDS), so
  leaving the page just before the turn arrives swallows nothing;
- when it is due it goes out unless she looked at the table since it was told (`seen_since`), played, or the
  turn is over (`turn_still_hers`);
- a table's turn is mailed once until she visits that table (`turn_mail_due`): later turns there send nothing
  until she has been back.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from games.models import Game, Seat

WRITE_EVERY_SECONDS = 30
# A page polls every few seconds, every 10 s while its stream is connected (table.js), and a stream under
# Redis reads at least every heartbeat (15 s): a seat written this much longer ago than the throttle is away.
PAGE_SLACK_SECONDS = 15


def grace() -> timedelta:
    """How long a turn waits before it is mailed, for her to look at the table (ruling S6)."""
    return timedelta(seconds=settings.TOPOS_TURN_MAIL_GRACE_SECONDS)


def write_every() -> timedelta:
    """The presence throttle: a quarter of the grace, at most 30 s, at least 1 s, so that a page or stream open
    throughout the grace is written at least twice within it whatever its own rhythm."""
    return timedelta(seconds=min(WRITE_EVERY_SECONDS, max(1.0, settings.TOPOS_TURN_MAIL_GRACE_SECONDS / 4)))


def _stale(seat: Seat, now) -> bool:
    """Is her stored visit worth writing again (older than the throttle, or not yet after the last mail)?"""
    return (
        seat.seen_at is None
        or seat.seen_at < now - write_every()
        or (seat.turn_mailed_at is not None and seat.turn_mailed_at >= seat.seen_at)
    )


def _stale_q(now) -> Q:
    """`_stale` in the database: another request, a stream or the worker's mail may have moved on since."""
    return Q(seen_at__isnull=True) | Q(seen_at__lt=now - write_every()) | Q(turn_mailed_at__gte=F("seen_at"))


def presence_record(*, game: Game, user, now=None) -> bool:
    """She has the table's page open now; True if that was written (at most every `write_every()` per seat).

    A visit after a turn email is always written, whatever the throttle, so that the next turn can be mailed
    and the waiting one is known to be seen.  Reads the seats the view already loaded, so a poll within the
    throttle costs no query at all.
    """
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    now = now or timezone.now()
    seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None or not _stale(seat, now):
        return False
    written = Seat.objects.filter(pk=seat.pk).filter(_stale_q(now)).update(seen_at=now) > 0
    if written:
        seat.seen_at = now
    return written


def stream_presence_record(*, seat_id: int, now=None) -> bool:
    """Her table stream is open and answering (feed.stream): the same write as the page's, one statement
    that changes nothing while the throttle holds and she was not mailed since (the stream keeps no seat)."""
    now = now or timezone.now()
    return Seat.objects.filter(pk=seat_id).filter(_stale_q(now)).update(seen_at=now) > 0


def is_present(seat: Seat, *, now=None) -> bool:
    """Has she the seat's table open now (her page or stream wrote within the throttle and a page's rhythm)?

    For what the open page shows by itself (chat lines, chat.effects); turns wait out the grace instead.
    """
    now = now or timezone.now()
    window = 2 * write_every() + timedelta(seconds=PAGE_SLACK_SECONDS)
    return seat.seen_at is not None and seat.seen_at > now - window


def turn_mail_due(seat: Seat) -> bool:
    """May a "your turn" at this seat be queued for email (or her digest): not mailed since her last visit?"""
    if seat.turn_mailed_at is None:
        return True
    return seat.seen_at is not None and seat.seen_at > seat.turn_mailed_at  # she came back since the last one


def seen_since(seat: Seat, moment: datetime) -> bool:
    """Did her page or stream say she looked at the table at or after `moment`?"""
    return seat.seen_at is not None and seat.seen_at >= moment


def turn_still_hers(*, game_id: int, user_id: int, told_at: datetime, now: datetime | None = None) -> bool:
    """Is a "your turn" told at `told_at` still worth an email: the game runs, it is her decision, and she has not
    looked at the table since?  (A turn she played, or that a deadline ended, is no longer in `to_act`.)

    Nor is she looking now: a page written within the throttle is open (an open page writes at least that often).
    With the grace longer than the throttle that is already "since it was told"; with a shorter one (a site or a
    test that mails at once) it keeps the page she is at from being mailed, and still mails the one she left."""
    seat = (
        Seat.objects.select_related("game")
        .only("index", "abandoned", "seen_at", "game__status", "game__to_act")
        .filter(game_id=game_id, user_id=user_id)
        .first()
    )
    if seat is None or seat.abandoned or seat.game.status != Game.Status.RUNNING:
        return False
    now = now or timezone.now()
    looking = seen_since(seat, min(told_at, now - write_every()))
    return seat.index in seat.game.to_act and not looking
