"""Barracks from the reserve (ruling T10): where one may go, taking one back when the reserve is empty,
and laying it for what needed it (a card, a tile change, the compulsory placement of T9, Enter into combat of T11).
"""
from __future__ import annotations

from . import board as B
from .board import BARRACKS, FRESH, MOVABLE, NONE, at, ev
from .movement import arrive, direction_to, free_spaces_next_to_battlefield, lift_tile, place_tile, splits_without


def takeback_candidates(st, c: int) -> list[int]:
    """Own barracks that may be taken back: on the battlefield, bare, and not needed to hold it together.

    Bare: no mole, no crate or farmer tile, no Red Cross on it (ruling T21).
    """
    tile, mole, feat, bf = st.tile, st.mole, st.feat, st.bf
    code = BARRACKS + c
    return [b for b in range(len(tile))
            if tile[b] == code and bf[b] and mole[b] < 0 and feat[b] == NONE and st.rc != b
            and not splits_without(st, b)]


def has_barracks_source(st, c: int) -> bool:
    return st.tiles_left[c] > 0 or bool(takeback_candidates(st, c))


def still_next_to_battlefield(st, h: int, b: int) -> bool:
    """Space h keeps a battlefield neighbour once barracks b is taken back."""
    bf = st.bf
    return any(j >= 0 and j != b and bf[j] for j in st.geo.nb[h])


def placement_spaces(st, c: int) -> list[int]:
    """Spaces adjacent to the battlefield where c can put a barracks now (T3, T10)."""
    spaces = free_spaces_next_to_battlefield(st)
    if st.tiles_left[c] > 0:
        return spaces
    cands = takeback_candidates(st, c)
    return [h for h in spaces if any(still_next_to_battlefield(st, h, b) for b in cands)]


def need_barracks(st, c: int, then: dict) -> None:
    """Carry out `then` with a barracks from the reserve, or ask which barracks to take back first."""
    if st.tiles_left[c] > 0:
        finish_placement(st, c, then)
    else:
        st.pending = {"k": "take_back", "then": then}


def with_taken_back(st, b: int, check) -> bool:
    """Evaluate check() as if barracks b were back in the reserve."""
    code, bfv = st.tile[b], st.bf[b]
    st.tile[b] = B.NO_TILE
    st.bf[b] = 0
    st.tiles_left[code & 3] += 1
    try:
        return check()
    finally:
        st.tile[b] = code
        st.bf[b] = bfv
        st.tiles_left[code & 3] -= 1


def take_back(st, c: int, b: int) -> None:
    lift_tile(st, b)
    st.events.append(ev("barracks_back", seat=c, hex=at(st.geo, b)))


def finish_placement(st, c: int, then: dict) -> None:
    """Put the barracks where `then` says and carry on with what needed it."""
    do, x = then["do"], then["cell"]
    geo = st.geo
    if do == "build":
        place_tile(st, x, BARRACKS + c)
        st.events.append(ev("barracks_built", seat=c, hex=at(geo, x)))
    elif do == "abandoned":
        place_tile(st, x, BARRACKS + c)
        m = then["m"]
        arrive(st, c, m, x, direction_to(st, m, x), c)
    elif do in ("conquest", "change"):
        old = st.tile[x]
        st.tiles_left[old & 3] += 1
        st.tile[x] = BARRACKS + c
        st.tiles_left[c] -= 1
        whose = None if old < BARRACKS else old - BARRACKS  # None: a neutral tile
        st.events.append(ev("barracks_replaced", seat=c, owner=whose, hex=at(geo, x)))
    elif do in ("enter", "place"):
        after_entry(st, c, x, do)


def after_entry(st, c: int, x: int, do: str) -> None:
    """A barracks with a mole arrives at x: the compulsory placement (T9) or Enter into combat (T11)."""
    place_tile(st, x, BARRACKS + c)
    st.mole[x] = c
    st.moles_left[c] -= 1
    if do == "place":
        st.mflag[x] = MOVABLE | FRESH  # T9: that mole may then be moved this turn
        st.stage = "action"
        st.pending = None
    else:
        st.mflag[x] = FRESH
        st.pending = {"k": "card", "m": x, "alt": False}
