"""What later apps add to her profile page: a registry of parts, each a function of the user (as data_export's
sections are).

Accounts comes first in the apps' order (docs/architecture.md) and imports none of the later apps; the profile
shows her tables and her vacation all the same: games registers a part from its AppConfig.ready, and the profile
template includes that app's templates by name.
"""

from __future__ import annotations

from collections.abc import Callable

PARTS: list[Callable] = []


def part(fn: Callable) -> Callable:
    """Register fn(user) -> a dict of template context for the profile page (registering it twice adds it once)."""
    if fn not in PARTS:
        PARTS.append(fn)
    return fn


def parts_context(user) -> dict:
    """Every registered part's context for `user`, one dict."""
    context: dict = {}
    for fn in PARTS:
        context.update(fn(user))
    return context
