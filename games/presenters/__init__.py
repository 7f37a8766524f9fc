"""Per-game presentation: turn a seat's view and legal actions into what a board template draws.

Each game has a module `games/presenters/<game>.py` with a `present(detail, names)` function
returning a dict for its template `games/<game>/board.html`.  A game without a module gets the
generic fallback (the view shown readably, one button per legal action).
"""
from __future__ import annotations

import importlib

from . import generic


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
    return presenter_for(kind).present(detail, names)
