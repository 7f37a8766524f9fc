"""Greedy bot: the action whose turn, finished greedily, leaves the best score lead right now."""
from __future__ import annotations

import random

from engine.core import Action, Game, State

from .base import (
    Bot, Budget, advance_rank, cap, differential, end_if_possible, key_of, options_for, playable,
    register_bot, sample_state, turn_done, utilities,
)

# A turn longer than this many decisions is cut short when finishing it greedily (safety net).
MAX_TURN_STEPS = 12


def after(state: State, seat: int, action: Action) -> tuple[State, bool]:
    """A copy of `state` with `action` applied, and whether that closed the seat's turn."""
    s = state.clone()
    s.apply(seat, action)
    return s, turn_done(s, seat, action)


def peek_value(game: Game, state: State, seat: int, action: Action) -> float:
    """Score lead right after `action`, confirming the turn when that is already allowed."""
    s, done = after(state, seat, action)
    if not done:
        end_if_possible(s, seat)
    return differential(utilities(game, s), seat)


def best_of(game: Game, state: State, seat: int, actions: list[Action], rng: random.Random,
            value) -> Action:
    """The action with the highest value; ties go to ending the turn, then to `rng`."""
    order = list(actions)
    rng.shuffle(order)  # random tie-break among equals, reproducible from rng
    scored = [(value(a), advance_rank(a), i, a) for i, a in enumerate(order)]
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    return scored[0][3]


def finish_turn(game: Game, state: State, seat: int, rng: random.Random, limit: int) -> State:
    """Play the rest of the seat's turn in place, each decision the best peek value."""
    for _ in range(MAX_TURN_STEPS):
        if state.is_over() or seat not in state.to_act():
            return state
        actions = cap(playable(state, seat), limit, rng)
        if not actions:
            return state
        choice = best_of(game, state, seat, actions, rng, lambda a: peek_value(game, state, seat, a))
        state.apply(seat, choice)
        if turn_done(state, seat, choice):
            return state
    return state


def turn_value(game: Game, state: State, seat: int, action: Action, rng: random.Random, limit: int) -> float:
    """Score lead once `action` is taken and the turn is finished greedily."""
    s, done = after(state, seat, action)
    if not done:
        finish_turn(game, s, seat, rng, limit)
    return differential(utilities(game, s), seat)


def ranked_actions(game: Game, state: State, seat: int, actions: list[Action], rng: random.Random,
                   limit: int, samples: list[State] | None = None) -> list[tuple[float, Action]]:
    """Candidate actions with their mean greedy turn value over the sampled states, best first."""
    states = samples or [state]
    candidates = cap(actions, limit, rng)
    rng.shuffle(candidates)
    totals = {key_of(a): 0.0 for a in candidates}
    for s in states:
        legal = {key_of(a) for a in playable(s, seat)}
        for a in candidates:
            k = key_of(a)
            # An action missing from another sample (should not happen) counts as bad there.
            totals[k] += turn_value(game, s, seat, a, rng, limit) if k in legal else -1e9
    ranked = [(totals[key_of(a)] / len(states), advance_rank(a), i, a) for i, a in enumerate(candidates)]
    ranked.sort(key=lambda t: (-t[0], t[1], t[2]))
    return [(v, a) for v, _, _, a in ranked]


@register_bot
class GreedyBot(Bot):
    """Best immediate gain by the game's own scoring, multi-decision turns finished greedily."""

    name = "greedy"
    label = "Greedy"

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action:
        state, actions = options_for(game, view, seat, rng)
        if len(actions) == 1:
            return actions[0]
        samples = [state] + [sample_state(game, view, seat, rng) for _ in range(max(0, budget.samples - 1))]
        return ranked_actions(game, state, seat, actions, rng, budget.max_candidates, samples)[0][1]
