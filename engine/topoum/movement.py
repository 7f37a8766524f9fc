"""What happens to moles and squares: arrivals (T12, T16), eliminations (Law #5), removals and Law #4 (T3)."""
from __future__ import annotations

from engine.hexgrid import direction_between

from . import board as B
from .board import COLOURS, DEADLY, FRESH, ICE, ROCK, TRAP, at, ev

# Outcomes of a mole entering a space (trace).
DIE, COLLIDE, LAND, BLOCKED = 0, 1, 2, 3


def name(c: int) -> str:
    return COLOURS[c].capitalize()


def direction_to(st, a: int, b: int) -> int:
    """The direction from cell a to cell b, which lie on one line."""
    return direction_between(st.geo.cells[a], st.geo.cells[b])


def protected_from(st, x: int, actor: int) -> bool:
    """True when the mole on x sits under Red Cross and is not the actor's (ruling T15)."""
    return st.rc == x and st.mole[x] >= 0 and st.mole[x] != actor


def trace(st, x: int, d, actor: int):
    """Where a mole entering space x (moving in direction d, None when not sliding) ends up.

    Returns (outcome, cell): DIE at cell, COLLIDE with the mole on cell, LAND on cell, or
    BLOCKED (a rock or a protected rival mole on the first space: the mole does not move).
    Ice keeps a mole sliding; it stops on the ice before a rock (ruling T16).
    """
    tile, feat, mole, nb = st.tile, st.feat, st.mole, st.geo.nb
    prev = -1
    while True:
        if x < 0 or tile[x] < 0:
            return DIE, x
        f = feat[x]
        if f == ROCK or (st.rc == x and mole[x] >= 0 and mole[x] != actor):
            return (BLOCKED, x) if prev < 0 else (LAND, prev)
        if mole[x] >= 0:
            return COLLIDE, x
        if f in DEADLY:
            return DIE, x
        if f == ICE and d is not None:
            prev = x
            x = nb[x][d]
            continue
        return LAND, x


def lose_mole(st, x: int, actor: int, fair: bool = False, why: str = "") -> None:
    """The mole on x goes back to its owner's reserve; Law #5 costs the actor 5 for her own."""
    c = st.mole[x]
    st.mole[x] = -1
    st.mflag[x] = 0
    st.moles_left[c] += 1
    penalty = c == actor and not fair
    if penalty:
        st.medals[actor] -= 5
    st.events.append(ev("mole_lost", seat=c, hex=at(st.geo, x), why=why, penalty=5 if penalty else 0))


def reveal_crate(st, c: int, x: int) -> None:
    """The owner of the mole on a crate learns its value (ruling T8); undo stops here (ruling S3)."""
    k = st.feat[x] - B.CRATE
    if k >= 0 and k not in st.crate_known[c]:
        st.crate_known[c].append(k)
        st.crate_known[c].sort()
        st.undo_floor = len(st.turn_log)
        st.events.append(ev("crate_looked", seat=c, hex=at(st.geo, x)))


def put_mole(st, c: int, x: int, flags: int) -> None:
    """Stand a mole on x (the cell is known to be free and safe)."""
    st.mole[x] = c
    st.mflag[x] = flags
    if st.feat[x] >= B.CRATE:
        reveal_crate(st, c, x)


def arrive(st, c: int, src: int, x: int, d, actor: int) -> int:
    """Move the mole of colour c from src (-1: from her reserve) into space x; return where it stands or -1.

    Applies ruling T12's outcomes: collisions (fair combat between colours, 10 for two of the
    actor's own), falling off the battlefield, deadly tiles, ice.
    """
    outcome, y = trace(st, x, d, actor)
    if outcome == BLOCKED:  # callers offer no such move; a push simply does not happen
        return src
    if src >= 0:
        flags = st.mflag[src] | FRESH
        st.mole[src] = -1
        st.mflag[src] = 0
    else:
        st.moles_left[c] -= 1
        flags = FRESH
    geo = st.geo
    if outcome == LAND:
        if y != x:
            st.events.append(ev("ice_slide", seat=c, hex=at(geo, y)))
        put_mole(st, c, y, flags)
        return y
    if outcome == DIE:
        st.moles_left[c] += 1
        if y < 0:
            lost = ev("mole_falls", seat=c)
        elif st.tile[y] < 0:
            lost = ev("mole_off_battlefield", seat=c, hex=at(geo, y))
        else:
            lost = ev("mole_lost_on", seat=c, feature=B.FEATURE_NAMES.get(st.feat[y], "tile"), hex=at(geo, y))
        penalty = c == actor
        if penalty:
            st.medals[actor] -= 5
        st.events.append({**lost, "penalty": 5 if penalty else 0})
        if y >= 0 and st.feat[y] == TRAP:
            st.feat[y] = B.NONE
            st.pool += 1
            st.events.append(ev("trap_springs"))
        return -1
    # COLLIDE
    other = st.mole[y]
    st.mole[y] = -1
    st.mflag[y] = 0
    st.moles_left[c] += 1
    st.moles_left[other] += 1
    if c == other:
        if c == actor:
            st.medals[actor] -= 10
        st.events.append(ev("collide", seat=c, hex=at(geo, y), penalty=10 if c == actor else 0))
    else:
        st.events.append(ev("fair_combat", seat=c, other=other, hex=at(geo, y)))
    return -1


def push(st, x: int, d: int, actor: int) -> None:
    """Push the mole on x one space in direction d (Panic Attack, The Stomper); protected rivals stay."""
    if st.mole[x] < 0 or protected_from(st, x, actor):
        return
    nxt = st.geo.nb[x][d]
    outcome, _ = trace(st, nxt, d, actor)
    if outcome == BLOCKED:
        return
    arrive(st, st.mole[x], x, nxt, d, actor)


# --- squares ------------------------------------------------------------------
def place_tile(st, x: int, code: int, join: bool = True) -> None:
    """Lay a tile on an empty space; next to the battlefield it joins it, with any outposts it touches."""
    st.tile[x] = code
    if code < B.STANDALONE:
        st.tiles_left[code & 3] -= 1
    if join:
        absorb(st, x)


def absorb(st, x: int) -> None:
    """Mark x and every tile connected to it as battlefield (outposts join when touched, ruling T3)."""
    tile, bf, nb = st.tile, st.bf, st.geo.nb
    bf[x] = 1
    stack = [x]
    while stack:
        c = stack.pop()
        for j in nb[c]:
            if j >= 0 and not bf[j] and tile[j] >= 0:
                bf[j] = 1
                stack.append(j)


def lift_tile(st, x: int) -> None:
    """Take a base tile off the board back to its colour's reserve (nothing else on it)."""
    code = st.tile[x]
    if 0 <= code < B.STANDALONE:
        st.tiles_left[code & 3] += 1
    st.tile[x] = B.NO_TILE
    st.bf[x] = 0


def remove_square(st, x: int, actor: int) -> None:
    """A square disappears with everything on it (Grenade, Mortar Attack, Lady Boom, Law #4)."""
    geo = st.geo
    if st.rc == x:
        st.rc = -1
        st.medals[actor] -= 5
        st.events.append(ev("red_cross_lost", seat=actor, hex=at(geo, x)))
    if st.mole[x] >= 0:
        lose_mole(st, x, actor)
    f = st.feat[x]
    if f:
        st.feat[x] = B.NONE
        if f >= B.CRATE:
            st.events.append(ev("crate_destroyed"))
        elif f == B.DYNAMITE:
            st.dyn_pending = True
            st.events.append(ev("dynamite_blown_away"))
        elif f in (ROCK, B.PUDDLE, B.GAS, ICE) and st.tile[x] == B.STANDALONE:
            st.events.append(ev("feature_destroyed", feature=B.FEATURE_NAMES[f]))
        else:
            st.pool += 1  # farmer tiles go beside the board, ready to come back (ruling T17)
    lift_tile(st, x)
    st.removed = True


def battlefield_cells(st) -> list[int]:
    bf = st.bf
    return [i for i in range(len(bf)) if bf[i]]


def free_spaces_next_to_battlefield(st) -> list[int]:
    """Empty board spaces next to a battlefield square (ruling T3), sorted."""
    tile, bf, nb = st.tile, st.bf, st.geo.nb
    out = set()
    for i in range(len(bf)):
        if bf[i]:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    out.add(j)
    return sorted(out)


def settle(st, actor: int) -> None:
    """After removals: Law #4 (ruling T3), then the dynamite's new place (ruling T17)."""
    if st.removed:
        st.removed = False
        parts = B.components(battlefield_cells(st), st.geo.nb)
        if len(parts) > 1:
            sizes = sorted((len(p) for p in parts), reverse=True)
            biggest = sizes[0]
            st.events.append(ev("split", sizes=sizes))
            for p in parts:
                if len(p) < biggest:
                    remove_part(st, p, actor)
            tied = [p for p in parts if len(p) == biggest]
            if len(tied) > 1:
                st.pending = {"k": "keep", "parts": tied}
                return
    if st.dyn_pending:
        if free_spaces_next_to_battlefield(st):
            st.pending = {"k": "dynamite"}
            return
        st.dyn_pending = False
        st.pool += 1
    st.pending = None


def remove_part(st, part, actor: int) -> None:
    """Law of War #4: a cut-off part of the battlefield is removed with everything on it."""
    st.events.append(ev("part_removed", squares=len(part)))
    for x in part:
        remove_square(st, x, actor)
    st.removed = False


def splits_without(st, b: int) -> bool:
    """True when removing battlefield square b would split or empty the battlefield (ruling T10)."""
    bf, nb = st.bf, st.geo.nb
    rest = [i for i in range(len(bf)) if bf[i] and i != b]
    if not rest:
        return True
    seen = {rest[0]}
    stack = [rest[0]]
    while stack:
        c = stack.pop()
        for j in nb[c]:
            if j >= 0 and j != b and bf[j] and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) != len(rest)
