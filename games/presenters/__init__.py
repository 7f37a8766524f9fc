"""Per-game presentation: turn a seat's view and legal actions into what a board template draws.

Each game has a module `games/presenters/<game>.py` with a `present(detail, names)` function
returning a dict for its template `games/<game>/board.html`.  A game without a module gets the
generic fallback (the view shown readably, one button per legal action).

Everything else the site says or draws of one game lives beside it, found by `game_module(kind, role)`:
`<game>_words.py` (log lines, refusals, what the game is and how it scores) and `<game>_diagrams.py` (the
positions of its How to play page: each reached by applying legal actions to a new game from a fixed seed, so
it is exactly what a table would show, nothing drawn by hand; the engine work is cached per process, the
presenter runs on every request because its labels follow the reader's language).  No other module of the site
names a game (tests/test_game_names_stay_home.py).
"""

from __future__ import annotations

import importlib

from engine.core import all_games

from . import generic


def game_module(kind: str, role: str):
    """The module `games/presenters/<kind>_<role>.py` of the registered game `kind` (role: "words",
    "diagrams"), or None when the game is not registered or has no such module."""
    if kind not in all_games():
        return None
    name = f"{__name__}.{kind}_{role}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def presenter_for(kind: str):
    """The presenter module of game `kind`, or the generic one."""
    try:
        return importlib.import_module(f"{__name__}.{kind}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{kind}":
            raise
        return generic


def board_template(kind: str) -> list[str]:
    """Templates to try for the board of game `kind`, most specific first."""
    return [f"games/{kind}/board.html", "games/generic/board.html"]


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
