"""Each game's site side, found by the engine's registry: what the rest of the site asks for a game.

A registered game `kind` has its home in `boards/<kind>/`, a small Django app of its own (label `board_<kind>`):

- `presenter.py`: `present(detail, names)` turns a seat's view and legal actions into what its board template
  draws (`boards/<kind>/board.html`).  A game without one gets the generic fallback (`boards/generic.py`: the view
  shown readably, one button per legal action);
- `words.py` (log lines, refusals, what the game is and how it scores), `diagrams.py` (the positions of its How
  to play page: each reached by applying legal actions to a new game from a fixed seed, so it is exactly what a
  table would show, nothing drawn by hand; the engine work is cached per process, the presenter runs on every
  request because its labels follow the reader's language), `option_words.py` (its option labels and values for
  makemessages), and whatever else it keeps there (found by `game_module(kind, role)`);
- its templates (`boards/<kind>/...`: the board, its rules pages `rules.<locale>.html`, their diagrams) and its
  static files (`boards/<kind>/board.js` for the table, `boards/<kind>/board.css`, and `boards/<kind>/options.js`
  when its create-table options need one).

No other module, template, script or stylesheet of the site names a game (tests/test_game_names_stay_home.py).
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from engine.core import all_games

from . import generic

GENERIC_BOARD = "boards/generic/board.html"
HOME = Path(__file__).resolve().parent


def game_module(kind: str, role: str):
    """The module `boards/<kind>/<role>.py` of the registered game `kind` (role: "words", "diagrams",
    "breakdown"...), or None when the game is not registered or has no such module."""
    if kind not in all_games():
        return None
    return _module(kind, role)


@cache
def _module(kind: str, role: str):
    # Kept per process: a game without such a module would otherwise search the import path for it on every
    # request that asks (Topology's and Toppo's move answers ask for a breakdown they have none of; decision 28).
    name = f"{__package__}.{kind}.{role}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, f"{__package__}.{kind}"):
            raise
        return None


def presenter_for(kind: str):
    """The presenter module of game `kind`, or the generic one."""
    return game_module(kind, "presenter") or generic


def board_template(kind: str) -> list[str]:
    """Templates to try for the board of game `kind`, most specific first."""
    return [f"boards/{kind}/board.html", GENERIC_BOARD]


def rules_templates(kind: str, locale: str) -> list[str]:
    """The How to play prose of `kind` in `locale` first, English when there is none in it."""
    return [f"boards/{kind}/rules.{locale}.html", f"boards/{kind}/rules.en.html"]


def script(kind: str) -> str | None:
    """The static path of the table script of game `kind` (loaded after table.js), None when it has none."""
    return f"boards/{kind}/board.js" if kind in board_kinds() else None


def form_script(kind: str) -> str | None:
    """The static path of the game's script for the create-table form (which option shows when), None without one."""
    path = f"{__package__}/{kind}/options.js"
    return path if (HOME / kind / "static" / path).is_file() else None


def form_scripts() -> list[str]:
    return [path for path in map(form_script, board_kinds()) if path]


def stylesheet(kind: str) -> str:
    """The static path of the board styles of game `kind` (every page loads them all: boards show up in rules
    pages, replays and sandboxes as well as at the table)."""
    return f"boards/{kind}/board.css"


def board_kinds() -> list[str]:
    """The registered games that have a home in boards/, in the registry's order."""
    return [kind for kind in all_games() if find_spec(f"{__package__}.{kind}") is not None]


def stylesheets() -> list[str]:
    return [stylesheet(kind) for kind in board_kinds()]


def present(kind: str, detail: dict, names: list[str]) -> dict:
    """The board context for game `kind` (only ever built from `detail`, the seat's view)."""
    return settled(presenter_for(kind).present(detail, names), detail)


# What a board offers the viewer to do now; off when she may not decide.
_MY_DECISIONS = ("my_turn", "can_call", "show_reveal", "i_restart")


def settled(board: dict, detail: dict) -> dict:
    """The site's facts over the engine's (ruling S1).

    A seat that left decides nothing more, though the engine may still name it (the bot
    plays it).  A finished game is over even when it ended early on a resignation and the
    engine never got there: nobody is deciding, and the ranks are the site's.
    """
    if detail.get("legal_actions") or detail.get("my_turn"):
        return board
    for key in _MY_DECISIONS:
        if key in board:
            board[key] = False
    if detail.get("status") != "finished":
        return board
    ranks = {s["index"]: s.get("rank") for s in detail.get("seats") or []}
    board.update(over=True, current_name=None, waiting_for=[], locked_by=None)
    for player in board.get("players") or []:
        player.update(current=False, rank=ranks.get(player.get("seat")) or player.get("rank"))
    return board
