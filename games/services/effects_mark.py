"""The mark that says a game's effects dispatch (`tasks.game_effects`) is queued and has not read the game yet.

A change sends a dispatch only if it sets the mark (games.services.effects.game_changed); the dispatch takes the
mark away before, or as, it reads the game, so a change committed after that read sets it again and sends the next.

Where the site has Redis (REDIS_URL) the mark is a Redis key, set with SET NX and an expiry: a move then writes
no row after its commit (decision 16: the UPDATE, or UPDATE and EXISTS when a task waits, cost the web process
some 0.6-0.8 ms of CPU, the SET 0.05 ms), and the task deletes the key before it reads the game.  Without Redis
(the embedded site) it is `GameEffects.queued_at`, which the dispatch clears in its own transaction, under the
game's lock (notifications.events).  Either way a mark older than QUEUED_FOR_AT_MOST is taken as a lost
task's: the next change sends another (harmless twice).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from config.redis_clients import outage_log, redis_client

from ..models import GameEffects

log = logging.getLogger(__name__)

# A dispatch task sent longer ago than this and still not started is taken as lost: the next
# change sends another (the worker may have been down; the task itself is harmless twice).
QUEUED_FOR_AT_MOST = timedelta(seconds=30)


def _redis():
    """This process's client of REDIS_URL, or None without Redis."""
    return redis_client(settings.REDIS_URL) if settings.REDIS_URL else None


def _key(game_id: int) -> str:
    return f"topos:effects:queued:{game_id}"


def mark_queued(game_id: int) -> bool:
    """Mark the game's dispatch as queued; False if one already was (and is not too old to trust)."""
    client = _redis()
    if client is not None:
        try:
            return bool(client.set(_key(game_id), b"1", nx=True, ex=int(QUEUED_FOR_AT_MOST.total_seconds())))
        except Exception:
            outage_log(
                log, "effects-mark", "could not mark the effects of game %s as queued; sending a dispatch", game_id
            )
            return True  # a second dispatch is harmless, a missing one is not
    now = timezone.now()
    free = Q(queued_at__isnull=True) | Q(queued_at__lt=now - QUEUED_FOR_AT_MOST)
    if GameEffects.objects.filter(free, game_id=game_id).update(queued_at=now):
        return True
    if GameEffects.objects.filter(game_id=game_id).exists():
        return False
    try:
        with transaction.atomic():
            GameEffects.objects.create(game_id=game_id, queued_at=now)
    except IntegrityError:
        return False  # another change created it a moment ago and sent the task
    return True


def mark_taken(game_id: int) -> None:
    """The dispatch is about to read the game: with Redis its mark goes now, before the read.  Without Redis
    nothing is done here: the dispatch clears the row's mark in its own transaction (notifications.events)."""
    client = _redis()
    if client is None:
        return
    try:
        client.delete(_key(game_id))
    except Exception:
        # The mark runs out by itself; changes meanwhile are found by the beat sweep (tasks.effects_sweep).
        outage_log(log, "effects-clear", "could not clear the queued mark of game %s", game_id)


def mark_cleared(game_id: int) -> None:
    """No dispatch is on its way after all (it could not be sent, or it failed): the next change sends one."""
    if _redis() is not None:
        mark_taken(game_id)
    else:
        GameEffects.objects.filter(game_id=game_id).update(queued_at=None)
