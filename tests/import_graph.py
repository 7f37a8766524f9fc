"""The import graph of the project's own modules, read from the source (decision 15: no module cycles).

Every import counts, also one inside a function: such an import only hides a cycle from Python, not from the
person who has to understand the two modules together.  `from . import x` counts as an import of the module x,
not of the package, so a package's __init__ re-exporting its modules is no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(*packages: str) -> dict[str, Path]:
    """Dotted name -> file of every module under the given top-level packages (migrations left out)."""
    found = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    base = node.module if not node.level else ".".join(part for part in (package, node.module) if part)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]


def graph(*packages: str) -> dict[str, set[str]]:
    """Module -> the project modules it imports (the innermost known module of each imported name)."""
    known = modules(*packages)
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(name, path, node, known):
                    while target and target not in known:
                        target = target.rpartition(".")[0]
                    if target and target != name:
                        found.add(target)
        edges[name] = found
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a longer loop (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(edges[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return groups


def a_loop(edges: dict[str, set[str]], group: list[str]) -> list[str]:
    """One concrete loop inside a group, to print: start at its first module and follow imports back to it."""
    members = set(group)
    path = [group[0]]
    seen = {group[0]}
    while True:
        nxt = sorted(edges[path[-1]] & members)
        back = [m for m in nxt if m == group[0]]
        if back and len(path) > 1:
            return path + [group[0]]
        fresh = [m for m in nxt if m not in seen]
        if not fresh:
            return path + [nxt[0]] if nxt else path
        path.append(fresh[0])
        seen.add(fresh[0])
