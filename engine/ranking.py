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
