"""Greedy bot: the action whose turn, finished greedily, leaves the best score lead right now.

Each candidate is scored by "peeking": apply it to a copy and read the game's own scores
(provisional ones while a turn is in progress, or after confirming the turn when that is
already allowed; after a sealed simultaneous claim the other seats take their default so
its effect shows).  The best few candidates that leave the turn open are then followed to
the end of the turn, each later decision again the best peek, and judged by the lead the
finished turn leaves.  Ties go to the action that ends the turn, then to the bot's rng.
"""

from __future__ import annotations

import random

from engine.core import Action, Game, State

from .base import (
    Bot,
    Budget,
    Deadline,
    considered,
    differential,
    end_if_possible,
    key_of,
    options_for,
    playable,
    register_bot,
    sample_state,
    turn_done,
    waits,
)
from .hints import Hints, hints_for

# A turn longer than this many decisions is cut short when finishing it greedily (safety net).
MAX_TURN_STEPS = 12


def peek(hints: Hints, state: State, seat: int, action: Action) -> tuple[State, bool]:
    """A copy of `state` after `action` (one of `state`'s own legal actions), with its effect made
    visible; and whether the turn ended."""
    before = state.to_act()
    s = state.clone()
    s.apply_legal(seat, action)
    done = turn_done(s, seat, action)
    if len(before) > 1:
        if seat not in s.to_act():
            hints.settle(s, seat, before)
    elif not done and not hints.provisional and not hints.cannot_end_turn(s, seat):
        end_if_possible(s, seat)
    return s, done


def peek_value(hints: Hints, state: State, seat: int, action: Action) -> float:
    """Score lead right after `action` (see `peek`)."""
    s, _ = peek(hints, state, seat, action)
    return differential(hints.utilities(s), seat)


def pick_best(hints: Hints, scored: list[tuple[float, Action]]) -> Action:
    """The highest value; ties to the hints' preferred kind of action, then to the earlier one."""
    best = min(range(len(scored)), key=lambda i: (-scored[i][0], hints.tie_rank(scored[i][1]), i))
    return scored[best][1]


def greedy_step(hints: Hints, state: State, seat: int, rng: random.Random, limit: int) -> Action | None:
    """The best-peek action among the hints' candidates (None when the seat has none)."""
    actions = playable(state, seat)
    if not actions:
        return None
    if len(actions) == 1:
        return actions[0]
    cands = hints.candidates(state, seat, actions, limit, rng)
    return pick_best(hints, list(zip(values_of(hints, state, seat, cands), cands)))


def values_of(hints: Hints, state: State, seat: int, actions: list[Action]) -> list[float]:
    """Peek values of `actions`, skipping the tries whose outcome the hints already know."""
    base = differential(hints.utilities(state), seat)
    known = hints.known_values(state, seat, actions, base)
    return [v if v is not None else peek_value(hints, state, seat, a) for v, a in zip(known, actions)]


def finish_turn(hints: Hints, state: State, seat: int, rng: random.Random, limit: int) -> State:
    """Play the rest of the seat's turn in place, each decision the best peek."""
    for _ in range(MAX_TURN_STEPS):
        if state.is_over() or seat not in state.to_act():
            break
        choice = greedy_step(hints, state, seat, rng, limit)
        if choice is None:
            break
        state.apply_legal(seat, choice)
        if turn_done(state, seat, choice):
            break
    return state


def ranked_actions(
    game: Game,
    state: State,
    seat: int,
    actions: list[Action],
    rng: random.Random,
    budget: Budget,
    samples: list[State] | None = None,
    deadline: Deadline | None = None,
) -> list[tuple[float, Action]]:
    """Candidate actions with their mean greedy value over the sampled states, best first.

    When `deadline` passes, the ranking stops where it is: it holds the candidates valued so far
    (followed to the turn's end or not), and at least the hints' most promising one.
    """
    hints = hints_for(game)
    states = samples or [state]
    cands = hints.candidates(state, seat, actions, budget.max_candidates, rng)
    # Each sample's own legal action for every candidate key: a sample is changed only by its own actions.
    own = [None if s is state else {key_of(a): a for a in playable(s, seat)} for s in states]

    def in_(s_index: int, i: int) -> Action | None:
        return cands[i] if own[s_index] is None else own[s_index].get(key_of(cands[i]))

    values = [0.0] * len(cands)
    still_open = [False] * len(cands)
    valued, seen = len(cands), 0  # candidates valued on the first `seen` samples
    for j, s in enumerate(states):
        base = differential(hints.utilities(s), seat)
        known = hints.known_values(s, seat, cands, base)
        for i in range(valued):
            if deadline is not None and deadline.passed():
                valued = i
                break
            a = in_(j, i)
            if a is None:
                values[i] += -1e9  # cannot happen when legality follows the view; never prefer it
            elif known[i] is not None:
                values[i] += known[i]
                still_open[i] = True  # only actions that cannot score at once are known: a move mid-turn
            else:
                after, done = peek(hints, s, seat, a)
                values[i] += differential(hints.utilities(after), seat)
                still_open[i] = still_open[i] or not done
        if not valued:
            break
        seen = j + 1
    if not valued:
        return [(differential(hints.utilities(state), seat), cands[0])]
    cands, values = cands[:valued], [v / seen for v in values[:valued]]
    open_turn = [i for i in range(valued) if still_open[i]]
    # Follow the best few open-turn candidates to the end of the turn.
    order = sorted(open_turn, key=lambda i: (-values[i], hints.tie_rank(cands[i]), i))
    for i in order[: budget.refine]:
        if deadline is not None and deadline.passed():
            break
        if any(in_(j, i) is None for j in range(len(states))):
            continue  # valued at -1e9 already
        total = 0.0
        for j, s in enumerate(states):
            after = s.clone()
            after.apply_legal(seat, in_(j, i))
            finish_turn(hints, after, seat, rng, budget.max_candidates)
            total += differential(hints.utilities(after), seat)
        values[i] = total / len(states)
    ranked = sorted(range(valued), key=lambda i: (-values[i], hints.tie_rank(cands[i]), i))
    return [(values[i], cands[i]) for i in ranked]


@register_bot
class GreedyBot(Bot):
    """Best immediate gain by the game's own scoring, multi-decision turns finished greedily."""

    name = "greedy"
    label = "Greedy"

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action | None:
        deadline = budget.start()
        state, actions = options_for(game, view, seat, rng)
        if waits(game, state, seat, actions):
            return None
        actions = considered(game, state, seat, actions, rng)
        if len(actions) == 1:
            return actions[0]
        samples = [state] + [sample_state(game, view, seat, rng) for _ in range(max(0, budget.samples - 1))]
        return ranked_actions(game, state, seat, actions, rng, budget, samples, deadline)[0][1]


@register_bot
class BeginnerBot(GreedyBot):
    """Greedy's choice among fewer candidates (its level's budget), and slow at a live table (levels.py)."""

    name = "beginner"
    label = "Beginner"
