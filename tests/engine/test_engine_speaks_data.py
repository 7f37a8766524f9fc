"""The engine says what happened as data, never as English sentences (decision 13).

Log entries, refusals and prompts are codes with parameters; the site words them in each reader's
language (games/log_words.py, games/refusal_words.py, boards/<game>/words.py).  Two
checks: the source holds no sentence outside docstrings, comments and the few places whose words the
site translates by their English text (option labels and help: games/engine_texts.py; messages to
programmers: ValueError and the like); refused options are codes too (InvalidOptions, worded by
games/options_words.py), and so are bot levels (their descriptions are the site's, keyed by level);
and random games of every game give entries and refusals that are plain JSON with codes.
"""

from __future__ import annotations

import ast
import json
import pathlib
import re

import pytest

from engine.core import IllegalAction, InvalidOptions, all_games, make_rng

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
# Sentence-like: three words or more of letters (a code such as "toppo.not_top" has no space).
SENTENCE = re.compile(r"[A-Za-z]+[,;:]? [A-Za-z]+ [A-Za-z]+")
# Calls whose string arguments are words translated by their English text, or messages for programmers.
# InvalidOptions is not one of them: it carries a code and its facts (decision 13).
WORDED_CALLS = {"ValueError", "Option", "TypeError", "KeyError", "AssertionError", "RuntimeError"}
# Modules that run no game: a command-line check for programmers, and the JSON Schemas of the views, whose
# "description"s document the API for programmers (in English, like the rest of the OpenAPI schema).
WORDED_MODULES = {
    "verify.py",
    "schema_parts.py",
    "view_schemas.py",
    "topoum/view_schema.py",
    "toppo/view_schema.py",
    "topology/view_schema.py",
}
# Tables of proper names (cards, farmers): the site translates each by its English name (boards/topoum/presenter.py).
NAME_TABLES = {"CARDS", "FARMERS"}


def _docstrings(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _excused(tree) -> set[int]:
    """Constants inside calls listed in WORDED_CALLS (and inside f-strings given to them), and name tables."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in NAME_TABLES for t in targets):
                ids.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in WORDED_CALLS:
                ids.update(id(sub) for sub in ast.walk(node))
    return ids


def sentences_in_engine() -> list[str]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        rel = path.relative_to(ENGINE).as_posix()
        if rel in WORDED_MODULES:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        skip = _docstrings(tree) | _excused(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                if SENTENCE.search(node.value):
                    found.append(f"{rel}:{node.lineno}: {node.value[:60]!r}")
    return found


def test_the_engine_source_holds_no_sentences():
    assert sentences_in_engine() == []


def test_the_scan_finds_a_sentence_when_there_is_one(tmp_path, monkeypatch):
    """The scan is not blind: a refusal of a move or of options worded in English would be caught."""
    fake = tmp_path / "engine"
    fake.mkdir()
    (fake / "game.py").write_text(
        'raise IllegalAction("You cannot do that now.")\n'
        'raise InvalidOptions(f"Option {name} must be true or false.")\n'
    )
    (fake / "bots").mkdir()
    (fake / "bots" / "levels.py").write_text('LEVELS = {"random": {"description": "Plays any legal move."}}\n')
    monkeypatch.setattr(__import__(__name__), "ENGINE", fake)
    assert sentences_in_engine() == [
        "bots/levels.py:1: 'Plays any legal move.'",
        "game.py:1: 'You cannot do that now.'",
        "game.py:2: ' must be true or false.'",
    ]


@pytest.mark.parametrize(
    "name,players,options",
    [
        ("toppo", 9, {}),
        ("toppo", 3, {"hands": 0}),
        ("topology", 3, {"advanced": True}),
        ("topology", 2, {"colour": "red"}),
        ("topoum", 3, {"preset": "duel"}),
        ("topoum", 2, {"radius": "big"}),
        ("topoum", 2, {"deck": "custom", "types": ["grenade"] * 7}),
    ],
)
def test_refused_options_are_a_code_and_plain_json_facts(name, players, options):
    with pytest.raises(InvalidOptions) as err:
        all_games()[name].validate_options(players, options)
    assert CODE.match(err.value.code), err.value.code
    assert json.loads(json.dumps(err.value.params)) == err.value.params
    assert err.value.params["game"] == name


CODE = re.compile(r"^[a-z_]+(\.[a-z_]+)*$")


def _check_entry(entry, seat: int) -> None:
    assert isinstance(entry, list) and entry, "an entry is a non-empty list of phrases"
    assert json.loads(json.dumps(entry)) == entry, "an entry is plain JSON"
    for phrase in entry:
        assert isinstance(phrase, dict) and CODE.match(phrase["code"]), phrase


@pytest.mark.parametrize("name", ["toppo", "topology", "topoum"])
def test_random_games_log_and_refuse_in_codes(name):
    game = all_games()[name]
    state = game.new_state(2, game.validate_options(2, {}), 11)
    rng = make_rng("speaks-data", 0)
    for _ in range(400):
        seats = state.to_act()
        if not seats:
            break
        seat = seats[0]
        for bogus in ({"type": "fly"}, {"type": "end_turn", "now": 1}, {}):
            try:
                state.apply(seat, bogus)
            except IllegalAction as err:
                assert CODE.match(err.code), err.code
                assert json.loads(json.dumps(err.params)) == err.params
        action = rng.choice(state.legal_actions(seat))
        before = state.clone()
        state.apply(seat, action)
        _check_entry(state.describe(seat, action, before), seat)
