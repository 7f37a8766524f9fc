"""Channels beside the site, email and the digest (decision 29): Web Push and webhooks, kept in the `outbound` app.

The notifications app knows nothing of them but what they register here: which recipients want an event on which
channel (`wanted`), and how to send one delivery once it is due (`channel(name).send`).  A channel's delivery is a
`NotificationDelivery` like an email's, so it follows the same rules (ruling S6): it is due after a turn's grace and
outside her quiet hours, it is marked `seen` and never sent when she has seen the event by then, and it is made moot
with the notice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Channel:
    name: str  # NotificationDelivery.Channel's value
    # Sends one due delivery (after the S6 checks); raises to have it retried by the sweep.
    send: Callable[[object], None]


@dataclass(frozen=True)
class Wants:
    """Who wants what on some channels, read in the notifications app's one query of the recipients (the effects
    dispatch counts its statements, decision 16): `annotations()` are added to that query of User rows, `columns` are
    read from it (after the recipient's id), and `decide(pairs, rows)` answers {channel name: the (recipient id,
    kind) pairs among `pairs` that want the event on it}.  A recipient may come in several rows (joins)."""

    annotations: Callable[[], dict]
    columns: tuple[str, ...]
    decide: Callable[[set, list[tuple]], dict[str, set[tuple[int, str]]]]


_channels: dict[str, Channel] = {}
_providers: list[Wants] = []


def register(channels: list[Channel], wants: Wants) -> None:
    for c in channels:
        _channels[c.name] = c
    if wants not in _providers:
        _providers.append(wants)


def providers() -> list[Wants]:
    return list(_providers)


def wanted(providers: list[Wants], pairs: set[tuple[int, str]], rows: list[tuple]) -> dict[str, set]:
    """{channel name: the pairs that want the event on it}, from the rows read (recipient id, then each provider's
    columns in turn); channels nobody wants left out."""
    out: dict[str, set[tuple[int, str]]] = {}
    at = 1
    for p in providers:
        own = [(row[0], *row[at : at + len(p.columns)]) for row in rows]
        at += len(p.columns)
        for name, chosen in p.decide(pairs, own).items():
            if chosen:
                out.setdefault(name, set()).update(chosen)
    return out


def channel(name: str) -> Channel | None:
    return _channels.get(name)
