"""The engine's modules import one another without a cycle, and nothing of the site (issue 15).

The graph is read from the source with `ast`, imports at any level included (an import inside a
function is still a dependency: hiding a cycle there does not remove it).  Nothing is imported.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
SITE_PACKAGES = ("django", "games", "accounts", "config")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def imported_names(path: Path, module: str, modules: dict[str, Path]) -> set[str]:
    """Every module an import statement of `path` names, made absolute; "from pkg import module" names
    the module, not the package (its __init__ is not what the importer uses)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                names.add(submodule if submodule in modules else origin)
    return names


def import_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports (a package's __init__ counts as the package)."""
    modules = engine_modules()
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in imported_names(path, name, modules):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None (depth-first search, three colours)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_engine_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_every_game_package_is_read():
    graph = import_graph()
    for game in ("topoum", "toppo", "topology"):
        assert f"engine.{game}" in graph
    assert "engine.topoum.rules" in graph["engine.topoum.state"]


def test_the_engine_imports_nothing_of_the_site():
    offending = []
    modules = engine_modules()
    for name, path in modules.items():
        for imported in imported_names(path, name, modules):
            if imported.split(".")[0] in SITE_PACKAGES:
                offending.append(f"{name} imports {imported}")
    assert offending == []
