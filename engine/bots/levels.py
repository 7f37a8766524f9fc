"""Bot levels as data: what the site shows, how long a live bot waits, and its thinking budget."""
from __future__ import annotations

import copy

from .base import Budget

# delay_seconds: the human-like reaction time of a bot at a live Toppo table (ruling P3), drawn
# uniformly in [lo, hi] before each action; stronger bots react faster, as stronger players do.
# budget: Budget fields; budget_by_game overrides them per game (tuned with bench/bench_bots.py).
LEVELS: dict[str, dict] = {
    "random": {
        "label": "Random",
        "description": "Plays any legal move. For learning the rules.",
        "delay_seconds": (2.5, 5.0),
        "budget": {},
        "budget_by_game": {},
    },
    "greedy": {
        "label": "Greedy",
        "description": "Takes the move that scores most right now.",
        "delay_seconds": (1.5, 3.0),
        "budget": {"samples": 1, "max_candidates": 48},
        "budget_by_game": {},
    },
    "strong": {
        "label": "Strong",
        "description": "Searches ahead with Monte Carlo tree search over what it cannot see.",
        "delay_seconds": (0.8, 1.8),
        "budget": {"iterations": 300, "seconds": 5.0, "max_candidates": 48, "horizon": 2,
                   "rollout_greedy": 0.0},
        "budget_by_game": {
            # The tree covers the bot's own turn (three placements); playouts play the rival's
            # turn with the ring-seeking policy of topology_hints, then the lead is scored.
            "topology": {"tree_turns": 1, "horizon": 2},
        },
    },
}


def levels() -> dict[str, dict]:
    """Every level's settings, as plain data the site can show and store."""
    return copy.deepcopy(LEVELS)


def budget_for(level: str, game_name: str | None = None, **overrides) -> Budget:
    """The level's budget for `game_name`, with any explicit overrides applied last."""
    if level not in LEVELS:
        raise ValueError(f"There is no bot level called '{level}'; try one of: {', '.join(LEVELS)}.")
    settings = dict(LEVELS[level]["budget"])
    settings.update(LEVELS[level]["budget_by_game"].get(game_name or "", {}))
    settings.update({k: v for k, v in overrides.items() if v is not None})
    return Budget.from_dict(settings)
