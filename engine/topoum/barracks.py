"""Barracks from the reserve (ruling T10): where one may go, taking one back when the reserve is empty,
and laying it for what needed it (a card, a tile change, the compulsory placement of T9, Enter into combat of T11).
"""

from __future__ import annotations

from . import board as B
from .board import BARRACKS, FRESH, MOVABLE, NONE, at, ev
from .movement import arrive, direction_to, free_spaces_next_to_battlefield, lift_tile, place_tile, splits_without


def takeback_candidates(state, seat: int) -> list[int]:
    """Own barracks that may be taken back: on the battlefield, bare, and not needed to hold it together.

    Bare: no mole, no crate or farmer tile, no Red Cross on it (ruling T21).
    """
    tile, mole, feat, bf = state.tile, state.mole, state.feat, state.bf
    code = BARRACKS + seat
    return [
        b
        for b in range(len(tile))
        if tile[b] == code
        and bf[b]
        and mole[b] < 0
        and feat[b] == NONE
        and state.rc != b
        and not splits_without(state, b)
    ]


def has_barracks_source(state, seat: int) -> bool:
    return state.tiles_left[seat] > 0 or bool(takeback_candidates(state, seat))


def still_next_to_battlefield(state, space: int, barracks: int) -> bool:
    """`space` keeps a battlefield neighbour once `barracks` is taken back."""
    bf = state.bf
    return any(j >= 0 and j != barracks and bf[j] for j in state.geo.nb[space])


def placement_spaces(state, seat: int) -> list[int]:
    """Spaces adjacent to the battlefield where `seat` can put a barracks now (T3, T10)."""
    spaces = free_spaces_next_to_battlefield(state)
    if state.tiles_left[seat] > 0:
        return spaces
    cands = takeback_candidates(state, seat)
    return [h for h in spaces if any(still_next_to_battlefield(state, h, b) for b in cands)]


def need_barracks(state, seat: int, then: dict) -> None:
    """Carry out `then` with a barracks from the reserve, or ask which barracks to take back first."""
    if state.tiles_left[seat] > 0:
        finish_placement(state, seat, then)
    else:
        state.pending = {"k": "take_back", "then": then}


def with_taken_back(state, barracks: int, check) -> bool:
    """Evaluate check() as if `barracks` were back in the reserve."""
    code, bfv = state.tile[barracks], state.bf[barracks]
    state.tile[barracks] = B.NO_TILE
    state.bf[barracks] = 0
    state.tiles_left[code & 3] += 1
    try:
        return check()
    finally:
        state.tile[barracks] = code
        state.bf[barracks] = bfv
        state.tiles_left[code & 3] -= 1


def take_back(state, seat: int, barracks: int) -> None:
    lift_tile(state, barracks)
    state.events.append(ev("barracks_back", seat=seat, hex=at(state.geo, barracks)))


def finish_placement(state, seat: int, then: dict) -> None:
    """Put the barracks where `then` says and carry on with what needed it."""
    do, x = then["do"], then["cell"]
    geo = state.geo
    if do == "build":
        place_tile(state, x, BARRACKS + seat)
        state.events.append(ev("barracks_built", seat=seat, hex=at(geo, x)))
    elif do == "abandoned":
        place_tile(state, x, BARRACKS + seat)
        m = then["m"]
        arrive(state, seat, m, x, direction_to(state, m, x), seat)
    elif do in ("conquest", "change"):
        old = state.tile[x]
        state.tiles_left[old & 3] += 1
        state.tile[x] = BARRACKS + seat
        state.tiles_left[seat] -= 1
        whose = None if old < BARRACKS else old - BARRACKS  # None: a neutral tile
        state.events.append(ev("barracks_replaced", seat=seat, owner=whose, hex=at(geo, x)))
    elif do in ("enter", "place"):
        after_entry(state, seat, x, do)


def after_entry(state, seat: int, cell: int, entry: str) -> None:
    """A barracks with a mole arrives at `cell`: the compulsory placement (T9) or Enter into combat (T11)."""
    place_tile(state, cell, BARRACKS + seat)
    state.mole[cell] = seat
    state.moles_left[seat] -= 1
    if entry == "place":
        state.mflag[cell] = MOVABLE | FRESH  # T9: that mole may then be moved this turn
        state.stage = "action"
        state.pending = None
    else:
        state.mflag[cell] = FRESH
        state.pending = {"k": "card", "m": cell, "alt": False}
