"""The obstacle expert variant (ruling T16): the two-sided tiles and their placement at setup."""
from __future__ import annotations

from .board import BARRACKS, FEATURE_CODES, STANDALONE, at, ev
from .movement import place_tile

OBSTACLES = ("rock", "puddle", "gas", "ice")
# Each physical tile has two faces: four Puddle/Rock tiles and four Ice/Gas tiles.
PAIR = {"rock": 0, "puddle": 0, "gas": 1, "ice": 1}


def next_to_barracks(st) -> list[int]:
    """Empty spaces adjacent to any barracks on the board (first placement round)."""
    tile, nb = st.tile, st.geo.nb
    out = set()
    for i in range(len(tile)):
        if BARRACKS <= tile[i] < STANDALONE:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    out.add(j)
    return sorted(out)


def free_x_spaces(st) -> list[int]:
    return [x for x in st.geo.x_spaces if st.tile[x] < 0]


def placement_actions(st) -> list[dict]:
    """Every (face, space) a player may choose in the current obstacle step."""
    spaces = next_to_barracks(st) if st.step == "obstacle" else free_x_spaces(st)
    kinds = [k for k in OBSTACLES if st.obst_left[PAIR[k]] > 0]
    geo = st.geo
    return [{"type": "obstacle", "kind": k, "hex": geo.hex(x)} for x in spaces for k in kinds]


def place_obstacle(st, kind: str, x: int) -> None:
    """Lay an obstacle tile: a square by itself, on the battlefield or an outpost on an X space."""
    st.obst_left[PAIR[kind]] -= 1
    touches = any(j >= 0 and st.bf[j] for j in st.geo.nb[x])
    place_tile(st, x, STANDALONE, join=touches)
    st.feat[x] = FEATURE_CODES[kind]
    st.events.append(ev("obstacle", kind=kind, hex=at(st.geo, x), outpost=not touches))
