"""Bot levels as data: how long a live bot waits and its thinking budget.

The site words each level (games.engine_texts: the label is the msgid of its name, the description is
keyed by the level), as the engine holds no sentences (issue 13).
"""
from __future__ import annotations

import copy

from .base import Budget

# delay_seconds: the human-like reaction time of a bot at a live Toppo table (ruling P3), drawn
# uniformly in [lo, hi] before each action; stronger bots react faster, as stronger players do.
# budget: Budget fields; budget_by_game overrides them per game (tuned with bench/bench_bots.py).
LEVELS: dict[str, dict] = {
    "random": {
        "label": "Random",
        "delay_seconds": (2.5, 5.0),
        "budget": {},
        "budget_by_game": {},
    },
    "greedy": {
        "label": "Greedy",
        "delay_seconds": (1.5, 3.0),
        "budget": {"samples": 1, "max_candidates": 48},
        "budget_by_game": {},
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
        "budget": {"search": "halving", "iterations": 192, "seconds": 10.0, "plans": 8, "horizon": 2,
                   "rollout_greedy": 1.0, "rollout_candidates": 16, "max_candidates": 48},
        "budget_by_game": {
            # Most of a turn's points come from rings its own three tiles build together, so 96
            # candidate placements are each followed to the end of the turn (greedy follows its best
            # 6 of 48); the best plans then meet the rival's ring-seeking reply (engine/topology/hints.py), and
            # one replaces the best-planned turn only on clear evidence (margin): the reply is so
            # noisy that the best of several challengers often looks better than it is.
            "topology": {"horizon": 2, "plans": 12, "iterations": 288, "refine": 96, "max_candidates": 96,
                         "margin": 0.15},
            # Cheap to simulate: look one turn further, so moles placed now are valued by the lines
            # they make next turn, and end-of-game bonuses count (engine/topoum/hints.py, outlook).
            "topoum": {"horizon": 3, "iterations": 256},
            # Most claims are obvious; what greedy cannot see is where the lines that went under the
            # decks (public, decks_seen) come back: a match or a renew regroups the next lines, a top
            # decides which known line meets the new display.  Look eight rounds ahead (two seats:
            # sixteen decisions).  A finished match is scored by the penalty lead alone
            # (result_weight 0), like a running one.
            "toppo": {"horizon": 16, "iterations": 256, "margin": 0.0, "result_weight": 0.0},
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
