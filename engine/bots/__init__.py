"""Game-independent bots: "random", "greedy" and "strong" (MCTS with determinisation).

The site calls only the functions below.  A bot works from one seat's view (ruling S2);
it samples the hidden parts through `Game.determinize`, so it cannot see more than the
player it replaces.

    levels()                                   -> {name: {"label", "description", "delay_seconds", "budget", ...}}
    choose_action(level, game, view, seat, seed, *, budget=None) -> action dict
    reaction_delay(level, seed)                -> seconds a live bot waits before acting (Toppo, ruling P3)
"""
from __future__ import annotations

import random

from engine.core import Action, Game, get_game, make_rng

from . import greedy, random_bot, search  # noqa: F401  (importing registers the levels)
from .hints import hints_for, register_hints
from . import game_hints  # noqa: F401,E402  (per-game hints of the games that are installed)
from .base import Bot, Budget, bot_names, get_bot, register_bot
from .levels import LEVELS, budget_for, levels

__all__ = [
    "Bot", "Budget", "LEVELS", "bot_names", "budget_for", "choose", "choose_action", "get_bot",
    "hints_for", "levels", "reaction_delay", "register_bot", "register_hints",
]


def bot_rng(seed: int | str) -> random.Random:
    """The bot's own generator, apart from the game's (a bot never draws from the game's counter)."""
    return make_rng(f"bot:{seed}", 0)


def choose(level: str, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget | None = None) -> Action:
    """The action the bot of `level` takes for `seat`, knowing only `view`."""
    return get_bot(level).choose(game, view, seat, rng, budget=budget or budget_for(level, game.name))


def choose_action(level: str, game: Game | str, view: dict, seat: int, seed: int | str, *,
                  budget: Budget | dict | None = None) -> Action:
    """Site entry point: game by object or name, a seed (e.g. f"{game_id}:{version}:{seat}") for reproducibility."""
    if isinstance(game, str):
        game = get_game(game)
    if isinstance(budget, dict):
        budget = budget_for(level, game.name, **budget)
    return choose(level, game, view, seat, bot_rng(seed), budget=budget)


def reaction_delay(level: str, seed: int | str) -> float:
    """Seconds a bot of `level` waits before acting at a live table: uniform in its delay range."""
    lo, hi = LEVELS[level]["delay_seconds"]
    return bot_rng(f"delay:{seed}").uniform(lo, hi)
