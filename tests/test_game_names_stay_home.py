"""Nothing outside a game's own homes names a game (decision 15, point 1).

A game's knowledge lives in `engine/<game>/` (its rules) and `boards/<game>/` (its site side: presenter, words,
diagrams, templates, script, styles); everything else asks the registries (`engine.core.all_games()`,
`boards.registry`) and the capabilities `core.Game` declares (paces, pace_option, higher_is_better...).  This reads
every Python file of the project by its tokens, so comments and docstrings may name a game, but an identifier or a
string literal may not: that is code branching on a name, or words about one game kept away from it.  Templates,
scripts and stylesheets are read line by line with their comments taken out: a template's `{% if game.kind ==
"..." %}`, a script's list of board classes or a stylesheet's rules for one game belong in that game's home.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

import boards
from engine.core import all_games

ROOT = Path(__file__).resolve().parent.parent
# Not the project's modules: its tests and benchmarks, generated migrations, the virtual environment, and the
# example API client (a program of someone else's, which has to name the game it plays).
SKIPPED_DIRS = {".venv", "venv", "node_modules", ".git", "migrations", "tests", "bench", "examples", "__pycache__"}
# Templates, scripts and stylesheets: also not the collected static copies, the docs, nor the catalogues.
SKIPPED_PAGE_DIRS = SKIPPED_DIRS | {"staticfiles", "docs", "locale", ".broker"}
PAGE_SUFFIXES = {".html", ".js", ".css"}
# Templates, scripts and stylesheets: also not the collected static copies, the docs, nor the catalogues (words
# translated per game are the translators' business, not code's).
SKIPPED_PAGE_DIRS = SKIPPED_DIRS | {"staticfiles", "docs", "locale", ".broker"}
PAGE_SUFFIXES = {".html", ".js", ".css"}
# Mentions another piece of work is taking away (decision 15: the bots' per-game search budgets move beside each
# game's hints).  Remove the entry once it is gone; nothing may be added here.
TOLERATED: set[str] = set()  # none: every module outside a game's own packages keeps to capabilities
WORD_TOKENS = {tokenize.NAME, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def game_homes() -> set[Path]:
    """Each registered game's homes: its engine package and its site side in boards/."""
    engines = {Path(sys.modules[type(game).__module__].__file__).parent for game in all_games().values()}
    sites = {Path(boards.__file__).parent / name for name in all_games()}
    return engines | sites


def project_modules() -> list[Path]:
    homes = game_homes()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if SKIPPED_DIRS & set(relative.parts[:-1]):
            continue
        if any(home in path.parents for home in homes):
            continue
        found.append(path)
    return found


def project_pages() -> list[Path]:
    """The templates, scripts and stylesheets of the project outside the games' homes (vendored scripts left out)."""
    homes = game_homes()
    found = []
    for path in sorted(ROOT.rglob("*")):
        relative = path.relative_to(ROOT)
        if path.suffix not in PAGE_SUFFIXES or path.name.endswith(".min.js") or not path.is_file():
            continue
        if SKIPPED_PAGE_DIRS & set(relative.parts[:-1]) or any(home in path.parents for home in homes):
            continue
        found.append(path)
    return found


# What a page's comments look like, per kind of file (a script's `//` only at a line's start or after a space, so
# an address's "http://" stays code).
COMMENTS = {
    ".html": [r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", r"\{#.*?#\}", r"<!--.*?-->", r"/\*.*?\*/"],
    ".js": [r"/\*.*?\*/", r"(?:^|(?<=\s))//[^\n]*"],
    ".css": [r"/\*.*?\*/"],
}


def page_mentions(path: Path, names: set[str]) -> list[str]:
    """ "file:line: text" for every line of a template, script or stylesheet that names a game outside a comment."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for pattern in COMMENTS[path.suffix]:
        # Blank the comment but keep its newlines, so the lines reported are the file's.
        text = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return [
        f"{path}:{number}: {line.strip()[:80]}"
        for number, line in enumerate(text.splitlines(), 1)
        if any(name in line.lower() for name in names)
    ]


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
    assert {"engine/core.py", "games/services/tables.py", "games/forms.py", "boards/registry.py"} <= modules
    assert not any(m.startswith(("tests/", "bench/")) or "/migrations/" in m for m in modules)
    for name in all_games():
        assert not any(m.startswith((f"engine/{name}/", f"boards/{name}/")) for m in modules)


def test_the_page_scan_reads_templates_scripts_and_styles_but_not_the_games_homes():
    pages = {str(p.relative_to(ROOT)) for p in project_pages()}
    assert {"templates/base.html", "games/templates/games/table.html", "games/static/js/table.js"} <= pages
    assert {"games/static/css/site.css", "boards/templates/boards/generic/board.html"} <= pages
    assert not any(p.endswith(".min.js") or p.startswith(("tests/", "docs/")) for p in pages)
    for name in all_games():
        assert not any(p.startswith(f"boards/{name}/") for p in pages)


def test_the_page_scan_sees_markup_and_code_not_comments(tmp_path):
    page = tmp_path / "sample.html"
    page.write_text(
        '{% comment %}chess{% endcomment %}{# chess #}<!-- chess -->\n{% if kind == "chess" %}x{% endif %}\n',
        encoding="utf-8",
    )
    script = tmp_path / "sample.js"
    script.write_text('// chess\n/* chess */ const url = "http://x"; // chess\nboards(".chess");\n', encoding="utf-8")
    style = tmp_path / "sample.css"
    style.write_text("/* chess */\n.chess { color: red; }\n", encoding="utf-8")
    assert [line.split(":")[1] for line in page_mentions(page, {"chess"})] == ["2"]
    assert [line.split(":")[1] for line in page_mentions(script, {"chess"})] == ["3"]
    assert [line.split(":")[1] for line in page_mentions(style, {"chess"})] == ["2"]


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
        "or put the words in boards/<game>/words.py):\n" + "\n".join(found)
    )


def test_no_template_script_or_stylesheet_outside_a_game_names_a_game():
    names = {name.lower() for name in all_games()}
    found = [line.removeprefix(f"{ROOT}/") for path in project_pages() for line in page_mentions(path, names)]
    assert not found, (
        "A game is named in a template, script or stylesheet outside its home (read boards.registry through "
        "boards' template tags, or move it into boards/<game>/):\n" + "\n".join(found)
    )
