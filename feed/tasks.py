"""Celery tasks of the feed: thin, taking ids and calling its services.

Their registered names are the ones they had in games/tasks.py ("games.tasks.…"): a queue in flight across a
deploy, and the beat schedule (config/settings.py), must still be served.
"""

from __future__ import annotations

from celery import shared_task

from .announce import table_announce
from .services import events_purge as feed_events_purge


@shared_task(name="games.tasks.table_changed_announce", acks_late=True, reject_on_worker_lost=True)
def table_changed_announce(game_id: int, user_ids: list[int] | None = None) -> int:
    """Nudge the streams of a table (and of people with a new event there) after a change the dispatch does not
    see: a join, a bot seated, an invitation, an abort.  Sent only when REDIS_URL is set (feed.announce)."""

    return table_announce(game_id, user_ids or [])


@shared_task(name="games.tasks.events_purge", acks_late=True, reject_on_worker_lost=True)
def events_purge() -> int:
    """Beat, hourly: forget feed events older than TOPOS_EVENTS_RETENTION_DAYS."""
    return feed_events_purge()
