"""Card effects (ruling T14): which choices each card offers on the active mole, and carrying them out.

Every `targets` function returns only choices that can be carried out to the end (Law of War #7);
a card is playable exactly when its list is not empty.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from . import board as B
from . import farmers
from .barracks import has_barracks_source, need_barracks, placement_spaces
from .board import BARRACKS, NONE, ROCK, STANDALONE, at, ev
from .movement import BLOCKED, arrive, direction_to, lose_mole, push, remove_square, reveal_crate, trace

# How a card's choice is asked: nothing, a hex, or a direction.
NO_CHOICE, TARGET, DIRECTION = "none", "target", "direction"


def rival_at(st, x: int, c: int) -> bool:
    """An unprotected rival mole stands on x (ruling T14: Red Cross shields it from the card)."""
    o = st.mole[x] if x >= 0 else -1
    return o >= 0 and o != c and st.rc != x


# --- per-card choices --------------------------------------------------------------
def _adjacent(st, m):
    return [x for x in st.geo.nb[m] if x >= 0]


def adjacent_rivals_choices(st, m, c):
    return [x for x in _adjacent(st, m) if rival_at(st, x, c)]


def betrayal_choices(st, m, c):
    return adjacent_rivals_choices(st, m, c) if st.moles_left[c] > 0 else []


def long_range_choices(st, m, c):
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


def grenade_choices(st, m, c):
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


def mortar_attack_choices(st, m, c):
    return [x for x, _ in _ring2(st, m) if st.tile[x] >= 0]


def slingshot_choices(st, m, c):
    return [x for x, _ in _ring2(st, m) if rival_at(st, x, c)]


def advance_choices(st, m, c):
    nb, tile = st.geo.nb[m], st.tile
    return [x for d, x in enumerate(nb) if x >= 0 and tile[x] >= 0 and trace(st, x, d, c)[0] != BLOCKED]


def underground_maneuver_choices(st, m, c):
    return [x for x, d in _ring2(st, m) if st.tile[x] >= 0 and trace(st, x, d, c)[0] != BLOCKED]


def motorbike_patrol_choices(st, m, c):
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


def panic_attack_choices(st, m, c):
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


def tunnel_choices(st, m, c):
    code = BARRACKS + c
    tile, mole = st.tile, st.mole
    if tile[m] != code:
        return []
    return [x for x in range(len(tile)) if tile[x] == code and x != m and mole[x] < 0]


def decoy_choices(st, m, c):
    return [x for x in _adjacent(st, m) if BARRACKS <= st.tile[x] < STANDALONE and rival_at(st, x, c)]


def build_barracks_choices(st, m, c):
    return placement_spaces(st, c)


def abandoned_barracks_choices(st, m, c):
    if not has_barracks_source(st, c):
        return []
    return [x for x in _adjacent(st, m) if st.tile[x] < 0]


def conquerable(st, x: int, c: int) -> bool:
    t = st.tile[x]
    return (0 <= t < STANDALONE and t != BARRACKS + c and st.mole[x] < 0
            and (st.feat[x] == NONE or st.feat[x] >= B.CRATE))


def conquest_choices(st, m, c):
    xs = [x for x in _adjacent(st, m) if conquerable(st, x, c)]
    if xs and not has_barracks_source(st, c):
        xs = [x for x in xs if st.tile[x] == c]  # her own neutral tile turns over at no cost
    return xs


def new_soldier_choices(st, m, c):
    if st.moles_left[c] <= 0:
        return []
    return [x for x, d in _ring2(st, m)
            if st.tile[x] >= 0 and st.feat[x] != ROCK and not (st.rc == x and st.mole[x] >= 0)]


def medal_of_honor_choices(st, m, c):
    mole = st.mole
    return [x for x in range(len(mole)) if mole[x] == c and x != m]


def press_support_choices(st, m, c):
    return [None] if st.press != c else []


def red_cross_choices(st, m, c):
    return [None] if st.rc != m else []


def farmer_choices(st, m, c):
    return farmers.targets(st, m, c)


# --- carrying out -------------------------------------------------------------------
def bayonet_effect(st, m, c, x):
    lose_mole(st, x, c, why="bayonet")
    arrive(st, c, m, x, direction_to(st, m, x), c)


def shoot_effect(st, m, c, x):
    lose_mole(st, x, c, why="shot")


def destroy_square_effect(st, m, c, x):
    st.events.append(ev("square_destroyed", hex=at(st.geo, x)))
    remove_square(st, x, c)


def advance_onto_effect(st, m, c, x):
    arrive(st, c, m, x, direction_to(st, m, x), c)


def motorbike_patrol_effect(st, m, c, x):
    d = direction_to(st, m, x)
    a = st.geo.nb[m][d]
    if st.mole[a] >= 0:
        lose_mole(st, a, c, why="run_over")
    arrive(st, c, m, x, d, c)


def panic_attack_effect(st, m, c, d):
    nb = st.geo.nb
    ray = []
    x = nb[m][d]
    while x >= 0:
        ray.append(x)
        x = nb[x][d]
    for x in reversed(ray):  # farthest first (ruling T14)
        push(st, x, d, c)


def tunnel_effect(st, m, c, x):
    arrive(st, c, m, x, None, c)


def decoy_effect(st, m, c, x):
    mole, flag = st.mole, st.mflag
    mole[m], mole[x] = mole[x], mole[m]
    flag[m], flag[x] = flag[x], flag[m] | B.FRESH
    for y in (m, x):
        if st.feat[y] >= B.CRATE:
            reveal_crate(st, mole[y], y)


def build_barracks_effect(st, m, c, x):
    need_barracks(st, c, {"do": "build", "cell": x})


def abandoned_barracks_effect(st, m, c, x):
    need_barracks(st, c, {"do": "abandoned", "cell": x, "m": m})


def conquest_effect(st, m, c, x):
    if st.tile[x] == c:
        st.tile[x] = BARRACKS + c
        st.events.append(ev("conquest", seat=c, hex=at(st.geo, x)))
    else:
        need_barracks(st, c, {"do": "conquest", "cell": x})


def betrayal_effect(st, m, c, x):
    lose_mole(st, x, c, why="betrayed")
    arrive(st, c, -1, x, None, c)


def new_soldier_effect(st, m, c, x):
    arrive(st, c, -1, x, direction_to(st, m, x), c)


def prisoner_of_war_effect(st, m, c, x):
    o = st.mole[x]
    st.mole[x] = -1
    st.mflag[x] = 0
    st.prisoners[c][o] += 1
    st.events.append(ev("prisoner", seat=o, hex=at(st.geo, x)))


def medal_of_honor_effect(st, m, c, x):
    st.mole[x] = -1
    st.mflag[x] = 0
    st.moles_left[c] += 1
    st.medals[c] += 3
    st.events.append(ev("medal_of_honor", hex=at(st.geo, x)))


def press_support_effect(st, m, c, _):
    st.press = c
    st.events.append(ev("press_taken", seat=c))


def red_cross_effect(st, m, c, _):
    st.rc = m
    st.events.append(ev("red_cross", hex=at(st.geo, m)))


def farmer_effect(st, m, c, choice):
    farmers.resolve(st, m, c, choice)


# --- the table of cards ----------------------------------------------------------------------
class CardEffect(NamedTuple):
    """How a card asks for its choice, the choices it offers, and carrying it out with one."""

    asks: str                                 # NO_CHOICE, TARGET or DIRECTION
    choices: Callable[..., list]              # (state, mole_cell, seat) -> choices, [None] when none is asked
    carry_out: Callable[..., None]            # (state, mole_cell, seat, choice)


CARD_EFFECTS: dict[str, CardEffect] = {
    "bayonet": CardEffect(TARGET, adjacent_rivals_choices, bayonet_effect),
    "short_range": CardEffect(TARGET, adjacent_rivals_choices, shoot_effect),
    "long_range": CardEffect(TARGET, long_range_choices, shoot_effect),
    "grenade": CardEffect(TARGET, grenade_choices, destroy_square_effect),
    "mortar_attack": CardEffect(TARGET, mortar_attack_choices, destroy_square_effect),
    "slingshot": CardEffect(TARGET, slingshot_choices, shoot_effect),
    "advance": CardEffect(TARGET, advance_choices, advance_onto_effect),
    "underground_maneuver": CardEffect(TARGET, underground_maneuver_choices, advance_onto_effect),
    "motorbike_patrol": CardEffect(TARGET, motorbike_patrol_choices, motorbike_patrol_effect),
    "panic_attack": CardEffect(DIRECTION, panic_attack_choices, panic_attack_effect),
    "tunnel": CardEffect(TARGET, tunnel_choices, tunnel_effect),
    "decoy": CardEffect(TARGET, decoy_choices, decoy_effect),
    "build_barracks": CardEffect(TARGET, build_barracks_choices, build_barracks_effect),
    "abandoned_barracks": CardEffect(TARGET, abandoned_barracks_choices, abandoned_barracks_effect),
    "conquest": CardEffect(TARGET, conquest_choices, conquest_effect),
    "betrayal": CardEffect(TARGET, betrayal_choices, betrayal_effect),
    "new_soldier": CardEffect(TARGET, new_soldier_choices, new_soldier_effect),
    "prisoner_of_war": CardEffect(TARGET, adjacent_rivals_choices, prisoner_of_war_effect),
    "medal_of_honor": CardEffect(TARGET, medal_of_honor_choices, medal_of_honor_effect),
    "press_support": CardEffect(NO_CHOICE, press_support_choices, press_support_effect),
    "red_cross": CardEffect(NO_CHOICE, red_cross_choices, red_cross_effect),
    "farmer": CardEffect(TARGET, farmer_choices, farmer_effect),
}
KIND = {card: effect.asks for card, effect in CARD_EFFECTS.items()}


def _any_free_space(st) -> bool:
    tile, bf, nb = st.tile, st.bf, st.geo.nb
    for i, b in enumerate(bf):
        if b:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    return True
    return False


def _p_build_barracks(st, m, c):
    return _any_free_space(st) if st.tiles_left[c] > 0 else bool(build_barracks_choices(st, m, c))


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
    effect = CARD_EFFECTS.get(card)
    return effect.choices(st, m, c) if effect is not None else []


def playable(st, card: str, m: int, c: int) -> bool:
    """Whether `card` can be carried out on the mole at m (Law of War #7)."""
    quick = PLAYABLE.get(card)
    if quick is not None:
        return quick(st, m, c)
    return bool(targets(st, card, m, c))


def resolve(st, card: str, m: int, c: int, choice) -> None:
    """Carry out the card with its choice; follow-up decisions land in st.pending."""
    st.pending = None
    CARD_EFFECTS[card].carry_out(st, m, c, choice)


