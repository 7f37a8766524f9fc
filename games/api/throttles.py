"""How often a client may call the API (DRF throttles), by the rates in settings.TOPOS_API_RATES.

The rates are read when a request comes, not when this module is imported (DRF's own classes keep the
settings they were loaded with), so the environment and the tests can change them.  The counts live in
the default cache, shared by every web process (config/settings.py: Redis, or files on one machine).
A refusal is 429 with `Retry-After` (games.api.errors).  A cache that does not answer lets the request through
(and logs it): the limits protect the site, they must not take it down with Redis.

With Redis (TOPOS_THROTTLE_REDIS_URL, REDIS_URL by default) each throttle costs one round trip: the window is a
sorted set of the requests' times, pruned, counted and added to by one script (decision 16: DRF's own way read and
wrote back a pickled list of up to the whole rate's times, two round trips per throttle, and two requests at once
could both pass the last place).  The same sliding window and the same limits as DRF's; without Redis, DRF's own
way on the cache (files on the embedded site).
"""

import logging
import secrets
from functools import cache

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from accounts import limits
from config.redis_clients import outage_log, redis_client

logger = logging.getLogger(__name__)


# KEYS[1]: the window.  ARGV: now, duration (seconds), limit, a member naming this request.  Answers {1} when
# the request is let through (and counted), {0, the oldest time in the window} when refused (and not counted).
_WINDOW = """
local now, duration, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
if redis.call('ZCARD', KEYS[1]) >= limit then
  return {0, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(duration))
return {1}
"""


# The same, for several windows at once (one request counted by each of its throttles): KEYS the windows; ARGV
# now, a member naming this request, then each window's duration and limit.  Answers two values a window: 1, 0
# when let through (and counted), 0 and the oldest time in the window when refused (and not counted there).
_WINDOWS = """
local now, member = tonumber(ARGV[1]), ARGV[2]
local out = {}
for i, key in ipairs(KEYS) do
  local duration, limit = tonumber(ARGV[1 + 2 * i]), tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - duration)
  if redis.call('ZCARD', key) >= limit then
    out[#out + 1] = 0
    out[#out + 1] = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]
  else
    redis.call('ZADD', key, now, member)
    redis.call('EXPIRE', key, math.ceil(duration))
    out[#out + 1] = 1
    out[#out + 1] = 0
  end
end
return out
"""


@cache
def _windows_script(url: str):
    return redis_client(url, read_timeout=1.0).register_script(_WINDOWS)


def throttle_waits(request, view, throttles) -> list[float | None]:
    """What DRF's APIView.check_throttles asks of each throttle, those kept in Redis asked in one round trip
    (decision 28, point 1: a move's account rate and its burst limit were two): the waits of the throttles that
    refuse, none when all let the request through.  Each window counts the request where it lets it through,
    as when asked one after the other; a Redis that does not answer lets it through (and is logged)."""
    url = settings.TOPOS_THROTTLE_REDIS_URL
    windows = [t for t in throttles if isinstance(t, _RatesFromSettings)] if url else []
    refused = [t for t in throttles if t not in windows and not t.allow_request(request, view)]
    asked = [t for t in windows if t.rate is not None and t._keyed(request, view)]
    if asked:
        now = asked[0].timer()
        args = [repr(now), f"{now:.6f}:{secrets.token_hex(4)}"]
        for throttle in asked:
            throttle.now = now
            args += [throttle.duration, throttle.num_requests]
        keys = [f"{settings.TOPOS_THROTTLE_KEY_PREFIX}:{t.key}" for t in asked]
        try:
            answer = _windows_script(url)(keys=keys, args=args)
        except (OSError, RedisError):
            scopes = ", ".join(t.scope for t in asked)
            words = "The API throttles %s were not applied: the cache did not answer"
            outage_log(logger, "api-throttle", words, scopes)
            answer = [1, 0] * len(asked)
        for n, throttle in enumerate(asked):
            if not int(answer[2 * n]):
                throttle._oldest = float(answer[2 * n + 1])
                refused.append(throttle)
    return [t.wait() for t in refused]


@cache
def _window_script(url: str):
    """The window script on the process's client of `url` (a throttle that cannot wait long gives up after 1 s)."""
    return redis_client(url, read_timeout=1.0).register_script(_WINDOW)


class _RatesFromSettings:
    def allow_request(self, request, view):
        try:
            url = settings.TOPOS_THROTTLE_REDIS_URL
            return self._allow_in_redis(request, view, url) if url else super().allow_request(request, view)
        except (OSError, RedisError):
            outage_log(
                logger, "api-throttle", "The API throttle %r was not applied: the cache did not answer", self.scope
            )
            return True

    def _keyed(self, request, view) -> bool:
        """Does this request count in a window of this throttle (an account's rate counts no anonymous request)?"""
        self.key = self.get_cache_key(request, view)
        return self.key is not None

    def _allow_in_redis(self, request, view, url: str) -> bool:
        if self.rate is None or not self._keyed(request, view):
            return True
        self.now = self.timer()
        member = f"{self.now:.6f}:{secrets.token_hex(4)}"
        answer = _window_script(url)(
            keys=[f"{settings.TOPOS_THROTTLE_KEY_PREFIX}:{self.key}"],
            args=[repr(self.now), self.duration, self.num_requests, member],
        )
        if int(answer[0]):
            return True
        self._oldest = float(answer[1])
        return False

    def wait(self):
        oldest = getattr(self, "_oldest", None)
        if oldest is None:
            return super().wait()
        # As DRF says it: when the oldest request in the window leaves it, a place is free.
        return max(self.duration - (self.now - oldest), 0)

    def get_rate(self):
        return settings.TOPOS_API_RATES.get(self.scope)

    def get_ident(self, request):
        # The address as the site's other limits count it: behind TOPOS_TRUSTED_PROXIES, an IPv6 /64 as one client.
        return limits.client_address(request)


class AnonThrottle(_RatesFromSettings, AnonRateThrottle):
    """Requests without an account, per client address."""

    scope = "anon"


class UserThrottle(_RatesFromSettings, UserRateThrottle):
    """Requests with an account (token or session), per account."""

    scope = "user"


class MoveBurstThrottle(_RatesFromSettings, UserRateThrottle):
    """Move submissions per account, on top of the account's rate: a runaway bot cannot flood a table."""

    scope = "moves"
