"""No module outside a game's own packages names a game (issue 15, point 1).

A game's knowledge lives in `engine/<game>/` (its rules) and `games/presenters/<game>*.py` (its words and
drawings); everything else asks the registry (`engine.core.all_games()`) and the capabilities `core.Game`
declares (paces, pace_option, higher_is_better...).  This reads every Python file of the project by its tokens,
so comments and docstrings may name a game, but an identifier or a string literal may not: that is code
branching on a name, or words about one game kept away from it.
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

from engine.core import all_games

ROOT = Path(__file__).resolve().parent.parent
# Not the project's modules: its tests and benchmarks, generated migrations, the virtual environment, and the
# example API client (a program of someone else's, which has to name the game it plays).
SKIPPED_DIRS = {".venv", "venv", "node_modules", ".git", "migrations", "tests", "bench", "examples", "__pycache__"}
# Mentions another piece of work is taking away (issue 15: the bots' per-game search budgets move beside each
# game's hints).  Remove the entry once it is gone; nothing may be added here.
TOLERATED: set[str] = set()  # none: every module outside a game's own packages keeps to capabilities
WORD_TOKENS = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def game_homes() -> tuple[set[Path], set[str]]:
    """Each registered game's engine package, and the names its presenter modules start with."""
    packages = {Path(sys.modules[type(game).__module__].__file__).parent for game in all_games().values()}
    return packages, set(all_games())


def project_modules() -> list[Path]:
    packages, names = game_homes()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if SKIPPED_DIRS & set(relative.parts[:-1]):
            continue
        if any(package in path.parents for package in packages):
            continue
        if relative.parts[:2] == ("games", "presenters") and any(relative.name.startswith(n) for n in names):
            continue
        found.append(path)
    return found


def docstring_starts(source: str) -> set[tuple[int, int]]:
    """Where the bare string statements (docstrings, and strings standing as comments) begin."""
    return {
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def mentions(path: Path, names: set[str]) -> list[str]:
    """ "file:line: token" for every identifier or string literal of `path` that holds a game's name."""
    source = path.read_text(encoding="utf-8")
    skipped = docstring_starts(source)
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in WORD_TOKENS or token.start in skipped:
            continue
        text = token.string.lower()
        if any(name in text for name in names):
            out.append(f"{path}:{token.start[0]}: {token.string[:80]}")
    return out


def test_the_scan_sees_identifiers_and_strings_not_comments_or_docstrings(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        '''"""The docstring names chess."""
# a comment names chess
def f(kind):
    """So does this one: chess."""
    chess_rules = 1
    return kind == "chess" or f"{kind}-chess" or chess_rules
''',
        encoding="utf-8",
    )
    found = [line.split(":")[-2] for line in mentions(module, {"chess"})]
    assert found == ["5", "6", "6", "6"]  # the identifier, its use, the literal and the f-string's text


def test_the_scan_reads_the_project_but_not_the_games_own_packages():
    modules = {str(p.relative_to(ROOT)) for p in project_modules()}
    assert {"engine/core.py", "games/services/tables.py", "games/forms.py", "games/presenters/__init__.py"} <= modules
    assert not any(m.startswith(("tests/", "bench/")) or "/migrations/" in m for m in modules)
    for name in all_games():
        assert not any(m.startswith((f"engine/{name}/", f"games/presenters/{name}")) for m in modules)


def test_no_module_outside_a_game_names_a_game():
    names = {name.lower() for name in all_games()}
    found = [
        line.removeprefix(f"{ROOT}/")
        for path in project_modules()
        if str(path.relative_to(ROOT)) not in TOLERATED
        for line in mentions(path, names)
    ]
    assert not found, (
        "A game is named outside its own packages (declare a capability on engine.core.Game, "
        "or put the words in games/presenters/<game>_words.py):\n" + "\n".join(found)
    )
