"""Card effects (ruling T14): which choices each card offers on the active mole, and carrying them out.

Every `targets` function returns only choices that can be carried out to the end (Law of War #7);
a card is playable exactly when its list is not empty.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from . import board as B
from . import farmers
from .barracks import has_barracks_source, need_barracks, placement_spaces
from .board import BARRACKS, NONE, ROCK, STANDALONE, at, cells_of, ev
from .movement import BLOCKED, arrive, direction_to, lose_mole, push, remove_square, reveal_crate, trace

# How a card's choice is asked: nothing, a hex, or a direction.
NO_CHOICE, TARGET, DIRECTION = "none", "target", "direction"


def rival_at(state, cell: int, seat: int) -> bool:
    """An unprotected rival mole stands on `cell` (ruling T14: Red Cross shields it from the card)."""
    o = state.mole[cell] if cell >= 0 else -1
    return o >= 0 and o != seat and state.rc != cell


# --- per-card choices --------------------------------------------------------------
def _adjacent(state, mole_cell):
    return [x for x in state.geo.nb[mole_cell] if x >= 0]


def adjacent_rivals_choices(state, mole_cell, seat):
    return [x for x in _adjacent(state, mole_cell) if rival_at(state, x, seat)]


def betrayal_choices(state, mole_cell, seat):
    return adjacent_rivals_choices(state, mole_cell, seat) if state.moles_left[seat] > 0 else []


def long_range_choices(state, mole_cell, seat):
    out = []
    nb, mole, feat = state.geo.nb, state.mole, state.feat
    for d in range(6):
        x = mole_cell
        for k in (1, 2, 3):
            x = nb[x][d]
            if x < 0:
                break
            if mole[x] >= 0:
                if k >= 2 and rival_at(state, x, seat):
                    out.append(x)
                break
            if state.rc == x or feat[x] == ROCK:
                break
    return out


def grenade_choices(state, mole_cell, seat):
    return [x for x in _adjacent(state, mole_cell) if state.tile[x] >= 0]


def _ring2(state, mole_cell):
    nb = state.geo.nb
    out = []
    for d in range(6):
        a = nb[mole_cell][d]
        if a >= 0:
            b = nb[a][d]
            if b >= 0:
                out.append((b, d))
    return out


def mortar_attack_choices(state, mole_cell, seat):
    return [x for x, _ in _ring2(state, mole_cell) if state.tile[x] >= 0]


def slingshot_choices(state, mole_cell, seat):
    return [x for x, _ in _ring2(state, mole_cell) if rival_at(state, x, seat)]


def advance_choices(state, mole_cell, seat):
    nb, tile = state.geo.nb[mole_cell], state.tile
    return [x for d, x in enumerate(nb) if x >= 0 and tile[x] >= 0 and trace(state, x, d, seat)[0] != BLOCKED]


def underground_maneuver_choices(state, mole_cell, seat):
    return [x for x, d in _ring2(state, mole_cell) if state.tile[x] >= 0 and trace(state, x, d, seat)[0] != BLOCKED]


def motorbike_patrol_choices(state, mole_cell, seat):
    out = []
    nb, tile, mole, feat = state.geo.nb, state.tile, state.mole, state.feat
    for d in range(6):
        a = nb[mole_cell][d]
        if a < 0 or tile[a] < 0 or feat[a] == ROCK:
            continue
        if mole[a] >= 0 and (mole[a] == seat or state.rc == a):
            continue  # her own mole or a protected one blocks the way (ruling T14)
        b = nb[a][d]
        if b >= 0 and tile[b] >= 0 and trace(state, b, d, seat)[0] != BLOCKED:
            out.append(b)
    return out


def panic_attack_choices(state, mole_cell, seat):
    """Directions in which at least one mole would really be pushed."""
    out = []
    nb, mole = state.geo.nb, state.mole
    for d in range(6):
        x = nb[mole_cell][d]
        while x >= 0:
            if mole[x] >= 0 and not (state.rc == x and mole[x] != seat):
                if trace(state, nb[x][d], d, seat)[0] != BLOCKED:
                    out.append(d)
                    break
            x = nb[x][d]
    return out


def tunnel_choices(state, mole_cell, seat):
    """Another free barracks of hers "anywhere in the battlefield": never one on an outpost (ruling T21)."""
    code = BARRACKS + seat
    tile, mole, bf = state.tile, state.mole, state.bf
    if tile[mole_cell] != code:
        return []
    return [x for x in range(len(tile)) if tile[x] == code and x != mole_cell and mole[x] < 0 and bf[x]]


def decoy_choices(state, mole_cell, seat):
    return [
        x for x in _adjacent(state, mole_cell) if BARRACKS <= state.tile[x] < STANDALONE and rival_at(state, x, seat)
    ]


def build_barracks_choices(state, mole_cell, seat):
    return placement_spaces(state, seat)


def abandoned_barracks_choices(state, mole_cell, seat):
    if not has_barracks_source(state, seat):
        return []
    return [x for x in _adjacent(state, mole_cell) if state.tile[x] < 0]


def conquerable(state, cell: int, seat: int) -> bool:
    t = state.tile[cell]
    return (
        0 <= t < STANDALONE
        and t != BARRACKS + seat
        and state.mole[cell] < 0
        and (state.feat[cell] == NONE or state.feat[cell] >= B.CRATE)
    )


def conquest_choices(state, mole_cell, seat):
    xs = [x for x in _adjacent(state, mole_cell) if conquerable(state, x, seat)]
    if xs and not has_barracks_source(state, seat):
        xs = [x for x in xs if state.tile[x] == seat]  # her own neutral tile turns over at no cost
    return xs


def new_soldier_choices(state, mole_cell, seat):
    if state.moles_left[seat] <= 0:
        return []
    return [
        x
        for x, d in _ring2(state, mole_cell)
        if state.tile[x] >= 0 and state.feat[x] != ROCK and not (state.rc == x and state.mole[x] >= 0)
    ]


def has_mole_on_battlefield(state, seat: int, but: int = -1) -> bool:
    """One of her moles, other than the one on `but`, stands on a battlefield square (not an outpost, ruling T21)."""
    bf = state.bf
    return any(bf[x] and x != but for x in cells_of(state.mole, seat))


def medal_of_honor_choices(state, mole_cell, seat):
    """Another of her moles on the battlefield (T14); one on an outpost is not on it (ruling T21)."""
    bf = state.bf
    return [x for x in cells_of(state.mole, seat) if bf[x] and x != mole_cell]


def press_support_choices(state, mole_cell, seat):
    return [None] if state.press != seat else []


def red_cross_choices(state, mole_cell, seat):
    return [None] if state.rc != mole_cell else []


def farmer_choices(state, mole_cell, seat):
    return farmers.targets(state, mole_cell, seat)


# --- carrying out -------------------------------------------------------------------
def bayonet_effect(state, mole_cell, seat, cell):
    lose_mole(state, cell, seat, why="bayonet")
    arrive(state, seat, mole_cell, cell, direction_to(state, mole_cell, cell), seat)


def shoot_effect(state, mole_cell, seat, cell):
    lose_mole(state, cell, seat, why="shot")


def destroy_square_effect(state, mole_cell, seat, cell):
    state.events.append(ev("square_destroyed", hex=at(state.geo, cell)))
    remove_square(state, cell, seat)


def advance_onto_effect(state, mole_cell, seat, cell):
    arrive(state, seat, mole_cell, cell, direction_to(state, mole_cell, cell), seat)


def motorbike_patrol_effect(state, mole_cell, seat, cell):
    d = direction_to(state, mole_cell, cell)
    a = state.geo.nb[mole_cell][d]
    if state.mole[a] >= 0:
        lose_mole(state, a, seat, why="run_over")
    arrive(state, seat, mole_cell, cell, d, seat)


def panic_attack_effect(state, mole_cell, seat, direction):
    nb = state.geo.nb
    ray = []
    x = nb[mole_cell][direction]
    while x >= 0:
        ray.append(x)
        x = nb[x][direction]
    for x in reversed(ray):  # farthest first (ruling T14)
        push(state, x, direction, seat)


def tunnel_effect(state, mole_cell, seat, cell):
    arrive(state, seat, mole_cell, cell, None, seat)


def decoy_effect(state, mole_cell, seat, cell):
    mole, flag = state.mole, state.mflag
    mole[mole_cell], mole[cell] = mole[cell], mole[mole_cell]
    flag[mole_cell], flag[cell] = flag[cell], flag[mole_cell] | B.FRESH
    for y in (mole_cell, cell):
        if state.feat[y] >= B.CRATE:
            reveal_crate(state, mole[y], y)


def build_barracks_effect(state, mole_cell, seat, cell):
    need_barracks(state, seat, {"do": "build", "cell": cell})


def abandoned_barracks_effect(state, mole_cell, seat, cell):
    need_barracks(state, seat, {"do": "abandoned", "cell": cell, "m": mole_cell})


def conquest_effect(state, mole_cell, seat, cell):
    if state.tile[cell] == seat:
        state.tile[cell] = BARRACKS + seat
        state.events.append(ev("conquest", seat=seat, hex=at(state.geo, cell)))
    else:
        need_barracks(state, seat, {"do": "conquest", "cell": cell})


def betrayal_effect(state, mole_cell, seat, cell):
    lose_mole(state, cell, seat, why="betrayed")
    arrive(state, seat, -1, cell, None, seat)


def new_soldier_effect(state, mole_cell, seat, cell):
    arrive(state, seat, -1, cell, direction_to(state, mole_cell, cell), seat)


def prisoner_of_war_effect(state, mole_cell, seat, cell):
    o = state.mole[cell]
    state.mole[cell] = -1
    state.mflag[cell] = 0
    state.prisoners[seat][o] += 1
    state.events.append(ev("prisoner", seat=o, hex=at(state.geo, cell)))


def medal_of_honor_effect(state, mole_cell, seat, cell):
    state.mole[cell] = -1
    state.mflag[cell] = 0
    state.moles_left[seat] += 1
    state.medals[seat] += 3
    state.events.append(ev("medal_of_honor", hex=at(state.geo, cell)))


def press_support_effect(state, mole_cell, seat, _):
    state.press = seat
    state.events.append(ev("press_taken", seat=seat))


def red_cross_effect(state, mole_cell, seat, _):
    state.rc = mole_cell
    state.events.append(ev("red_cross", hex=at(state.geo, mole_cell)))


def farmer_effect(state, mole_cell, seat, choice):
    farmers.resolve(state, mole_cell, seat, choice)


# --- the table of cards ----------------------------------------------------------------------
class CardEffect(NamedTuple):
    """How a card asks for its choice, the choices it offers, and carrying it out with one."""

    asks: str  # NO_CHOICE, TARGET or DIRECTION
    choices: Callable[..., list]  # (state, mole_cell, seat) -> choices, [None] when none is asked
    carry_out: Callable[..., None]  # (state, mole_cell, seat, choice)


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


def _any_free_space(state) -> bool:
    tile, bf, nb = state.tile, state.bf, state.geo.nb
    for i, b in enumerate(bf):
        if b:
            for j in nb[i]:
                if j >= 0 and tile[j] < 0:
                    return True
    return False


def _p_build_barracks(state, mole_cell, seat):
    if state.tiles_left[seat] > 0:
        return _any_free_space(state)
    return bool(build_barracks_choices(state, mole_cell, seat))


def _p_medal_of_honor(state, mole_cell, seat):
    return has_mole_on_battlefield(state, seat, but=mole_cell)


def _p_tunnel(state, mole_cell, seat):
    code = BARRACKS + seat
    tile, mole, bf = state.tile, state.mole, state.bf
    if tile[mole_cell] != code:
        return False
    return any(t == code and mole[x] < 0 and bf[x] for x, t in enumerate(tile))


# Quick yes/no answers for cards whose full list of choices is costly to build.
PLAYABLE = {"build_barracks": _p_build_barracks, "medal_of_honor": _p_medal_of_honor, "tunnel": _p_tunnel}


def targets(state, card: str, mole_cell: int, seat: int) -> list:
    """The choices of `card` played on the mole at `mole_cell` by `seat`; empty when it cannot be played."""
    effect = CARD_EFFECTS.get(card)
    return effect.choices(state, mole_cell, seat) if effect is not None else []


def playable(state, card: str, mole_cell: int, seat: int) -> bool:
    """Whether `card` can be carried out on the mole at `mole_cell` (Law of War #7)."""
    quick = PLAYABLE.get(card)
    if quick is not None:
        return quick(state, mole_cell, seat)
    return bool(targets(state, card, mole_cell, seat))


def resolve(state, card: str, mole_cell: int, seat: int, choice) -> None:
    """Carry out the card with its choice; follow-up decisions land in state.pending."""
    state.pending = None
    CARD_EFFECTS[card].carry_out(state, mole_cell, seat, choice)
