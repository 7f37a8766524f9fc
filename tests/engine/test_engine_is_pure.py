"""The rules never import Django, DRF or Celery (ARCHITECTURE: the engine stays pure)."""

import ast
import pathlib
import re

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "rest_framework", "celery", "games", "accounts", "config")


def test_engine_imports_no_framework():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(ENGINE.parent)}:{node.lineno} imports {name}")
    assert list(ENGINE.rglob("*.py")), "the engine package must exist"
    assert offenders == []


GLOBAL_RANDOM = re.compile(r"(?<![\w.])random\.(random|choice|choices|shuffle|randint|sample|seed|randrange|uniform)\(")


def test_engine_never_uses_the_global_random():
    """Every draw comes from the game's seeded generator (ruling G0.2)."""
    offenders = [
        f"{path.name}:{lineno}: {line.strip()}"
        for path in ENGINE.rglob("*.py")
        for lineno, line in enumerate(path.read_text().splitlines(), 1)
        if GLOBAL_RANDOM.search(line.split("#")[0])
    ]
    assert offenders == []
