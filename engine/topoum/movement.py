"""What happens to moles and squares: arrivals (T12, T16), eliminations (Law #5), removals and Law #4 (T3)."""

from __future__ import annotations

from engine.hexgrid import direction_between

from . import board as B
from .board import COLOURS, DEADLY, FRESH, ICE, ROCK, TRAP, at, ev

# Outcomes of a mole entering a space (trace).
DIE, COLLIDE, LAND, BLOCKED = 0, 1, 2, 3
# Medals the actor loses (Law #5, ruling T12): one of her moles eliminated; two of them colliding.
LOST_MOLE_PENALTY = 5
OWN_COLLISION_PENALTY = 10


def name(colour: int) -> str:
    return COLOURS[colour].capitalize()


def direction_to(state, origin: int, target: int) -> int:
    """The direction from `origin` to `target`, which lie on one line."""
    return direction_between(state.geo.cells[origin], state.geo.cells[target])


def protected_from(state, cell: int, actor: int) -> bool:
    """True when the mole on `cell` sits under Red Cross and is not the actor's (ruling T15)."""
    return state.rc == cell and state.mole[cell] >= 0 and state.mole[cell] != actor


def trace(state, cell: int, direction, actor: int):
    """Where a mole entering `cell` (moving in `direction`, None when not sliding) ends up.

    Returns (outcome, cell): DIE at cell, COLLIDE with the mole on cell, LAND on cell, or
    BLOCKED (a rock or a protected rival mole on the first space: the mole does not move).
    Ice keeps a mole sliding; it stops on the ice before a rock (ruling T16).
    """
    tile, feat, mole, nb = state.tile, state.feat, state.mole, state.geo.nb
    prev = -1
    while True:
        if cell < 0 or tile[cell] < 0:
            return DIE, cell
        f = feat[cell]
        if f == ROCK or (state.rc == cell and mole[cell] >= 0 and mole[cell] != actor):
            return (BLOCKED, cell) if prev < 0 else (LAND, prev)
        if mole[cell] >= 0:
            return COLLIDE, cell
        if f in DEADLY:
            return DIE, cell
        if f == ICE and direction is not None:
            prev = cell
            cell = nb[cell][direction]
            continue
        return LAND, cell


def lose_mole(state, cell: int, actor: int, fair: bool = False, why: str = "") -> None:
    """The mole on `cell` goes back to its owner's reserve; Law #5 costs the actor 5 for her own."""
    c = state.mole[cell]
    state.mole[cell] = -1
    state.mflag[cell] = 0
    state.moles_left[c] += 1
    penalty = c == actor and not fair
    if penalty:
        state.medals[actor] -= LOST_MOLE_PENALTY
    state.events.append(
        ev("mole_lost", seat=c, hex=at(state.geo, cell), why=why, penalty=LOST_MOLE_PENALTY if penalty else 0)
    )


def reveal_crate(state, seat: int, cell: int) -> None:
    """The owner of the mole on a crate learns its value (ruling T8); undo stops here (ruling S3)."""
    k = state.feat[cell] - B.CRATE
    if k >= 0 and k not in state.crate_known[seat]:
        state.crate_known[seat].append(k)
        state.crate_known[seat].sort()
        state.undo_floor = len(state.turn_log)
        state.events.append(ev("crate_looked", seat=seat, hex=at(state.geo, cell)))


def put_mole(state, colour: int, cell: int, flags: int) -> None:
    """Stand a mole on `cell` (it is known to be free and safe)."""
    state.mole[cell] = colour
    state.mflag[cell] = flags
    if state.feat[cell] >= B.CRATE:
        reveal_crate(state, colour, cell)


def arrive(state, colour: int, src: int, cell: int, direction, actor: int) -> int:
    """Move the mole of `colour` from src (-1: from her reserve) into `cell`; return where it stands or -1.

    Applies ruling T12's outcomes: collisions (fair combat between colours, 10 for two of the
    actor's own), falling off the battlefield, deadly tiles, ice.
    """
    outcome, y = trace(state, cell, direction, actor)
    if outcome == BLOCKED:  # callers offer no such move; a push simply does not happen
        return src
    if src >= 0:
        flags = state.mflag[src] | FRESH
        state.mole[src] = -1
        state.mflag[src] = 0
    else:
        state.moles_left[colour] -= 1
        flags = FRESH
    geo = state.geo
    if outcome == LAND:
        if y != cell:
            state.events.append(ev("ice_slide", seat=colour, hex=at(geo, y)))
        put_mole(state, colour, y, flags)
        return y
    if outcome == DIE:
        state.moles_left[colour] += 1
        if y < 0:
            lost = ev("mole_falls", seat=colour)
        elif state.tile[y] < 0:
            lost = ev("mole_off_battlefield", seat=colour, hex=at(geo, y))
        else:
            lost = ev("mole_lost_on", seat=colour, feature=B.FEATURE_NAMES.get(state.feat[y], "tile"), hex=at(geo, y))
        penalty = colour == actor
        if penalty:
            state.medals[actor] -= LOST_MOLE_PENALTY
        state.events.append({**lost, "penalty": LOST_MOLE_PENALTY if penalty else 0})
        if y >= 0 and state.feat[y] == TRAP:
            state.feat[y] = B.NONE
            state.pool += 1
            state.events.append(ev("trap_springs"))
        return -1
    # COLLIDE
    other = state.mole[y]
    state.mole[y] = -1
    state.mflag[y] = 0
    state.moles_left[colour] += 1
    state.moles_left[other] += 1
    if colour == other:
        if colour == actor:
            state.medals[actor] -= OWN_COLLISION_PENALTY
        state.events.append(
            ev("collide", seat=colour, hex=at(geo, y), penalty=OWN_COLLISION_PENALTY if colour == actor else 0)
        )
    else:
        state.events.append(ev("fair_combat", seat=colour, other=other, hex=at(geo, y)))
    return -1


def push(state, cell: int, direction: int, actor: int) -> None:
    """Push the mole on `cell` one space in `direction` (Panic Attack, The Stomper); protected rivals stay."""
    if state.mole[cell] < 0 or protected_from(state, cell, actor):
        return
    nxt = state.geo.nb[cell][direction]
    outcome, _ = trace(state, nxt, direction, actor)
    if outcome == BLOCKED:
        return
    arrive(state, state.mole[cell], cell, nxt, direction, actor)


# --- squares ------------------------------------------------------------------
def place_tile(state, cell: int, code: int, join: bool = True) -> None:
    """Lay a tile on an empty space; next to the battlefield it joins it, with any outposts it touches."""
    state.tile[cell] = code
    if code < B.STANDALONE:
        state.tiles_left[code & 3] -= 1
    if join:
        absorb(state, cell)


def absorb(state, cell: int) -> None:
    """Mark `cell` and every tile connected to it as battlefield (outposts join when touched, ruling T3)."""
    tile, bf, nb = state.tile, state.bf, state.geo.nb
    bf[cell] = 1
    stack = [cell]
    while stack:
        c = stack.pop()
        for j in nb[c]:
            if j >= 0 and not bf[j] and tile[j] >= 0:
                bf[j] = 1
                stack.append(j)


def lift_tile(state, cell: int) -> None:
    """Take a base tile off the board back to its colour's reserve (nothing else on it)."""
    code = state.tile[cell]
    if 0 <= code < B.STANDALONE:
        state.tiles_left[code & 3] += 1
    state.tile[cell] = B.NO_TILE
    state.bf[cell] = 0


def remove_square(state, cell: int, actor: int) -> None:
    """A square disappears with everything on it (Grenade, Mortar Attack, Lady Boom, Law #4)."""
    geo = state.geo
    if state.rc == cell:
        state.rc = -1
        state.medals[actor] -= 5
        state.events.append(ev("red_cross_lost", seat=actor, hex=at(geo, cell)))
    if state.mole[cell] >= 0:
        lose_mole(state, cell, actor)
    f = state.feat[cell]
    if f:
        state.feat[cell] = B.NONE
        if f >= B.CRATE:
            state.events.append(ev("crate_destroyed"))
        elif f == B.DYNAMITE:
            state.dyn_pending = True
            state.events.append(ev("dynamite_blown_away"))
        elif f in (ROCK, B.PUDDLE, B.GAS, ICE) and state.tile[cell] == B.STANDALONE:
            state.events.append(ev("feature_destroyed", feature=B.FEATURE_NAMES[f]))
        else:
            state.pool += 1  # farmer tiles go beside the board, ready to come back (ruling T17)
    lift_tile(state, cell)
    state.removed = True


def battlefield_cells(state) -> list[int]:
    bf = state.bf
    return [i for i in range(len(bf)) if bf[i]]


def free_spaces_next_to_battlefield(state) -> list[int]:
    """Empty board spaces next to a battlefield square (ruling T3), sorted."""
    tile, bf, nb = state.tile, state.bf, state.geo.nb
    out = set()
    for i in range(len(bf)):
        if bf[i]:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    out.add(j)
    return sorted(out)


def settle(state, actor: int) -> None:
    """After removals: Law #4 (ruling T3), then the dynamite's new place (ruling T17)."""
    if state.removed:
        state.removed = False
        parts = B.components(battlefield_cells(state), state.geo.nb)
        if len(parts) > 1:
            sizes = sorted((len(p) for p in parts), reverse=True)
            biggest = sizes[0]
            state.events.append(ev("split", sizes=sizes))
            for p in parts:
                if len(p) < biggest:
                    remove_part(state, p, actor)
            tied = [p for p in parts if len(p) == biggest]
            if len(tied) > 1:
                state.pending = {"k": "keep", "parts": tied}
                return
    if state.dyn_pending:
        if free_spaces_next_to_battlefield(state):
            state.pending = {"k": "dynamite"}
            return
        state.dyn_pending = False
        state.pool += 1
    state.pending = None


def remove_part(state, part, actor: int) -> None:
    """Law of War #4: a cut-off part of the battlefield is removed with everything on it."""
    state.events.append(ev("part_removed", squares=len(part)))
    for x in part:
        remove_square(state, x, actor)
    state.removed = False


def splits_without(state, square: int) -> bool:
    """True when removing battlefield `square` would split or empty the battlefield (ruling T10)."""
    bf, nb = state.bf, state.geo.nb
    rest = [i for i in range(len(bf)) if bf[i] and i != square]
    if not rest:
        return True
    seen = {rest[0]}
    stack = [rest[0]]
    while stack:
        c = stack.pop()
        for j in nb[c]:
            if j >= 0 and j != square and bf[j] and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) != len(rest)
