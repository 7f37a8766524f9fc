"""Telling the streams of every web process that something is new, through Redis pub/sub.

Only a nudge: the message carries no event, the stream then reads the rows by its cursor, so a
lost message costs a little delay (the stream re-reads at every heartbeat), never an event.
Published by the worker after the rows commit (games.tasks).  Without REDIS_URL (the embedded
site, one machine) there is nobody to tell: the streams read the database every second.
"""

from __future__ import annotations

import logging

from django.conf import settings

from config.redis_clients import outage_log, redis_client

log = logging.getLogger(__name__)


def user_channel(user_id: int) -> str:
    return f"topos:events:user:{user_id}"


def table_channel(game_id: int) -> str:
    return f"topos:events:table:{game_id}"


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def publish(channels: list[str]) -> int:
    """Nudge the streams listening on `channels`; how many were sent (0 without Redis or if it is down)."""
    if not channels or not enabled():
        return 0
    try:
        client = redis_client(settings.REDIS_URL)
        if len(channels) == 1:  # a move's nudge of its table: one command, no pipeline to build (decision 28)
            client.publish(channels[0], b"1")
        else:
            pipe = client.pipeline(transaction=False)
            for channel in channels:
                pipe.publish(channel, b"1")
            pipe.execute()
    except Exception:
        outage_log(
            log,
            "stream-publish",
            "could not publish to %d stream channels; streams catch up at their next heartbeat",
            len(channels),
        )
        return 0
    return len(channels)


def table_announce(game_id: int, user_ids: list[int] = ()) -> int:
    return publish([table_channel(game_id), *(user_channel(u) for u in user_ids)])


def users_announce(user_ids: list[int]) -> int:
    return publish([user_channel(u) for u in user_ids])
