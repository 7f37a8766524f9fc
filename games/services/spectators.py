"""Who is watching a table (decision 17): people and anonymous browsers with its page open who do not sit at it.

The table page and its poller (every 10 s while the table's event stream is connected, every 1-3 s otherwise)
call `spectator_record`.  A viewer's row is written at most every WRITE_EVERY_SECONDS, the throttle kept in
Django's cache (Redis, or the embedded site's files), so a poll in between costs no query; the game's own row is
never written.  A viewer counts while her page asked within TOPOS_SPECTATOR_SECONDS (games.selectors.lobby).
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts import limits
from config.redis_clients import outage_log

from ..models import Game, Spectator
from ..selectors.spectating import spectator_window

log = logging.getLogger(__name__)
WRITE_EVERY_SECONDS = 30


def viewer_key(request) -> str:
    """Names one viewer without keeping who she is: her account, else her session, else her address and browser;
    a keyed hash of it (like accounts.limits), so no session key or address is stored in clear."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        raw = f"user:{user.pk}"
    elif getattr(request, "session", None) is not None and request.session.session_key:
        raw = f"session:{request.session.session_key}"
    else:
        raw = f"anonymous:{limits.client_address(request)}:{request.META.get('HTTP_USER_AGENT', '')[:200]}"
    return salted_hmac("games.spectators", raw, algorithm="sha256").hexdigest()


def _due(game: Game, viewer: str) -> bool:
    """True at most once every WRITE_EVERY_SECONDS per viewer and table (a cache that fails lets it through).
    The key names the table by its number and its creation (a number SQLite may give again after a rollback)."""
    key = f"spectator:{game.pk}:{int(game.created_at.timestamp() * 1000)}:{viewer}"
    try:
        return bool(cache.add(key, 1, timeout=WRITE_EVERY_SECONDS))
    except Exception:  # a cache that does not answer must not fail the page; the row is then written every time
        outage_log(log, "spectator-throttle", "spectator throttle unavailable")
        return True


def spectator_record(*, game: Game, viewer: str, user=None, now=None) -> bool:
    """The page of `game` is open for `viewer`, who does not sit at it; True if a row was written.

    Reads the seats the view already loaded; players are not spectators (their presence is Seat.seen_at,
    ruling S6).  Only open and running tables are watched: a finished page does not poll.
    """
    if game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
        return False
    user = user if user is not None and getattr(user, "is_authenticated", False) else None
    if user is not None and any(s.user_id == user.pk for s in game.seats.all()):
        return False
    if not _due(game, viewer):
        return False
    now = now or timezone.now()
    Spectator.objects.bulk_create(
        [Spectator(game=game, viewer=viewer, user=user, seen_at=now)],
        update_conflicts=True,
        unique_fields=["game", "viewer"],
        update_fields=["seen_at", "user"],
    )
    # Keep the table small: the rows of viewers gone for a while are of no use any more.
    Spectator.objects.filter(game=game, seen_at__lt=now - 2 * spectator_window()).delete()
    return True
