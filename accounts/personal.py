"""Each person's language and time zone: pages, notifications and emails speak to her in hers.

A page follows her account when she is logged in (her choice, kept when she uses the language
menu), else what her browser asks (Django's LocaleMiddleware) and the zone her browser reported
in the `tz` cookie (static/js/site.js).  Work done without a request (notifications, emails in the
worker) uses `her_words(user)`.
"""

from __future__ import annotations

import zoneinfo
from contextlib import contextmanager
from functools import lru_cache

from django.conf import settings
from django.utils import timezone, translation

ZONE_COOKIE = "tz"


@lru_cache(maxsize=1)
def time_zone_names() -> tuple[str, ...]:
    """Every IANA zone this machine knows, sorted (the profile's choices)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def is_time_zone(name: str) -> bool:
    return bool(name) and name in time_zone_names()


def zone(name: str | None) -> zoneinfo.ZoneInfo:
    """The zone called `name`, or UTC for an empty or unknown name (a cookie can say anything)."""
    return zoneinfo.ZoneInfo(name if name and is_time_zone(name) else "UTC")


def language_of(user) -> str:
    """The language to write to `user` in when she is not on a page: hers, else the site's."""
    chosen = getattr(user, "language", "") or ""
    return chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def zone_name() -> str:
    """The active time zone's IANA name ("Asia/Taipei"): never an abbreviation, which can mean several zones
    ("CST" is China's, Cuba's and the American Central one)."""
    return timezone.get_current_timezone_name()


def local_time(moment) -> str:
    """A moment as every page, email and API text shows it: "2026-11-28 14:15 (Asia/Taipei)".

    In the active zone (hers on a page, in the API and in `her_words`), named by its IANA name; the date in
    ISO order, which reads the same in every language.  Empty for None.
    """
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} ({zone_name()})"


@contextmanager
def her_words(user):
    """Translate and show times as `user` reads them, for text made outside her requests."""
    with translation.override(language_of(user)), timezone.override(zone(getattr(user, "time_zone", None))):
        yield


class PersonalSettingsMiddleware:
    """After authentication: a logged-in person's own language and time zone for this request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if user.language in dict(settings.LANGUAGES):
                translation.activate(user.language)
                request.LANGUAGE_CODE = user.language
            timezone.activate(zone(user.time_zone))
        else:
            timezone.activate(zone(request.COOKIES.get(ZONE_COOKIE)))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
