"""Bot levels as data: how long a live bot waits and its thinking budget.

The site words each level (games.engine_texts: the label is the msgid of its name, the description is
keyed by the level), as the engine holds no sentences (issue 13).
"""

from __future__ import annotations

import copy

from engine.core import get_game

from .base import Budget
from .hints import hints_for

# delay_seconds: the human-like reaction time of a bot at a live Toppo table (ruling P3), drawn
# uniformly in [lo, hi] before each action; stronger bots react faster, as stronger players do.
# budget: Budget fields; a game's own hints may override them per level (Hints.budgets in
# engine/<game>/hints.py, tuned with bench/bench_bots.py), so no game is named here.
LEVELS: dict[str, dict] = {
    "random": {
        "label": "Random",
        "delay_seconds": (2.5, 5.0),
        "budget": {},
    },
    "greedy": {
        "label": "Greedy",
        "delay_seconds": (1.5, 3.0),
        "budget": {"samples": 1, "max_candidates": 48},
    },
    "strong": {
        "label": "Strong",
        "delay_seconds": (0.8, 1.8),
        # Root Sequential Halving over determinised playouts (engine.bots.search.HalvingSearch):
        # the greedy ranking's best `plans` first actions, `iterations` playouts shared among
        # them, each finishing the bot's turn and letting the rivals reply greedily, scored
        # `horizon` turns ahead; `seconds` caps the wall-clock time of the whole decision (sampling
        # and ranking included).  Playout counts doubled when playouts stopped re-checking the legal
        # actions (State.apply_legal, issue 16): bench/bench_bots.py --speed shows what a decision costs.
        "budget": {
            "search": "halving",
            "iterations": 192,
            "seconds": 10.0,
            "plans": 8,
            "horizon": 2,
            "rollout_greedy": 1.0,
            "rollout_candidates": 16,
            "max_candidates": 48,
        },
    },
}


def levels() -> dict[str, dict]:
    """Every level's settings, as plain data the site can show and store."""
    return copy.deepcopy(LEVELS)


def budget_for(level: str, game_name: str | None = None, **overrides) -> Budget:
    """The level's budget for `game_name` (its hints' own settings for the level over the level's), with any
    explicit overrides applied last."""
    if level not in LEVELS:
        raise ValueError(f"There is no bot level called '{level}'; try one of: {', '.join(LEVELS)}.")
    settings = dict(LEVELS[level]["budget"])
    if game_name:
        settings.update(hints_for(get_game(game_name)).budgets.get(level, {}))
    settings.update({k: v for k, v in overrides.items() if v is not None})
    return Budget.from_dict(settings)
