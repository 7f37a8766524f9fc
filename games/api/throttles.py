"""How often a client may call the API (DRF throttles), by the rates in settings.TOPOS_API_RATES.

The rates are read when a request comes, not when this module is imported (DRF's own classes keep the
settings they were loaded with), so the environment and the tests can change them.  The counts live in
the default cache, shared by every web process (config/settings.py: Redis, or files on one machine).
A refusal is 429 with `Retry-After` (games.api.errors).  A cache that does not answer lets the request through
(and logs it): the limits protect the site, they must not take it down with Redis.
"""

import logging

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from accounts import limits

logger = logging.getLogger(__name__)


class _RatesFromSettings:
    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except (OSError, RedisError):
            logger.warning("The API throttle %r was not applied: the cache did not answer.", self.scope, exc_info=True)
            return True

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
