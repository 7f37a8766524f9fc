"""The site's packages import each other without cycles (decision 15), and its apps one way (decision 25).

The apps' order (docs/architecture.md): an app imports only the apps to its left.  Modules are read from the source,
imports inside functions included (tests/import_graph.py), so a late import hides nothing.
"""

from __future__ import annotations

import ast

from tests.app_order import APP_PACKAGES, RANK
from tests.import_graph import ROOT, a_loop, cycles, graph, modules

# Every package of the site (the engine has its own cycle test, tests/engine/test_engine_import_graph.py).
SITE = tuple(p for p in APP_PACKAGES if p != "engine" and (ROOT / p).is_dir())

# The composition root: settings, URLs, the ASGI/WSGI entries and the Celery app put every app together.
COMPOSITION_ROOT = {"config.settings", "config.testing", "config.production", "config.urls", "config.asgi"}
COMPOSITION_ROOT |= {"config.wsgi", "config.celery"}


def app_of(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in RANK else None


def imports_of_apps() -> list[tuple[str, str, str]]:
    """(file, importer module, imported module) for every import between two apps' modules."""
    present = [p for p in APP_PACKAGES if (ROOT / p).is_dir()]
    known = modules(*present)
    found = []
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = node.module if not node.level else ".".join(p for p in (base, node.module) if p)
                targets = [
                    f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module for alias in node.names
                ]
            else:
                continue
            for target in targets:
                found.append((str(path.relative_to(ROOT)), name, target))
    return found


def offences(rows: list[tuple[str, str, str]]) -> list[str]:
    out = []
    for file, importer, target in rows:
        mine, theirs = app_of(importer), app_of(target)
        if mine is None or theirs is None or mine == theirs or importer in COMPOSITION_ROOT:
            continue
        if RANK[theirs] >= RANK[mine]:
            out.append(f"{file}: import {target}  ({mine} -> {theirs})")
    return sorted(set(out))


def test_no_module_of_the_site_imports_itself_round_a_loop():
    edges = graph(*SITE)
    loops = [" -> ".join(a_loop(edges, group)) for group in cycles(edges)]
    assert not loops, "modules that import each other (also inside functions):\n" + "\n".join(loops)


def test_the_graph_sees_an_import_inside_a_function_and_a_relative_one():
    # The test above can only fail if the reader finds these; both kinds are in the tree today.
    edges = graph(*SITE)
    assert "games.selectors.spectating" in edges["games.services.move_rows"]  # inside locked_game_with_seats
    assert "games.selectors.vacation" in edges["games.selectors.tables"]  # `from . import vacation`
    assert "notifications.services" in edges["notifications.tasks"]  # `from . import services`
    assert "config.celery" in edges["notifications.receivers"]  # inside outbox_sweep


def test_a_loop_is_found_and_shown():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert a_loop(edges, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_every_app_imports_only_the_apps_before_it():
    found = offences(imports_of_apps())
    assert not found, (
        "imports of an app that comes later in the order (docs/architecture.md; a later app contributes through "
        "games.hooks, a registry of the earlier app, or a template tag library of its own):\n" + "\n".join(found)
    )


def test_the_order_check_sees_an_import_against_it_and_spares_the_composition_root():
    assert app_of("notifications.services") == "notifications"
    assert app_of("games.services.moves") == "games"
    assert app_of("outbound.models") == "outbound"
    assert app_of("django.db") is None
    rows = imports_of_apps()
    # config.urls puts every app's URLs together: it imports later apps, and is no offence.
    assert any(importer == "config.urls" and app_of(target) == "outbound" for _f, importer, target in rows)
    assert not any(line.startswith("config/urls.py") for line in offences(rows))
    # One import against the order among the real ones is named, file and apps; one within an app, or leftwards, not.
    planted = ("games/services/moves.py", "games.services.moves", "notifications.services")
    assert offences([*rows, planted]) == [
        "games/services/moves.py: import notifications.services  (games -> notifications)"
    ]
    assert offences([("chat/views.py", "chat.views", "games.models"), ("chat/a.py", "chat.a", "chat.b")]) == []
