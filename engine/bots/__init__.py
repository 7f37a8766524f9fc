"""Game-independent bots: "random", "greedy", "strong" and "expert" (Monte Carlo search with determinisation).

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
    play_turn(level, game, state, seat, seed, *, budget=None, turn_seconds=None) -> list of actions applied
        For a missed deadline (ruling S1), and a bot's turn by correspondence: the bot decides, from the
        seat's view each time, until the turn is confirmed or the decision passes on, within
        `turn_seconds` of wall-clock time in all; the caller stores the log.
    thinking_seconds(level, pace) -> the level's time limit at a table of that pace (decision 26):
        per decision live, per turn by correspondence.
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
import time

from engine.core import Action, Game, State, get_game, make_rng

# Importing them registers the bots and their levels.
from . import greedy, random_bot, search  # noqa: F401
from .base import Bot, Budget, Deadline, bot_names, get_bot, register_bot, turn_done
from .hints import hints_for
from .levels import LEVELS, budget_for, levels, thinking_seconds

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
    "thinking_seconds",
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


# A turn's time limit (decision 26): each decision may spend this share of what is left of it (the first, which picks
# the turn's plan, the most), and once less than LAST_SECONDS is left the bot finishes its turn as greedy does, with
# that much at most per decision: so the turn ends near its limit whatever the load, having played its best so far.
TURN_SHARE = 0.5
LAST_SECONDS = 0.25
FINISHING_LEVEL = "greedy"


def play_turn(
    level: str,
    game: Game | str,
    state: State,
    seat: int,
    seed: int | str,
    *,
    budget: Budget | dict | None = None,
    max_decisions: int = 100,
    turn_seconds: float | None = None,
    clock=time.perf_counter,
) -> list[Action]:
    """Play the rest of `seat`'s turn on `state` in place (ruling S1); returns the actions applied.

    Each decision is taken from `state.view(seat)` only; the full state is used to apply it.
    Stops when the seat confirmed its turn, is no longer to decide, or waits (None).
    `turn_seconds`: the wall-clock limit of the whole turn (engine.bots.levels.thinking_seconds), shared among its
    decisions (TURN_SHARE, LAST_SECONDS); None: each decision has its budget's own.
    """
    if isinstance(game, str):
        game = get_game(game)
    turn = Deadline(turn_seconds, clock) if turn_seconds else None
    done: list[Action] = []
    for i in range(max_decisions):
        if seat not in state.to_act():
            break
        who, limited = level, budget
        if turn is not None:
            who, limited = _within_turn(level, game, budget, turn.at - clock(), clock)
        action = choose_action(who, game, state.view(seat), seat, f"{seed}:{i}", budget=limited)
        if action is None:
            break
        state.apply(seat, action)
        done.append(action)
        if turn_done(state, seat, action):
            break  # confirmed, passed on, or a simultaneous table where one decision is the seat's whole say
    return done


def _within_turn(level: str, game: Game, budget: Budget | dict | None, left: float, clock) -> tuple[str, Budget]:
    """The level and budget of a turn's next decision when `left` seconds of the turn remain."""
    if left < LAST_SECONDS and LEVELS[level]["budget"].get("search"):  # a searching level finishes as greedy
        level, budget = FINISHING_LEVEL, None
        share = LAST_SECONDS
    else:
        share = max(left * TURN_SHARE, LAST_SECONDS) if left >= LAST_SECONDS * 2 else max(left, LAST_SECONDS)
    if budget is None:
        budget = budget_for(level, game.name)
    elif isinstance(budget, dict):
        budget = budget_for(level, game.name, **budget)
    seconds = min(budget.seconds, share) if budget.seconds else share
    return level, budget.with_(seconds=seconds, clock=clock)


def reaction_delay(level: str, seed: int | str) -> float:
    """Seconds a bot of `level` waits before acting at a live table: uniform in its delay range."""
    lo, hi = LEVELS[level]["delay_seconds"]
    return bot_rng(f"delay:{seed}").uniform(lo, hi)
