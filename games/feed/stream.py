"""Server-sent-event streams of the feed: a person's events, and a table's public changes.

One feed object says what to send (it reads the database, synchronously); two drivers send it:
- `run_async` under an ASGI server (uvicorn, games.feed.asgi): a connection waiting for news is a
  coroutine, holding no thread and no database connection.  With REDIS_URL it waits on a Redis
  pub/sub channel (games.feed.announce) and reads the rows when nudged; without, it reads every second.
- `run_sync` under a WSGI server (runserver, the tests' live server, gunicorn's threads): the stream
  holds a thread, reads every second, and ends after WSGI_LIFETIME seconds; the browser reconnects
  by itself, with Last-Event-ID, so nothing is missed.
Either way the stream subscribes before it reads, and reads by cursor: nothing falls between the two.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

from django.db import close_old_connections, connection

from . import announce
from .selectors import event_latest_id, event_public, events_after, table_public

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 15.0  # a comment line, so proxies and browsers keep an idle stream open
POLL_SECONDS = 1.0  # without Redis: how often a stream looks at the database
RETRY_MS = 3000  # the browser's wait before it reconnects
WSGI_LIFETIME = 60.0  # a WSGI stream holds a thread: give it back now and then
ASGI_LIFETIME = 900.0  # an ASGI one too, so that a server can stop and clients spread over new processes
HEADERS = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "private, no-store",
    "X-Accel-Buffering": "no",
}  # nginx: pass each event on at once


def sse(*, kind: str, data: dict, event_id: int | None = None) -> bytes:
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines += [f"event: {kind}", "data: " + json.dumps(data, separators=(",", ":"))]
    return ("\n".join(lines) + "\n\n").encode()


def comment(text: str) -> bytes:
    return f": {text}\n\n".encode()


class UserFeed:
    """Her events after a cursor (from `?after=`, Last-Event-ID, or else the newest event: only what comes next)."""

    def __init__(self, user_id: int, after: int | None):
        self.user_id, self.after = user_id, after
        self.channel = announce.user_channel(user_id)

    def opening(self) -> bytes:
        if self.after is None:
            self.after = event_latest_id(user_id=self.user_id)
        # An id line without data sets the browser's Last-Event-ID, so even a reconnect before the first event
        # resumes here.
        return f"retry: {RETRY_MS}\nid: {self.after}\n: events after {self.after}\n\n".encode()

    def read(self) -> bytes:
        out = []
        while True:
            page = events_after(user_id=self.user_id, after=self.after, limit=100)
            for event in page:
                out.append(sse(kind=event.kind, data=event_public(event), event_id=event.id))
                self.after = event.id
            if len(page) < 100:
                return b"".join(out)


class TableFeed:
    """A table's stamp, version and status each time they change (the first at once): public facts only.

    Then a `chat` event with the stamp of the chat as this viewer reads it (games.chat.selectors.chat_stamp),
    at once and whenever it changes: the page then asks for the messages themselves, never sent here.  A
    player's stamp leaves out the spectators' messages written while the game runs (`player`: seated when the
    stream was opened), so she is not even told that they wrote.
    """

    def __init__(self, game_id: int, *, player: bool = False):
        self.game_id, self.last, self.player, self.last_chat = game_id, None, player, None
        self.started_at = None
        self.channel = announce.table_channel(game_id)

    def opening(self) -> bytes:
        return f"retry: {RETRY_MS}\n: table {self.game_id}\n\n".encode()

    def _started_at(self):
        """When the running game started (read once: it never changes)."""
        from ..chat.selectors import EPOCH
        from ..models import Game

        if self.started_at is None:
            self.started_at = Game.objects.filter(pk=self.game_id).values_list("started_at", flat=True).first() or EPOCH
        return self.started_at

    def read(self) -> bytes:
        from ..chat.selectors import chat_stamp

        now = table_public(self.game_id)
        if now is None:
            return b""
        out = b""
        if now != self.last:
            self.last = now
            out += sse(kind="table", data=now)
        hidden_since = self._started_at() if self.player and now["status"] == "running" else None
        chat = {"table": self.game_id, "stamp": chat_stamp(self.game_id, hidden_since=hidden_since)}
        if chat != self.last_chat:
            self.last_chat = chat
            out += sse(kind="chat", data=chat)
        return out


# --- WSGI: a thread per stream ------------------------------------------------------------------


def _let_go() -> None:
    """Close this thread's database connection, unless a transaction around the stream still needs it (tests)."""
    if not connection.in_atomic_block:
        connection.close()


def run_sync(feed, *, lifetime: float = WSGI_LIFETIME):
    """The stream as a generator for a WSGI server; it closes its database connection between reads."""
    yield feed.opening()
    end = time.monotonic() + lifetime
    quiet_since = time.monotonic()
    try:
        while time.monotonic() < end:
            chunk = feed.read()
            _let_go()  # an idle stream holds no connection (and a test database can be dropped)
            if chunk:
                yield chunk
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                yield comment("heartbeat")
                quiet_since = time.monotonic()
            time.sleep(POLL_SECONDS)
    finally:
        _let_go()


# --- ASGI: a coroutine per stream ---------------------------------------------------------------


def _read_in_pool(feed) -> bytes:
    """One read on a thread of the shared pool, which keeps its database connection between reads."""
    for attempt in (1, 2):
        try:
            return feed.read()
        except Exception:
            close_old_connections()
            connection.close()  # a connection the database dropped: the next attempt opens a new one
            if attempt == 2:
                raise
    return b""


class _Ticker:
    """Without Redis: wake every POLL_SECONDS."""

    async def wait(self, timeout: float) -> None:
        await asyncio.sleep(min(timeout, POLL_SECONDS))

    async def close(self) -> None:
        pass


class _RedisWaiter:
    """With Redis: wake when the channel is nudged, or after `timeout` (the heartbeat, which also re-reads)."""

    def __init__(self, url: str, channel: str):
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=2)
        self.pubsub = self.client.pubsub()
        self.channel = channel
        self.broken = False

    async def open(self) -> "_RedisWaiter":
        await self.pubsub.subscribe(self.channel)
        return self

    async def wait(self, timeout: float) -> None:
        if self.broken:  # Redis went away: read the database every second, as without it
            await asyncio.sleep(min(timeout, POLL_SECONDS))
            return
        try:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
            while message is not None:  # several nudges read as one
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0)
        except Exception:
            log.warning("lost Redis pub/sub on %s; this stream reads the database every second now", self.channel)
            self.broken = True

    async def close(self) -> None:
        try:
            await self.pubsub.aclose()
            await self.client.aclose()
        except Exception:
            pass


async def _waiter(channel: str):
    from django.conf import settings

    if settings.REDIS_URL:
        waiter = _RedisWaiter(settings.REDIS_URL, channel)
        try:
            return await waiter.open()
        except Exception:
            # Redis is down: the stream still works, reading the database every second (and /healthz says so).
            log.warning("no Redis pub/sub for %s; this stream reads the database every second", channel)
            await waiter.close()
    return _Ticker()


async def run_async(feed, send, *, lifetime: float = ASGI_LIFETIME) -> None:
    """Send the stream through `send(bytes)` until `lifetime` ends (the caller cancels it when the client leaves)."""
    loop = asyncio.get_running_loop()
    waiter = await _waiter(feed.channel)  # subscribed before the first read: no nudge falls in between
    try:
        await send(await loop.run_in_executor(None, feed.opening))
        end = time.monotonic() + lifetime
        quiet_since = time.monotonic()
        while time.monotonic() < end:
            chunk = await loop.run_in_executor(None, _read_in_pool, feed)
            if chunk:
                await send(chunk)
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                await send(comment("heartbeat"))
                quiet_since = time.monotonic()
            await waiter.wait(
                max(0.05, min(HEARTBEAT_SECONDS - (time.monotonic() - quiet_since), end - time.monotonic()))
            )
    finally:
        await waiter.close()
