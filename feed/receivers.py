"""What the feed answers of games' hooks (games.hooks), connected in FeedConfig.ready(): nudging the streams,
and her presence at a table's page (ruling S6; her open stream records it too)."""

from __future__ import annotations

from django.db import transaction

from config.celery import enqueue
from games import hooks

from .announce import enabled, table_announce
from .presence import presence_record


def streams_nudge(game_id: int, user_ids: list[int]) -> int:
    """After a commit: the streams of the table and of these people read what is new (games.services.effects)."""
    return table_announce(game_id, user_ids)


def streams_nudge_on_commit(game_id: int, user_ids: list[int]) -> None:
    """Inside a write the dispatch does not follow: the streams are nudged by a task once it commits."""
    if enabled():  # without Redis every stream reads the database itself: nothing to send
        transaction.on_commit(lambda: enqueue("games.tasks.table_changed_announce", game_id, user_ids))


def table_viewed(*, game, user) -> bool:
    """Ruling S6: she has the table's page open (its load or a poll), as her open stream says too (feed.stream)."""
    return presence_record(game=game, user=user)


def connect() -> None:
    hooks.streams_nudge.connect(streams_nudge)
    hooks.streams_nudge_on_commit.connect(streams_nudge_on_commit)
    hooks.table_viewed.connect(table_viewed)
