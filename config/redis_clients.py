"""One Redis client per process and address, for the site's synchronous uses of REDIS_URL.

The throttles' windows, the streams' nudges and the effects dispatch's "queued" mark each talk to Redis in a
request or a task; one client (and its connection pool) per address and timeout serves them all.  Made lazily,
so a web or worker process makes its own after forking (redis-py also resets a pool it finds in a forked child).
Tests change the address, hence the key.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from functools import cache


@cache
def redis_client(url: str, read_timeout: float = 2.0):
    """A client of `url` that gives up connecting after 1 s and waiting for an answer after `read_timeout`."""
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=read_timeout)


# --- Logging an outage, not every request it touches ----------------------------------------------------------
#
# With Redis down every request meets it several times (its throttle, its token's use, a spectator's mark, the nudge
# of the streams, the queued mark of its effects): a traceback each would bury the log (thousands a minute) and
# tell nothing new after the first.  Each kind of failure is logged with its traceback the first time in a process,
# then as one line at most once per OUTAGE_LOG_SECONDS, counting the ones left out.

OUTAGE_LOG_SECONDS = 60.0
_outages: dict[str, list] = {}  # kind -> [monotonic time of the last line, failures since it, traceback shown]
_outages_lock = threading.Lock()


def outage_log(logger: logging.Logger, kind: str, message: str, *args, level: int = logging.WARNING) -> None:
    """Log the failure being handled (call it in an `except` block) as `message % args`, unless a line of the same
    `kind` went out in this process less than OUTAGE_LOG_SECONDS ago; the failure's own words end the line."""
    now = time.monotonic()
    with _outages_lock:
        last, left_out, shown = _outages.get(kind, (None, 0, False))
        if last is not None and now - last < OUTAGE_LOG_SECONDS:
            _outages[kind] = [last, left_out + 1, shown]
            return
        _outages[kind] = [now, 0, True]
    error = sys.exc_info()[1]
    more = f" ({left_out} more like it since the last line)" if left_out else ""
    logger.log(
        level,
        message + ": %s%s",
        *args,
        f"{type(error).__name__}: {error}" if error is not None else "no error",
        more,
        exc_info=not shown,
    )


def outages_forgotten() -> None:
    """Forget what was logged (tests)."""
    with _outages_lock:
        _outages.clear()
