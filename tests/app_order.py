"""The site's apps in their order (docs/architecture.md, decision 25): an app imports only the apps to its left.
Apps of one rank (a tuple) import none of each other.  config's helper modules (config.env, config.celery,
config.redis_clients, monitoring) come right after the engine, so any app may use them; the engine imports no site
app at all.  Read by the import test (tests/test_site_import_graph.py) and the mirror test
(tests/test_tests_mirror_code.py)."""

from __future__ import annotations

ORDER: list[str | tuple[str, ...]] = [
    "engine",
    "config",
    "accounts",
    "boards",
    "games",
    "ratings",
    "feed",
    "notifications",
    "chat",
    "tournaments",
    ("sandbox", "notes", "outbound"),
]
RANK = {app: rank for rank, entry in enumerate(ORDER) for app in (entry if isinstance(entry, tuple) else (entry,))}
# Every app package, in order (config is the composition root's package, not an app of features).
APP_PACKAGES = tuple(RANK)
