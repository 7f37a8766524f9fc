"""Card effects (ruling T14): which choices each card offers on the active mole, and carrying them out.

Every `targets` function returns only choices that can be carried out to the end (Law of War #7);
a card is playable exactly when its list is not empty.
"""
from __future__ import annotations

from engine.hexgrid import direction_between

from . import board as B
from . import farmers
from .board import BARRACKS, NONE, ROCK, STANDALONE, at, ev
from .movement import BLOCKED, arrive, lose_mole, place_tile, push, remove_square, splits_without, trace

# How a card's choice is asked: nothing, a hex, or a direction.
NO_CHOICE, TARGET, DIRECTION = "none", "target", "direction"


def rival_at(st, x: int, c: int) -> bool:
    """An unprotected rival mole stands on x (ruling T14: Red Cross shields it from the card)."""
    o = st.mole[x] if x >= 0 else -1
    return o >= 0 and o != c and st.rc != x


def direction_to(st, a: int, b: int) -> int:
    return direction_between(st.geo.cells[a], st.geo.cells[b])


# --- barracks from the reserve (ruling T10) ---------------------------------------
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
    from .movement import free_spaces_next_to_battlefield
    spaces = free_spaces_next_to_battlefield(st)
    if st.tiles_left[c] > 0:
        return spaces
    cands = takeback_candidates(st, c)
    return [h for h in spaces if any(still_next_to_battlefield(st, h, b) for b in cands)]


# --- per-card choices --------------------------------------------------------------
def _adjacent(st, m):
    return [x for x in st.geo.nb[m] if x >= 0]


def t_bayonet(st, m, c):
    return [x for x in _adjacent(st, m) if rival_at(st, x, c)]


t_short_range = t_bayonet
t_prisoner_of_war = t_bayonet


def t_betrayal(st, m, c):
    return t_bayonet(st, m, c) if st.moles_left[c] > 0 else []


def t_long_range(st, m, c):
    out = []
    nb, mole, feat = st.geo.nb, st.mole, st.feat
    for d in range(6):
        x = m
        for k in (1, 2, 3):
            x = nb[x][d]
            if x < 0:
                break
            if mole[x] >= 0:
                if k >= 2 and rival_at(st, x, c):
                    out.append(x)
                break
            if st.rc == x or feat[x] == ROCK:
                break
    return out


def t_grenade(st, m, c):
    return [x for x in _adjacent(st, m) if st.tile[x] >= 0]


def _ring2(st, m):
    nb = st.geo.nb
    out = []
    for d in range(6):
        a = nb[m][d]
        if a >= 0:
            b = nb[a][d]
            if b >= 0:
                out.append((b, d))
    return out


def t_mortar_attack(st, m, c):
    return [x for x, _ in _ring2(st, m) if st.tile[x] >= 0]


def t_slingshot(st, m, c):
    return [x for x, _ in _ring2(st, m) if rival_at(st, x, c)]


def t_advance(st, m, c):
    nb, tile = st.geo.nb[m], st.tile
    return [x for d, x in enumerate(nb) if x >= 0 and tile[x] >= 0 and trace(st, x, d, c)[0] != BLOCKED]


def t_underground_maneuver(st, m, c):
    return [x for x, d in _ring2(st, m) if st.tile[x] >= 0 and trace(st, x, d, c)[0] != BLOCKED]


def t_motorbike_patrol(st, m, c):
    out = []
    nb, tile, mole, feat = st.geo.nb, st.tile, st.mole, st.feat
    for d in range(6):
        a = nb[m][d]
        if a < 0 or tile[a] < 0 or feat[a] == ROCK:
            continue
        if mole[a] >= 0 and (mole[a] == c or st.rc == a):
            continue  # her own mole or a protected one blocks the way (ruling T14)
        b = nb[a][d]
        if b >= 0 and tile[b] >= 0 and trace(st, b, d, c)[0] != BLOCKED:
            out.append(b)
    return out


def t_panic_attack(st, m, c):
    """Directions in which at least one mole would really be pushed."""
    out = []
    nb, mole = st.geo.nb, st.mole
    for d in range(6):
        x = nb[m][d]
        while x >= 0:
            if mole[x] >= 0 and not (st.rc == x and mole[x] != c):
                if trace(st, nb[x][d], d, c)[0] != BLOCKED:
                    out.append(d)
                    break
            x = nb[x][d]
    return out


def t_tunnel(st, m, c):
    code = BARRACKS + c
    tile, mole = st.tile, st.mole
    if tile[m] != code:
        return []
    return [x for x in range(len(tile)) if tile[x] == code and x != m and mole[x] < 0]


def t_decoy(st, m, c):
    return [x for x in _adjacent(st, m) if BARRACKS <= st.tile[x] < STANDALONE and rival_at(st, x, c)]


def t_build_barracks(st, m, c):
    return placement_spaces(st, c)


def t_abandoned_barracks(st, m, c):
    if not has_barracks_source(st, c):
        return []
    return [x for x in _adjacent(st, m) if st.tile[x] < 0]


def conquerable(st, x: int, c: int) -> bool:
    t = st.tile[x]
    return (0 <= t < STANDALONE and t != BARRACKS + c and st.mole[x] < 0
            and (st.feat[x] == NONE or st.feat[x] >= B.CRATE))


def t_conquest(st, m, c):
    xs = [x for x in _adjacent(st, m) if conquerable(st, x, c)]
    if xs and not has_barracks_source(st, c):
        xs = [x for x in xs if st.tile[x] == c]  # her own neutral tile turns over at no cost
    return xs


def t_new_soldier(st, m, c):
    if st.moles_left[c] <= 0:
        return []
    return [x for x, d in _ring2(st, m)
            if st.tile[x] >= 0 and st.feat[x] != ROCK and not (st.rc == x and st.mole[x] >= 0)]


def t_medal_of_honor(st, m, c):
    mole = st.mole
    return [x for x in range(len(mole)) if mole[x] == c and x != m]


def t_press_support(st, m, c):
    return [None] if st.press != c else []


def t_red_cross(st, m, c):
    return [None] if st.rc != m else []


def t_farmer(st, m, c):
    return farmers.targets(st, m, c)


# --- carrying out -------------------------------------------------------------------
def r_bayonet(st, m, c, x):
    lose_mole(st, x, c, why="bayonet")
    arrive(st, c, m, x, direction_to(st, m, x), c)


def r_short_range(st, m, c, x):
    lose_mole(st, x, c, why="shot")


r_long_range = r_short_range
r_slingshot = r_short_range


def r_grenade(st, m, c, x):
    st.events.append(ev("square_destroyed", hex=at(st.geo, x)))
    remove_square(st, x, c)


r_mortar_attack = r_grenade


def r_advance(st, m, c, x):
    arrive(st, c, m, x, direction_to(st, m, x), c)


r_underground_maneuver = r_advance


def r_motorbike_patrol(st, m, c, x):
    d = direction_to(st, m, x)
    a = st.geo.nb[m][d]
    if st.mole[a] >= 0:
        lose_mole(st, a, c, why="run_over")
    arrive(st, c, m, x, d, c)


def r_panic_attack(st, m, c, d):
    nb = st.geo.nb
    ray = []
    x = nb[m][d]
    while x >= 0:
        ray.append(x)
        x = nb[x][d]
    for x in reversed(ray):  # farthest first (ruling T14)
        push(st, x, d, c)


def r_tunnel(st, m, c, x):
    arrive(st, c, m, x, None, c)


def r_decoy(st, m, c, x):
    from .movement import reveal_crate
    mole, flag = st.mole, st.mflag
    mole[m], mole[x] = mole[x], mole[m]
    flag[m], flag[x] = flag[x], flag[m] | B.FRESH
    for y in (m, x):
        if st.feat[y] >= B.CRATE:
            reveal_crate(st, mole[y], y)


def r_build_barracks(st, m, c, x):
    need_barracks(st, c, {"do": "build", "cell": x})


def r_abandoned_barracks(st, m, c, x):
    need_barracks(st, c, {"do": "abandoned", "cell": x, "m": m})


def r_conquest(st, m, c, x):
    if st.tile[x] == c:
        st.tile[x] = BARRACKS + c
        st.events.append(ev("conquest", seat=c, hex=at(st.geo, x)))
    else:
        need_barracks(st, c, {"do": "conquest", "cell": x})


def r_betrayal(st, m, c, x):
    lose_mole(st, x, c, why="betrayed")
    arrive(st, c, -1, x, None, c)


def r_new_soldier(st, m, c, x):
    arrive(st, c, -1, x, direction_to(st, m, x), c)


def r_prisoner_of_war(st, m, c, x):
    o = st.mole[x]
    st.mole[x] = -1
    st.mflag[x] = 0
    st.prisoners[c][o] += 1
    st.events.append(ev("prisoner", seat=o, hex=at(st.geo, x)))


def r_medal_of_honor(st, m, c, x):
    st.mole[x] = -1
    st.mflag[x] = 0
    st.moles_left[c] += 1
    st.medals[c] += 3
    st.events.append(ev("medal_of_honor", hex=at(st.geo, x)))


def r_press_support(st, m, c, _):
    st.press = c
    st.events.append(ev("press_taken", seat=c))


def r_red_cross(st, m, c, _):
    st.rc = m
    st.events.append(ev("red_cross", hex=at(st.geo, m)))


def r_farmer(st, m, c, choice):
    farmers.resolve(st, m, c, choice)


# --- barracks placement with running out (ruling T10) -----------------------------------
def need_barracks(st, c: int, then: dict) -> None:
    """Carry out `then` with a barracks from the reserve, or ask which barracks to take back first."""
    if st.tiles_left[c] > 0:
        finish_placement(st, c, then)
    else:
        st.pending = {"k": "take_back", "then": then}


def takeback_options(st, c: int, then: dict) -> list[int]:
    """Barracks that may be taken back for `then` without a dead end (Law #7)."""
    cands = takeback_candidates(st, c)
    h = then.get("cell")
    do = then["do"]
    if do in ("build", "place", "enter"):
        cands = [b for b in cands if still_next_to_battlefield(st, h, b)]
    if do == "enter":
        from .turn import enter_has_card
        cands = [b for b in cands if _with_taken_back(st, b, lambda: enter_has_card(st, h, c))]
    return cands


def _with_taken_back(st, b: int, check) -> bool:
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
    from .movement import lift_tile
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
        from .turn import after_entry
        after_entry(st, c, x, do)


# --- tables ---------------------------------------------------------------------------------
KIND = {name: TARGET for name in (
    "bayonet", "short_range", "long_range", "grenade", "mortar_attack", "slingshot", "advance",
    "underground_maneuver", "motorbike_patrol", "tunnel", "decoy", "build_barracks", "abandoned_barracks",
    "conquest", "betrayal", "new_soldier", "prisoner_of_war", "medal_of_honor")}
KIND.update(panic_attack=DIRECTION, press_support=NO_CHOICE, red_cross=NO_CHOICE, farmer=TARGET)

TARGETS = {card: globals()["t_" + card] for card in KIND}
RESOLVE = {card: globals()["r_" + card] for card in KIND}


def _any_free_space(st) -> bool:
    tile, bf, nb = st.tile, st.bf, st.geo.nb
    for i, b in enumerate(bf):
        if b:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    return True
    return False


def _p_build_barracks(st, m, c):
    return _any_free_space(st) if st.tiles_left[c] > 0 else bool(t_build_barracks(st, m, c))


def _p_medal_of_honor(st, m, c):
    return st.mole.count(c) > 1


def _p_tunnel(st, m, c):
    code = BARRACKS + c
    tile, mole = st.tile, st.mole
    if tile[m] != code:
        return False
    return any(t == code and mole[x] < 0 for x, t in enumerate(tile))


# Quick yes/no answers for cards whose full list of choices is costly to build.
PLAYABLE = {"build_barracks": _p_build_barracks, "medal_of_honor": _p_medal_of_honor, "tunnel": _p_tunnel}


def targets(st, card: str, m: int, c: int) -> list:
    """The choices of `card` played on the mole at m by colour c; empty when it cannot be played."""
    fn = TARGETS.get(card)
    return fn(st, m, c) if fn is not None else []


def playable(st, card: str, m: int, c: int) -> bool:
    """Whether `card` can be carried out on the mole at m (Law of War #7)."""
    quick = PLAYABLE.get(card)
    if quick is not None:
        return quick(st, m, c)
    return bool(targets(st, card, m, c))


def resolve(st, card: str, m: int, c: int, choice) -> None:
    """Carry out the card with its choice; follow-up decisions land in st.pending."""
    st.pending = None
    RESOLVE[card](st, m, c, choice)


