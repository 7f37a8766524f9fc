"""Bot levels as data: how long a live bot waits and its thinking budget.

The site words each level (games.engine_texts: the label is the msgid of its name, the description is
keyed by the level), as the engine holds no sentences (decision 13).
"""

from __future__ import annotations

import copy

from engine.core import get_game

from .base import Budget
from .hints import hints_for

# delay_seconds: the human-like reaction time of a bot at a live Toppo table (ruling P3), drawn
# uniformly in [lo, hi] before each action; stronger bots react faster, as stronger players do.
# Calibrated against a person on the table page (decision 26, bench/bench_live_toppo.py): she clicks every
# 1-2 s and a claim the page found takes her one tap, so "beginner" waits longer than she does, "greedy"
# about as long, and "strong" less.  The worker adds its own latency (a task per decision).
# thinking_seconds (decision 26): per table pace, the wall-clock limit of the level's thinking, which holds on a loaded
# machine (every phase of a decision asks its deadline and the search plays its best so far): at a live pace it caps
# each decision (a live seat decides one thing at a time), by correspondence the bot's whole turn, played in one go
# (engine.bots.play_turn shares it among the turn's decisions).  People wait for it at a table of bots: two strong
# bots' turns keep a Topoum player's wait under 10 s on a loaded 2-core machine (bench/bench_bot_wait.py).
# None: no limit beyond the budget's own.
# budget: Budget fields; a game's own hints may override them per level (Hints.budgets in
# engine/<game>/hints.py, tuned with bench/bench_bots.py), so no game is named here.
LEVELS: dict[str, dict] = {
    "random": {
        "label": "Random",
        "delay_seconds": (2.5, 5.0),
        "thinking_seconds": {"live": None, "correspondence": None},
        "budget": {},
    },
    "beginner": {
        "label": "Beginner",
        "delay_seconds": (2.2, 3.6),
        "thinking_seconds": {"live": 1.0, "correspondence": 2.0},
        # Greedy's choice among fewer candidates, none followed to the end of the turn.
        "budget": {"samples": 1, "max_candidates": 8, "refine": 0},
    },
    "greedy": {
        "label": "Greedy",
        "delay_seconds": (1.0, 2.0),
        "thinking_seconds": {"live": 1.0, "correspondence": 2.0},
        "budget": {"samples": 1, "max_candidates": 48},
    },
    "strong": {
        "label": "Strong",
        "delay_seconds": (0.5, 1.1),
        "thinking_seconds": {"live": 2.0, "correspondence": 3.0},
        # Root Sequential Halving over determinised playouts (engine.bots.search.HalvingSearch):
        # the greedy ranking's best `plans` first actions, `iterations` playouts shared among
        # them, each finishing the bot's turn and letting the rivals reply greedily, scored
        # `horizon` turns ahead; `seconds` caps the wall-clock time of the whole decision (sampling
        # and ranking included).  Playout counts doubled when playouts stopped re-checking the legal
        # actions (State.apply_legal, decision 16): bench/bench_bots.py --speed shows what a decision costs.
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
    "expert": {
        "label": "Expert",
        "delay_seconds": (0.4, 0.9),
        "thinking_seconds": {"live": 4.0, "correspondence": 8.0},
        # Strong's search with four times the playouts and a longer time cap (decision 30, point 2); each game's
        # hints set its budget beside strong's.  It thinks up to twice strong's time, so a table of two expert bots
        # makes a person wait longer than decision 26's 10 s; the new-table form states each level's limits.
        # What it wins against strong: docs/bots.md (Topoum 79 of 100; Topology 83 of 127 with the game's turn
        # planner, search "plan", since more playouts bought nothing there; correspondence Toppo 82 of 100 once its
        # plan weighs proposing a new display; live Toppo 100 of 100).
        "budget": {},  # strong's, with more to spend (below)
    },
}
LEVELS["expert"]["budget"] = {**LEVELS["strong"]["budget"], "iterations": 768, "seconds": 20.0, "plans": 12}


def levels() -> dict[str, dict]:
    """Every level's settings, as plain data the site can show and store."""
    return copy.deepcopy(LEVELS)


def thinking_seconds(level: str, pace: str) -> float | None:
    """The level's wall-clock limit at a table of `pace` ("live": per decision; "correspondence": per turn)."""
    if level not in LEVELS:
        raise ValueError(f"There is no bot level called '{level}'; try one of: {', '.join(LEVELS)}.")
    return LEVELS[level].get("thinking_seconds", {}).get(pace)


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
