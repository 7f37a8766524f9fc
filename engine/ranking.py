"""The site's final ranking, as plain Python so that anyone can re-compute it (rulings S1, G0.2).

A seat leaves by resigning or by missing three deadlines in a row; either way the action log gets a
site entry (`{"type": "resign"}` or `{"type": "abandon"}`) at the moment it happens.  The engines never
see these entries: whoever re-runs the log skips them (`is_leave`) and reads from them only who left, in
which order.  So the published ranking is a function of the seed and the log alone (`replayed_ranks`);
the site (games.ranking, games.services.leaving) and the verifier (engine.verify) both use this module.

The ranking (ruling S1):
- the seats still playing are ranked among themselves by the game's own result, in the engines'
  convention (1 + the number of staying seats strictly better: ties keep their shared place and no place
  is left empty for a seat that left);
- the seats that left come after them, the one that left last ranking highest;
- a game that ended early because nobody was left to play against (a resignation) has no result of its
  own: the staying seats share rank 1.
The winners are the staying seats at rank 1, so every game has one unless everyone left.
"""

from __future__ import annotations

from collections.abc import Iterable

from .bots.base import turn_done
from .core import State, get_game

RESIGN = "resign"
ABANDON = "abandon"
LEAVE_TYPES = (RESIGN, ABANDON)


def is_leave(action) -> bool:
    """A site entry saying a seat left; never an engine action (the engines have no such type)."""
    return isinstance(action, dict) and action.get("type") in LEAVE_TYPES


def site_ranks(game_ranks: dict[int, int], leavers: Iterable[int]) -> dict[int, int]:
    """Every seat's final rank: `game_ranks` is the game's own rank per seat, `leavers` the seats that left, in
    order."""
    left = list(dict.fromkeys(leavers))  # a seat leaves once; keep the first time
    staying = [seat for seat in game_ranks if seat not in left]
    ranks = {seat: 1 + sum(1 for other in staying if game_ranks[other] < game_ranks[seat]) for seat in staying}
    for place, seat in enumerate(reversed(left), start=len(staying) + 1):
        ranks[seat] = place
    return ranks


def winners(ranks: dict[int, int], leavers: Iterable[int]) -> list[int]:
    """The seats that won: still playing at the end and ranked 1; none when everyone left."""
    left = set(leavers)
    return sorted(seat for seat, rank in ranks.items() if rank == 1 and seat not in left)


def final_tie_breaks(
    scores: dict[int, float | None], codes: dict[int, str | None], leavers: Iterable[int]
) -> dict[int, str | None]:
    """Each seat's published tie-break: the game's code (`codes`, engine.core.Result.tie_break) for a seat still
    playing at the end whose score another such seat shares; None for the others: its score placed it, or leaving
    did (see the module's docstring)."""
    left = set(leavers)
    staying = [seat for seat in scores if seat not in left and scores[seat] is not None]
    return {
        seat: codes.get(seat)
        if seat in staying and any(other != seat and scores[other] == scores[seat] for other in staying)
        else None
        for seat in scores
    }


def replay_with_leaves(
    kind: str, players: int, options: dict, seed: str, log: Iterable[tuple[int, dict]]
) -> tuple[State, list[int]]:
    """The final state from the seed and the log of (seat, action) pairs, and the seats that left, in order.

    An action the engine refuses raises its IllegalAction, as in play."""
    state = get_game(kind).new_state(players, options, seed)
    leavers = []
    for seat, action in log:
        if is_leave(action):
            leavers.append(seat)
        else:
            state.apply(seat, action)
    return state, leavers


def first_turns_pending(
    kind: str, players: int, options: dict, seed: str, log: Iterable[tuple[int, dict, bool]]
) -> set[int]:
    """The seats that have not yet completed a turn of their own after the log of (seat, action, own) triples
    (ruling S1, turn 3: until there are none, a seat that leaves aborts the game instead).

    A turn is complete when the decision that closed it was the seat's own (`own`: a person's, or a bot seat's
    bot): she confirmed it, or with that decision it passed to another seat; where several seats decide at once
    (a Toppo round, live Toppo) every decision is a turn of its own (engine.bots.turn_done).  A turn the site's
    bot played or finished for a missed deadline is not her own: the ruling says the bot played it for her.  The
    replay stops as soon as every seat has played, so it costs a round however long the game.
    """
    state = get_game(kind).new_state(players, options, seed)
    pending = set(range(players))
    for seat, action, own in log:
        if not pending:
            break
        if is_leave(action):
            continue
        state.apply(seat, action)
        if own and seat in pending and turn_done(state, seat, action):
            pending.discard(seat)
    return pending


def final_ranks(state: State, players: int, leavers: list[int]) -> dict[int, int]:
    """The published ranks of a replayed game (see the module's docstring)."""
    if state.is_over():
        game_ranks = {r.seat: r.rank for r in state.results()}
    else:  # ended early: nobody was left to play against
        game_ranks = dict.fromkeys(range(players), 1)
    return site_ranks(game_ranks, leavers)


def replayed_ranks(
    kind: str, players: int, options: dict, seed: str, log: Iterable[tuple[int, dict]]
) -> dict[int, int]:
    """The published ranks, re-computed from the seed and the log of (seat, action) pairs alone (ruling G0.2)."""
    state, leavers = replay_with_leaves(kind, players, options, seed, log)
    return final_ranks(state, players, leavers)
