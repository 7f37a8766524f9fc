"""Limits on abuse: at most N uses of an action per key (an account, a client address, a recipient)
in a sliding window (settings.TOPOS_RATE_LIMITS).

The counts are rows in the database (`LimitHit`), not a per-process cache: the embedded site
runs one web process but a deployment runs several (and PostgreSQL with them), and all of them
must see the same counts.  A use is written before it is counted again, so concurrent requests
that all passed the first look cannot all pass the second: a burst of parallel logins gets no
more than the limit.  A refused request writes nothing, so hammering a locked key neither grows
the table nor pushes the end of the lock further away.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import LimitHit

# What the person is told, per rule; the wait is added by `refusal_message`.  The login and email
# messages name the account (or address) and the network together, so they reveal nothing about
# which one ran out, nor whether an account exists.
_LOGIN = _("Too many failed attempts to log in to this account or from your network.")
_RESET = _("Too many password reset emails were asked for this address or from your network.")
_SIGNUP = _("Too many sign-ups were tried with this email address or from your network.")
MESSAGES = {
    "login-account": _LOGIN,
    "login-address": _LOGIN,
    "reset-address": _RESET,
    "reset-recipient": _RESET,
    "signup-address": _SIGNUP,
    "signup-recipient": _SIGNUP,
    "invite-sender": _("You have sent too many invitations lately."),
    "invite-address": _("Too many invitations were sent from your network lately."),
    "invite-recipient": _("This player has been sent too many invitations lately."),
}


@dataclass(frozen=True)
class Refusal:
    """A use that was not allowed: which rule ran out and how long until one more use is allowed."""

    rule: str
    retry_after: int  # seconds

    @property
    def message(self) -> str:
        minutes = max(1, math.ceil(self.retry_after / 60))
        wait = ngettext("Try again in %(n)d minute.", "Try again in %(n)d minutes.", minutes) % {"n": minutes}
        return f"{MESSAGES[self.rule]} {wait}"


@dataclass(frozen=True)
class Grant:
    """Uses that were allowed and counted; `release` takes them back (e.g. a login that succeeded)."""

    hit_ids: tuple[int, ...]

    def release(self) -> None:
        LimitHit.objects.filter(pk__in=self.hit_ids).delete()


def rule(name: str) -> tuple[int, int]:
    """(most uses, window in seconds) of a rule."""
    return settings.TOPOS_RATE_LIMITS[name]


def _digest(name: str, key: str) -> str:
    # Keyed, so the table holds no address, name or email in clear and cannot be reversed by guessing.
    return salted_hmac("accounts.limits", f"{name}\0{key.strip().casefold()}", algorithm="sha256").hexdigest()


def _refusal(name: str, digest: str, now, *, counted_self: bool) -> Refusal | None:
    most, window = rule(name)
    allowed = most + 1 if counted_self else most
    times = list(
        LimitHit.objects.filter(rule=name, key=digest, created_at__gt=now - timedelta(seconds=window))
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:allowed]
    )
    if len(times) < allowed:
        return None
    # One more use is allowed once the `most`-th newest use has left the window.
    freed = times[most - 1] + timedelta(seconds=window)
    return Refusal(name, max(1, math.ceil((freed - now).total_seconds())))


def _first_refusal(uses, now, *, counted_self: bool) -> Refusal | None:
    refusals = [r for r in (_refusal(n, d, now, counted_self=counted_self) for n, d in uses) if r is not None]
    return max(refusals, key=lambda r: r.retry_after, default=None)


def take(uses) -> Grant | Refusal:
    """Count one use against each (rule, key); if any rule has run out, count nothing and refuse.

    An empty key (e.g. no client address, as in a shell) is not counted.
    """
    uses = [(name, _digest(name, key)) for name, key in uses if key]
    now = timezone.now()
    refusal = _first_refusal(uses, now, counted_self=False)
    if refusal is not None:
        return refusal
    hits = LimitHit.objects.bulk_create([LimitHit(rule=name, key=digest, created_at=now) for name, digest in uses])
    grant = Grant(tuple(h.pk for h in hits))
    # Counted again with our own rows: of requests racing past the first look, the late ones step back.
    refusal = _first_refusal(uses, now, counted_self=True)
    if refusal is not None:
        grant.release()
        return refusal
    return grant


def clear(name: str, key: str) -> int:
    """Forget every use of one key (a successful login or a password reset lifts an account's lock)."""
    return LimitHit.objects.filter(rule=name, key=_digest(name, key)).delete()[0]


def limit_hits_purge(*, now=None) -> int:
    """Delete the uses that no window counts any more; returns how many."""
    now = now or timezone.now()
    removed = 0
    for name, (_most, window) in settings.TOPOS_RATE_LIMITS.items():
        removed += LimitHit.objects.filter(rule=name, created_at__lte=now - timedelta(seconds=window)).delete()[0]
    longest = max((w for _m, w in settings.TOPOS_RATE_LIMITS.values()), default=0)
    # Rules since removed from the settings.
    removed += (
        LimitHit.objects.exclude(rule__in=list(settings.TOPOS_RATE_LIMITS))
        .filter(created_at__lte=now - timedelta(seconds=longest))
        .delete()[0]
    )
    return removed


def client_address(request) -> str:
    """The client's address as the rules count it: behind TOPOS_TRUSTED_PROXIES proxies, the address
    the first of them saw; an IPv6 address by its /64 network (one subscriber's usual share)."""
    address = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TOPOS_TRUSTED_PROXIES
    if proxies:
        chain = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
        if len(chain) >= proxies:
            address = chain[-proxies]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
