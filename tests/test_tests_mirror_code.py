"""The tests mirror the code (decision 15): a test sits with what it tests, so whoever changes an app finds its
tests in tests/<app>/ and nowhere else.  Four checks, each failing with the list of what is out of place:
(a) every service module has a test module at the mirrored place that imports it; (b) every test file sits in
tests/<app>/, in a declared channel folder, or at tests/ top level; (c) a test in tests/<app>/ calls <app>'s code
(or runs its migrations, or reads its source) or requests one of its pages, not only reads its models after driving
another app; (d) every API endpoint is requested by some test."""

from __future__ import annotations

import ast
import importlib.util
import re
from functools import cache
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

from tests.app_order import APP_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

APPS = tuple(a for a in APP_PACKAGES if a != "config")  # config's tests are a channel folder (below)

# Folders that test a channel across the apps rather than one app; a test there may test any app.
CHANNELS = {
    "api": "the API's promises: schema, errors, parity, limits",
    "web": "pages as a browser without JavaScript gets them",
    "browser": "a real browser",
    "integration": "real worker processes, brokers and databases",
    "deploy": "the installed and served site",
    "config": "the composition root and its settings (config/)",
    "engine": "the rules engines, engine/ mirrored inside",
}

# Service modules with nothing to test on their own.  Each entry says why; keep it short.
UNTESTED_SERVICES: dict[str, str] = {}

# Tests in tests/<app>/ that drive an earlier app and only read what <app> did (its rows, its mails).  Each entry
# says why it belongs with <app>; any other test that calls no code of <app> tests the app it drives and sits there.
OBSERVERS: dict[str, str] = {
    "tests/notifications/test_notify_at_the_board.py": "decision 9: who is at the board is neither mailed nor noted",
    "tests/notifications/test_notify_in_bulk.py": "counts the statements of the notices a move's effects task makes",
    "tests/ratings/test_rating_history.py": "the ratings a player's page and API answer show after rated games",
    "tests/ratings/test_rating_leavers.py": "the rating a finished game gives a seat that left (ruling S5)",
    "tests/feed/test_event_writes.py": "the feed's rows as a move's effects write them, once each",
}


def app_of(module: str) -> str | None:
    """The app a dotted module belongs to (its top-level package), or None outside the site."""
    top = module.split(".", 1)[0]
    return top if top in APPS else None


def all_test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


@cache
def source_of(path: Path) -> str:
    return path.read_text()


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


@cache
def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def modules_used(source: str) -> set[str]:
    """The modules a test file imports: `from a.b import c` is a.b.c when c is a module, else a.b."""
    used: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            used.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                used.add(full if is_module(full) else node.module)
    return used


# (a) ------------------------------------------------------------------------------------------------------------


def service_modules() -> dict[str, tuple[str, bool]]:
    """Dotted name -> (app, in a services package of that app's own) of every service module of the site."""
    found = {}
    for package in sorted(APPS):
        folder = ROOT / package
        if not (folder / "__init__.py").exists():
            continue
        for path in [*folder.rglob("services.py"), *folder.rglob("services/*.py")]:
            if "migrations" in path.parts or path.name == "__init__.py":
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            app = app_of(name)
            owner = ".".join(name.split(".")[:-1])
            in_package = path.parent.name == "services" and app_of(owner) == app
            found[name] = (app, in_package)
    return found


def test_every_service_module_has_a_test_module_at_the_mirrored_place_that_imports_it():
    missing = []
    for name, (app, in_package) in sorted(service_modules().items()):
        if name in UNTESTED_SERVICES:
            continue
        if in_package:
            place = TESTS / app / "services" / f"test_{name.rsplit('.', 1)[1]}.py"
            candidates = [place] if place.exists() else []
            wanted = str(place.relative_to(ROOT))
        else:
            candidates = sorted((TESTS / app).glob("test_*.py"))
            wanted = f"tests/{app}/test_services.py (or another tests/{app}/test_*.py)"
        if not any(name in imported_modules(source_of(path)) for path in candidates):
            missing.append(f"{name}: {wanted} importing it")
    assert not missing, "service modules with no test module at their mirrored place:\n" + "\n".join(missing)


def test_the_service_allowance_names_service_modules():
    assert set(UNTESTED_SERVICES) <= set(service_modules()), "the allowance names a module that no longer exists"


# (b) ------------------------------------------------------------------------------------------------------------


def test_every_test_file_sits_with_an_app_or_in_a_declared_channel_folder():
    stray = [
        str(path.relative_to(ROOT))
        for path in all_test_files()
        if path.parent != TESTS and path.relative_to(TESTS).parts[0] not in {*APPS, *CHANNELS}
    ]
    assert not stray, (
        "test files outside tests/<app>/ and the channel folders (" + ", ".join(sorted(CHANNELS)) + "):\n"
    ) + "\n".join(stray)


# (c) ------------------------------------------------------------------------------------------------------------


def named_urls(patterns, namespace: str = "") -> dict[str, str]:
    """URL name (with its namespaces) -> module of its view."""
    out = {}
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            out.update(named_urls(pattern.url_patterns, inner))
        elif isinstance(pattern, URLPattern) and pattern.name:
            out[namespace + pattern.name] = view_module(pattern.callback)
    return out


def view_module(callback) -> str:
    view = getattr(callback, "view_class", None) or getattr(callback, "cls", None) or callback
    return view.__module__


def requested_paths(source: str) -> set[str]:
    """The site paths a test names: "/x/", f"/tables/{game.pk}/" (each placeholder read as 1), reverse("name")."""
    paths: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        text = None
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "1" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        if text and text.startswith("/") and not text.startswith("//"):
            paths.add(re.split(r"[?#\s]", text, maxsplit=1)[0])
    return paths


def reversed_names(source: str) -> set[str]:
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) in {"reverse", "reverse_lazy"}
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def commands_called(source: str) -> set[str]:
    """The modules of the management commands a test runs with call_command("name")."""
    names = {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) == "call_command"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    return {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in names
        for path in [*ROOT.glob(f"*/management/commands/{name}.py"), *ROOT.glob(f"*/*/management/commands/{name}.py")]
    }


def apps_requested(source: str) -> set[str]:
    """The apps whose views serve the pages and endpoints a test file requests, or whose commands it runs."""
    from django.urls import Resolver404, resolve

    apps = set()
    for path in requested_paths(source):
        try:
            apps.add(app_of(view_module(resolve(path).func)))
        except Resolver404:
            continue
    names = named_urls(get_resolver().url_patterns)
    apps.update(app_of(names[name]) for name in reversed_names(source) if name in names)
    apps.update(app_of(module) for module in commands_called(source))
    return apps


def calls_app(source: str, app: str) -> bool:
    """The test imports a module of `app` other than its models (a service, selector, task, view, helper), runs
    `app`'s migrations by name (a ("<app>", "<migration>") pair), or reads `app`'s source (tests/import_graph.py)."""
    if any(app_of(module) == app and "models" not in module.split(".") for module in modules_used(source)):
        return True
    tree = ast.parse(source)
    if any(
        isinstance(node, ast.Tuple)
        and len(node.elts) == 2
        and isinstance(node.elts[0], ast.Constant)
        and node.elts[0].value == app
        and isinstance(node.elts[1], ast.Constant)
        and (node.elts[1].value is None or isinstance(node.elts[1].value, str))
        for node in ast.walk(tree)
    ):
        return True
    reads_source = "tests.import_graph" in modules_used(source)
    return reads_source and any(isinstance(n, ast.Constant) and n.value == app for n in ast.walk(tree))


def test_a_test_in_an_apps_folder_calls_that_app_or_requests_its_pages():
    wrong = []
    for path in all_test_files():
        folder = path.relative_to(TESTS).parts[0]
        if path.parent == TESTS or folder in CHANNELS:
            continue
        name = str(path.relative_to(ROOT))
        source = source_of(path)
        if calls_app(source, folder) or folder in apps_requested(source):
            continue
        if name in OBSERVERS:
            continue
        drives = sorted({app_of(m) for m in modules_used(source)} - {None, folder, "engine", "accounts"})
        wrong.append(f"{name}: calls no code of {folder} (it drives {', '.join(drives) or 'nothing of the site'})")
    assert not wrong, "tests that do not test the app whose folder they sit in:\n" + "\n".join(wrong)


def test_the_rule_tells_a_clock_test_in_notifications_from_one_that_calls_notifications():
    # A test that drives games' clocks and only reads notification rows does not call notifications' code: it
    # belongs in tests/games/ (where tests/notifications/test_toppo_clock.py went).
    clock_test = "from games.services.clock import restart_clocks\nfrom notifications.models import Notification\n"
    assert not calls_app(clock_test, "notifications") and calls_app(clock_test, "games")
    assert calls_app("from notifications.services import notification_create\n", "notifications")


def test_the_observer_allowance_names_test_files():
    assert all((ROOT / name).exists() for name in OBSERVERS), "the allowance names a test file that no longer exists"


# (d) ------------------------------------------------------------------------------------------------------------


def endpoints(patterns, prefix: str = "") -> list[tuple[str, str]]:
    """(route, view module) of every endpoint under /api/."""
    out = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            out += endpoints(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            out.append((prefix + str(pattern.pattern), view_module(pattern.callback)))
    return out


def route_regex(route: str) -> re.Pattern:
    """`tables/<int:pk>/leave/` as it appears in a test: /api/tables/7/leave/, f"/api/tables/{game.pk}/leave/"."""
    parts = re.split(r"<[^>]+>", route)
    return re.compile(r"/api/" + r"(?:\{[^}]*\}|[^/\s\"'{}]+)".join(map(re.escape, parts)) + r"(?:[?\"']|$)", re.M)


def test_every_api_endpoint_is_requested_by_a_test():
    sources = "\n".join(source_of(path) for path in TESTS.rglob("*.py"))
    missing = [
        f"{module}: /{route}"
        for route, module in endpoints(get_resolver().url_patterns)
        if route.startswith("api/") and not route_regex(route.removeprefix("api/")).search(sources)
    ]
    assert not missing, "endpoints no test requests (add a test in tests/api/):\n" + "\n".join(missing)
