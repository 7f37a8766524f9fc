"""Game-independent bots: "random", "greedy" and "strong" (Monte Carlo search with determinisation).

The site calls only the functions below.  A bot works from one seat's view (ruling S2);
it samples the hidden parts through `Game.determinize`, so it cannot see more than the
player it replaces.

    levels() -> {name: {"label", "description", "delay_seconds": (lo, hi), "budget"}}  (hints may tune it)
        Plain data for the site: what to show, and the thinking budget of each level.
    choose_action(level, game, view, seat, seed, *, budget=None) -> action dict, or None
        One decision for `seat` from its view.  `game` is a Game or its registry name; `seed`
        (e.g. f"{game_id}:{version}:{seat}") makes the choice reproducible when the budget
        has no time cap.  None means "nothing worth doing now, wait": only where several
        seats may act at once (a live Toppo seat whose only move is to propose a new display);
        ask again after the next change.  Never returns {"type": "undo"}; multi-decision
        turns are confirmed with {"type": "end_turn"} like anyone's (ruling S3).
    play_turn(level, game, state, seat, seed, *, budget=None) -> list of actions applied
        For a missed deadline (ruling S1): the bot decides, from the seat's view each time,
        until the turn is confirmed or the decision passes on; the caller stores the log.
    reaction_delay(level, seed) -> seconds a live bot waits before acting (Toppo, ruling P3)

Per-game knowledge lives in engine.bots.hints (defaults from the protocol) and each
game's own engine/<game>/hints.py; the bots also read `Game.higher_is_better` (False for penalty
scores) and `Game.bot_score_scale`.

A strong decision's `seconds` cap all of it: the time limit starts when the bot is asked, before
the position is sampled and the candidates are ranked (engine.bots.search.decide).  Playouts apply
actions taken from a state's own legal list with `State.apply_legal` (no second check) and never
build views.
"""

from __future__ import annotations

import random

from engine.core import Action, Game, State, get_game, make_rng

# Importing them registers the bots and their levels.
from . import greedy, random_bot, search  # noqa: F401
from .base import Bot, Budget, bot_names, get_bot, register_bot, turn_done
from .hints import hints_for
from .levels import LEVELS, budget_for, levels

__all__ = [
    "Bot",
    "Budget",
    "LEVELS",
    "bot_names",
    "budget_for",
    "choose",
    "choose_action",
    "get_bot",
    "hints_for",
    "levels",
    "play_turn",
    "reaction_delay",
    "register_bot",
]


def bot_rng(seed: int | str) -> random.Random:
    """The bot's own generator, apart from the game's (a bot never draws from the game's counter)."""
    return make_rng(f"bot:{seed}", 0)


def choose(
    level: str, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget | None = None
) -> Action | None:
    """The action the bot of `level` takes for `seat`, knowing only `view` (None: wait)."""
    return get_bot(level).choose(game, view, seat, rng, budget=budget or budget_for(level, game.name))


def choose_action(
    level: str, game: Game | str, view: dict, seat: int, seed: int | str, *, budget: Budget | dict | None = None
) -> Action | None:
    """Site entry point: game by object or name, a seed (e.g. f"{game_id}:{version}:{seat}") for reproducibility."""
    if isinstance(game, str):
        game = get_game(game)
    if isinstance(budget, dict):
        budget = budget_for(level, game.name, **budget)
    return choose(level, game, view, seat, bot_rng(seed), budget=budget)


def play_turn(
    level: str,
    game: Game | str,
    state: State,
    seat: int,
    seed: int | str,
    *,
    budget: Budget | dict | None = None,
    max_decisions: int = 100,
) -> list[Action]:
    """Play the rest of `seat`'s turn on `state` in place (ruling S1); returns the actions applied.

    Each decision is taken from `state.view(seat)` only; the full state is used to apply it.
    Stops when the seat confirmed its turn, is no longer to decide, or waits (None).
    """
    if isinstance(game, str):
        game = get_game(game)
    done: list[Action] = []
    for i in range(max_decisions):
        if seat not in state.to_act():
            break
        action = choose_action(level, game, state.view(seat), seat, f"{seed}:{i}", budget=budget)
        if action is None:
            break
        state.apply(seat, action)
        done.append(action)
        if turn_done(state, seat, action):
            break  # confirmed, passed on, or a simultaneous table where one decision is the seat's whole say
    return done


def reaction_delay(level: str, seed: int | str) -> float:
    """Seconds a bot of `level` waits before acting at a live table: uniform in its delay range."""
    lo, hi = LEVELS[level]["delay_seconds"]
    return bot_rng(f"delay:{seed}").uniform(lo, hi)
