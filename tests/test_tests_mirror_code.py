"""The tests mirror the code (issue 15): every write service in games/services/ has a test module that imports
it, and every endpoint of games/api/urls.py is requested by some test.  Fails with the list of what is missing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.urls import URLPattern, URLResolver

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
SERVICES = ROOT / "games" / "services"

# Service modules with nothing to test on their own.  Each entry says why; keep it short.
UNTESTED_SERVICES: dict[str, str] = {
    "__init__": "re-exports the services under their package name; it holds no code",
}


def sources_of_tests() -> dict[Path, str]:
    return {path: path.read_text() for path in TESTS.rglob("*.py")}


def imported_modules(source: str) -> set[str]:
    """Every module a test file imports, with `from a.b import c` counted as a.b and as a.b.c (c may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_every_service_module_has_a_test_module_that_imports_it():
    imported = set().union(*(imported_modules(source) for source in sources_of_tests().values()))
    modules = sorted(path.stem for path in SERVICES.glob("*.py"))
    missing = [m for m in modules if f"games.services.{m}" not in imported and m not in UNTESTED_SERVICES]
    assert not missing, "service modules no test imports (add tests/games/services/test_<module>.py): " + ", ".join(
        missing
    )
    assert set(UNTESTED_SERVICES) <= set(modules), "the allowance names a module that no longer exists"


def endpoints(patterns, prefix: str = "") -> list[tuple[str, str]]:
    """(route, view module) of every endpoint under /api/."""
    out = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            out += endpoints(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "view_class", pattern.callback)
            out.append((prefix + str(pattern.pattern), view.__module__))
    return out


def route_regex(route: str) -> re.Pattern:
    """`tables/<int:pk>/leave/` as it appears in a test: /api/tables/7/leave/, f"/api/tables/{game.pk}/leave/"."""
    parts = re.split(r"<[^>]+>", route)
    return re.compile(r"/api/" + r"(?:\{[^}]*\}|[^/\s\"'{}]+)".join(map(re.escape, parts)) + r"(?:[?\"']|$)", re.M)


def test_every_api_endpoint_is_requested_by_a_test():
    from games.api import urls

    sources = "\n".join(sources_of_tests().values())
    missing = [
        f"{module}: /api/{route}"
        for route, module in endpoints(urls.urlpatterns)
        if not route_regex(route).search(sources)
    ]
    assert not missing, "endpoints no test requests (add a test in tests/api/):\n" + "\n".join(missing)
