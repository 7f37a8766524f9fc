"""The eight farmers (rulings T7, T8, T17): their setup, the choices of "Farmer is coming!" and its USE."""

from __future__ import annotations

from . import board as B
from .board import (
    BARRACKS,
    CRATE,
    DYNAMITE,
    FOOTPRINT,
    GAS,
    NONE,
    PUDDLE,
    ROCK,
    STANDALONE,
    TRAP,
    TURNIP,
    at,
    ev,
)
from .movement import lose_mole, place_tile, push, remove_square, reveal_crate

FARMERS: dict[str, str] = {
    "kings_of_buckets": "Kings of Buckets",
    "the_crusher": "The Crusher",
    "the_sprayer": "The Sprayer",
    "queen_of_nature": "The Queen of Nature",
    "lady_boom": "Lady Boom",
    "trap_master": "Trap Master",
    "the_stomper": "The Stomper",
    "lord_of_the_crates": "Lord of the Crates",
}
# Farmers whose tiles are the obstacle variant's own tiles (ruling T7).
USES_OBSTACLE_TILES = ("kings_of_buckets", "the_crusher", "the_sprayer")
# The tile each farmer moves, and whether four of them start on the marked zones.
ZONE_TILE = {"kings_of_buckets": PUDDLE, "the_crusher": ROCK, "the_sprayer": GAS}
CENTRE_TILE = {"queen_of_nature": TURNIP, "trap_master": TRAP, "the_stomper": FOOTPRINT}
CRATE_VALUES = (0, 2, 3, 5)  # ruling T8


def farmer_title(farmer) -> str:
    return FARMERS.get(farmer, "")


def zone_colours(state) -> list[int]:
    """Colours of the neutral tiles under zone tiles: unused colours, or one per player with four (T4)."""
    if state.n == 4:
        return [0, 1, 2, 3]
    unused = list(range(state.n, 4))
    return [unused[i % len(unused)] for i in range(4)]


def setup_zones(state, rng) -> None:
    """Lay the farmer's four tiles on the marked zones, each on a neutral tile (an outpost, ruling T3)."""
    f = state.farmer
    if f in ZONE_TILE or f == "lord_of_the_crates":
        if f == "lord_of_the_crates":
            values = list(CRATE_VALUES)
            rng.shuffle(values)
            state.crate_values = values
        for k, (z, colour) in enumerate(zip(state.geo.zones, zone_colours(state))):
            place_tile(state, z, colour, join=False)
            state.feat[z] = CRATE + k if f == "lord_of_the_crates" else ZONE_TILE[f]


def setup_centre(state) -> None:
    """Step 1 of the battlefield: the centre tile, with the farmer's tile on it or instead of it."""
    x = state.geo.centre
    if state.farmer == "lady_boom":
        place_tile(state, x, STANDALONE)  # the dynamite replaces the centre tile (ruling T17)
        state.feat[x] = DYNAMITE
    else:
        place_tile(state, x, state.start)  # neutral side up, the start player's colour (ruling T4)
        if state.farmer in CENTRE_TILE:
            state.feat[x] = CENTRE_TILE[state.farmer]


def _find(state, code: int) -> list[int]:
    feat = state.feat
    return [i for i in range(len(feat)) if feat[i] == code]


def _open_squares(state, allow_moles: bool, outposts: bool = False) -> list[int]:
    """Battlefield squares (and outposts if asked) on a base tile with no farmer or obstacle tile
    and no Red Cross (ruling T17)."""
    tile, feat, bf, mole, rc = state.tile, state.feat, state.bf, state.mole, state.rc
    return [
        x
        for x in range(len(tile))
        if (bf[x] or outposts)
        and 0 <= tile[x] < STANDALONE
        and feat[x] == NONE
        and x != rc
        and (allow_moles or mole[x] < 0)
    ]


def _bury(state, cell: int) -> None:
    """A barracks under a puddle, rock, gas, turnip or trap turns neutral (ruling T17)."""
    if BARRACKS <= state.tile[cell] < STANDALONE:
        state.tile[cell] -= BARRACKS


def targets(state, mole_cell: int, seat: int) -> list:
    """Choices of the farmer's USE: a cell, a (from, to) pair for four-tile farmers, or None for none."""
    f = state.farmer
    if f in ZONE_TILE:
        sources = _find(state, ZONE_TILE[f]) + ([-1] if state.pool > 0 else [])
        # Kings of Buckets: "any unoccupied square"; the other two say "in the battlefield", so never an
        # outpost (rulings T17, T21)
        kings = f == "kings_of_buckets"
        dests = _open_squares(state, allow_moles=not kings, outposts=kings)
        return [(s, x) for s in sources for x in dests]
    if f == "queen_of_nature":
        return [None] if 0 <= state.tile[mole_cell] < STANDALONE and state.feat[mole_cell] == NONE else []
    if f == "trap_master":
        return _open_squares(state, allow_moles=False)  # battlefield squares only (ruling T21)
    if f == "the_stomper":
        foot = _find(state, FOOTPRINT)
        if not foot:
            return _open_squares(state, allow_moles=True)
        near = set(state.geo.nb[foot[0]])
        return [x for x in _open_squares(state, allow_moles=True) if x in near]
    if f == "lady_boom":
        dyn = _find(state, DYNAMITE)
        if not dyn:
            return []
        return [x for x in state.geo.nb[dyn[0]] if x >= 0 and state.tile[x] >= 0]
    if f == "lord_of_the_crates":
        out = [None]  # moving a crate is optional, the medal is not (ruling T21)
        if 0 <= state.tile[mole_cell] < STANDALONE and state.feat[mole_cell] == NONE:
            out += [x for x in range(len(state.feat)) if state.feat[x] >= CRATE]
        return out
    return []


def resolve(state, mole_cell: int, seat: int, choice) -> None:
    """Carry out the farmer's USE with the chosen target."""
    f = state.farmer
    geo = state.geo
    if f in ZONE_TILE:
        src, x = choice
        code = ZONE_TILE[f]
        if src >= 0:
            state.feat[src] = NONE
        else:
            state.pool -= 1
        if state.mole[x] >= 0:
            lose_mole(state, x, seat, why=f"under_{B.FEATURE_NAMES[code]}")
        state.feat[x] = code
        _bury(state, x)
        state.events.append(ev("feature_lands", feature=B.FEATURE_NAMES[code], hex=at(geo, x)))
    elif f in ("queen_of_nature", "trap_master", "the_stomper"):
        code = CENTRE_TILE[f]
        x = mole_cell if f == "queen_of_nature" else choice
        old = _find(state, code)
        if old:
            state.feat[old[0]] = NONE
        else:
            state.pool -= 1
        if state.mole[x] >= 0 and f == "the_stomper":
            lose_mole(state, x, seat, why="footprint")
        state.feat[x] = code
        if f != "the_stomper":
            _bury(state, x)
        state.events.append(ev("feature_moves", feature=B.FEATURE_NAMES[code], hex=at(geo, x)))
        if f == "the_stomper":
            for d, y in enumerate(geo.nb[x]):
                if y >= 0 and state.mole[y] >= 0:
                    push(state, y, d, seat)
    elif f == "lady_boom":
        x = choice
        dyn = _find(state, DYNAMITE)[0]
        state.events.append(ev("dynamite_blows", hex=at(geo, x)))
        remove_square(state, x, seat)
        state.feat[dyn] = NONE
        state.tile[dyn] = B.NO_TILE
        state.bf[dyn] = 0
        state.tile[x] = STANDALONE
        state.feat[x] = DYNAMITE
        state.bf[x] = 1
        state.removed = True
    elif f == "lord_of_the_crates":
        state.medals[seat] += 1
        state.events.append(ev("farmer_medal", seat=seat))
        if choice is not None:
            k = state.feat[choice]
            state.feat[choice] = NONE
            state.feat[mole_cell] = k
            state.events.append(ev("crate_moves", source=at(geo, choice), hex=at(geo, mole_cell)))
            reveal_crate(state, seat, mole_cell)


def place_dynamite(state, cell: int) -> None:
    """Whoever blew the dynamite away puts it back next to the battlefield (ruling T17)."""
    place_tile(state, cell, STANDALONE)
    state.feat[cell] = DYNAMITE
    state.dyn_pending = False
    state.events.append(ev("dynamite_placed", hex=at(state.geo, cell)))
