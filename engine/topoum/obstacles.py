"""The obstacle expert variant (ruling T16): the two-sided tiles and their placement at setup."""

from __future__ import annotations

from .board import BARRACKS, FEATURE_CODES, STANDALONE, at, ev
from .movement import place_tile

OBSTACLES = ("rock", "puddle", "gas", "ice")
# Each physical tile has two faces: four Puddle/Rock tiles and four Ice/Gas tiles.
PAIR = {"rock": 0, "puddle": 0, "gas": 1, "ice": 1}


def next_to_barracks(state) -> list[int]:
    """Empty spaces adjacent to any barracks on the board (first placement round)."""
    tile, nb = state.tile, state.geo.nb
    out = set()
    for i in range(len(tile)):
        if BARRACKS <= tile[i] < STANDALONE:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    out.add(j)
    return sorted(out)


def free_x_spaces(state) -> list[int]:
    return [x for x in state.geo.x_spaces if state.tile[x] < 0]


def placement_actions(state) -> list[dict]:
    """Every (face, space) a player may choose in the current obstacle step."""
    spaces = next_to_barracks(state) if state.step == "obstacle" else free_x_spaces(state)
    kinds = [k for k in OBSTACLES if state.obst_left[PAIR[k]] > 0]
    geo = state.geo
    return [{"type": "obstacle", "kind": k, "hex": geo.hex(x)} for x in spaces for k in kinds]


def place_obstacle(state, kind: str, cell: int) -> None:
    """Lay an obstacle tile: a square by itself, on the battlefield or an outpost on an X space."""
    state.obst_left[PAIR[kind]] -= 1
    touches = any(j >= 0 and state.bf[j] for j in state.geo.nb[cell])
    place_tile(state, cell, STANDALONE, join=touches)
    state.feat[cell] = FEATURE_CODES[kind]
    state.events.append(ev("obstacle", kind=kind, hex=at(state.geo, cell), outpost=not touches))
