"""Each game's site side in one home: `boards/<game>/` (its presenter, words, diagrams, templates, script and styles),
found through `boards.registry`; shared board code (the generic board, hex drawing, a few words) beside it.

In the apps' order boards sits right of engine and accounts and left of games: nothing here imports games.
"""

from __future__ import annotations

from importlib.util import find_spec


def installed_apps() -> list[str]:
    """The Django apps of the boards: the shared one, then one per registered game with a home here (config.settings
    lists them, so a game's templates and static files are found in its own folder)."""
    from engine.core import all_games  # no Django: safe to read while the settings load

    return ["boards"] + [f"boards.{kind}" for kind in all_games() if find_spec(f"boards.{kind}") is not None]
