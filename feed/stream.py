"""Server-sent-event streams of the feed: a person's events, and a table's public changes.

One feed object says what to send (it reads the database, synchronously); two drivers send it:
- `run_async` under an ASGI server (uvicorn, feed.asgi): a connection waiting for news is a
  coroutine, holding no thread and no database connection.  With REDIS_URL it waits on a Redis
  pub/sub channel (feed.announce) and reads the rows when nudged; without, it reads every second.
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
from datetime import UTC, datetime

from django.db import close_old_connections, connection

from config.redis_clients import outage_log

from . import announce, hooks
from .selectors import event_latest_id, event_public, events_after, table_public

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 15.0  # a comment line, so proxies and browsers keep an idle stream open
POLL_SECONDS = 1.0  # without Redis: how often a stream looks at the database
RETRY_MS = 3000  # the browser's wait before it reconnects
WSGI_LIFETIME = 60.0  # a WSGI stream holds a thread: give it back now and then
ASGI_LIFETIME = 900.0  # an ASGI one too, so that a server can stop and clients spread over new processes
PRESENCE_CHECK_SECONDS = 5.0  # a player's table stream asks at most this often whether to write her presence
PLAYER_HEARTBEAT_SECONDS = 2.0  # a WSGI stream's heartbeat to a seated player (TableFeed.heartbeat_seconds)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # a running game's start when none is stored: everything is after it
TOKEN_CHECK_SECONDS = 5.0  # a stream opened with an API token asks this often whether the token still holds

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


class _Credential:
    """A stream opened with an API token ends soon after the token stops letting its owner in (revoked, expired, or
    her account closed): it asks again every TOKEN_CHECK_SECONDS, one query on the token's primary key, whatever
    path revoked it (her profile, the API, a password change, the admin).  A session's stream asks nothing."""

    token_id: int | None = None
    token_next = 0.0

    def held_by(self, token_id: int | None) -> None:
        """Opened with this token (None: a session); the authentication just checked it, the next check waits."""
        self.token_id, self.token_next = token_id, time.monotonic() + TOKEN_CHECK_SECONDS

    def token_check_in(self) -> float:
        """Seconds until the next check is due (infinite without a token)."""
        return float("inf") if self.token_id is None else max(0.0, self.token_next - time.monotonic())

    def still_allowed(self) -> bool:
        from accounts.selectors import token_still_valid

        if self.token_id is None or time.monotonic() < self.token_next:
            return True
        self.token_next = time.monotonic() + TOKEN_CHECK_SECONDS
        return token_still_valid(token_id=self.token_id)


TOKEN_ENDED = comment("the API token no longer holds: this stream ends (a new connection answers why)")


class UserFeed(_Credential):
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

    heartbeat_seconds = HEARTBEAT_SECONDS

    def presence_due(self) -> bool:
        return False

    def answered(self) -> None:
        pass

    def read(self) -> bytes:
        out = []
        while True:
            page = events_after(user_id=self.user_id, after=self.after, limit=100)
            for event in page:
                out.append(sse(kind=event.kind, data=event_public(event), event_id=event.id))
                self.after = event.id
            if len(page) < 100:
                return b"".join(out)


class TableFeed(_Credential):
    """A table's stamp, version and status each time they change (the first at once): public facts only.

    Then what later apps add to a table's stream (feed.hooks.table_stream_parts), each at once and whenever it
    changes: the chat adds a `chat` event with the stamp of the chat as this viewer reads it, and the page then
    asks for the messages themselves, never sent here.  A player's parts leave out what the spectators wrote while
    the game runs (`player`: seated when the stream was opened), so she is not even told that they wrote.
    """

    def __init__(self, game_id: int, *, player: bool = False, seat_id: int | None = None):
        self.game_id, self.last, self.player, self.last_parts = game_id, None, player, {}
        self.started_at = None
        self.channel = announce.table_channel(game_id)
        # Ruling S6: a player's open stream is her presence at the table, as her page's poller is.
        self.seat_id, self.presence_next = seat_id, 0.0

    def opening(self) -> bytes:
        return f"retry: {RETRY_MS}\n: table {self.game_id}\n\n".encode()

    def _started_at(self):
        """When the running game started (read once: it never changes)."""
        from games.models import Game

        if self.started_at is None:
            self.started_at = Game.objects.filter(pk=self.game_id).values_list("started_at", flat=True).first() or EPOCH
        return self.started_at

    @property
    def heartbeat_seconds(self) -> float:
        """Under WSGI a reader who left is only found out by writing to her (the second write fails): a player's
        stream writes often, so that a closed page stops counting as her presence within seconds (ruling S6)."""
        return PLAYER_HEARTBEAT_SECONDS if self.seat_id is not None else HEARTBEAT_SECONDS

    def presence_due(self) -> bool:
        return self.seat_id is not None and time.monotonic() >= self.presence_next

    def answered(self) -> None:
        """What the stream sent reached her (the driver calls this after each send went through): write her presence
        as her page does, one conditional statement every few seconds (it writes only when the throttle has passed
        or a turn was mailed since she was last seen)."""
        from .presence import stream_presence_record, write_every

        if not self.presence_due():
            return
        stream_presence_record(seat_id=self.seat_id)
        self.presence_next = time.monotonic() + min(PRESENCE_CHECK_SECONDS, write_every().total_seconds())

    def read(self) -> bytes:
        now = table_public(self.game_id)
        if now is None:
            return b""
        out = b""
        if now != self.last:
            self.last = now
            out += sse(kind="table", data=now)
        hidden_since = self._started_at() if self.player and now["status"] == "running" else None
        for kind, data in hooks.table_stream_parts(self.game_id, hidden_since=hidden_since):
            if data != self.last_parts.get(kind):
                self.last_parts[kind] = data
                out += sse(kind=kind, data=data)
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
            if not feed.still_allowed():
                yield TOKEN_ENDED
                break
            chunk = feed.read()
            if chunk:
                yield chunk  # resumed once the server wrote it: the reader is still there
                feed.answered()
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= feed.heartbeat_seconds:
                yield comment("heartbeat")
                feed.answered()
                quiet_since = time.monotonic()
            _let_go()  # an idle stream holds no connection (and a test database can be dropped)
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


def _allowed_in_pool(feed) -> bool:
    try:
        return feed.still_allowed()
    except Exception:
        close_old_connections()
        connection.close()  # the database is away: keep streaming; the next check asks again
        return True


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
            outage_log(
                log,
                "stream-pubsub-lost",
                "lost Redis pub/sub on %s; this stream reads the database every second now",
                self.channel,
            )
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
            outage_log(
                log, "stream-pubsub", "no Redis pub/sub for %s; this stream reads the database every second", channel
            )
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
        heartbeat = HEARTBEAT_SECONDS  # the ASGI app hears a reader leave at once (serve_stream cancels this)
        while time.monotonic() < end:
            if feed.token_check_in() == 0 and not await loop.run_in_executor(None, _allowed_in_pool, feed):
                await send(TOKEN_ENDED)
                break
            chunk = await loop.run_in_executor(None, _read_in_pool, feed)
            if chunk:
                await send(chunk)
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= heartbeat:
                await send(comment("heartbeat"))
                quiet_since = time.monotonic()
            if feed.presence_due():  # sent, and the reader has not left (the app cancels this when she does)
                await loop.run_in_executor(None, feed.answered)
            due = min(heartbeat - (time.monotonic() - quiet_since), end - time.monotonic(), feed.token_check_in())
            await waiter.wait(max(0.05, due))
    finally:
        await waiter.close()
