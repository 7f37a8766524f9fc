"""One Redis client per process and address, for the site's synchronous uses of REDIS_URL.

The throttles' windows, the streams' nudges and the effects dispatch's "queued" mark each talk to Redis in a
request or a task; one client (and its connection pool) per address and timeout serves them all.  Made lazily,
so a web or worker process makes its own after forking (redis-py also resets a pool it finds in a forked child).
Tests change the address, hence the key.
"""

from __future__ import annotations

from functools import cache


@cache
def redis_client(url: str, read_timeout: float = 2.0):
    """A client of `url` that gives up connecting after 1 s and waiting for an answer after `read_timeout`."""
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=read_timeout)
