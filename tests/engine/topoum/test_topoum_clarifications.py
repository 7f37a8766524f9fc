"""Ruling T21, the clarifications: outposts and T9, ransom, T10's bare barracks, Lord of the Crates,
an action step that would only cost her own moles, and where the obstacle farmers may drop their tiles.

Options (obstacles with an obstacle farmer) are tested in test_topoum_setup.py; Lord of the Crates'
optional crate in test_farmers.py (test_lord_of_the_crates_gives_a_medal_and_a_crate_under_...) and
test_topoum_farmers.py; ransom without 3 medals in test_topoum_turn.py.
"""

from __future__ import annotations

import pytest
from topoum_asserts import copy, disc, go, medals, moles_of, red_to_act
from topoum_positions import Position, acts, do, hexes, mole_at, tile_at

from engine.topoum import board as B

RED, BLUE = 0, 1


def types(st) -> set[str]:
    return {a["type"] for a in acts(st)}


# --- T9: a mole on an outpost is not on the battlefield ------------------------------------------
def red_only_on_an_outpost(**reserve):
    """The battlefield (0,0)-(1,0) holds Blue's mole; Red's only mole stands on the outpost (-3,0)."""
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    pos.neutral((-3, 0), colour=RED).outpost((-3, 0)).mole(RED, (-3, 0)).hand(RED, ["advance"])
    for colour, count in reserve.items():
        pos.reserve_tiles(colour, count)  # colour: "red"
    return pos.build(cur=RED)


def test_a_mole_on_an_outpost_does_not_spare_the_compulsory_placement():  # rulings T9, T21
    st = red_only_on_an_outpost()
    assert types(st) == {"place"}
    assert hexes(st, type="place") == {(-1, 0), (-1, 1), (0, -1), (1, -1), (2, -1), (2, 0), (1, 1), (0, 1)}
    do(st, type="place", hex=[-1, 0])
    assert mole_at(st, (-1, 0)) == RED and tile_at(st, (-1, 0)) == B.BARRACKS + RED
    # the placed mole may move this turn (T9); the one on the outpost does not (ruling T21, turn 3)
    assert {tuple(a["from"]) for a in acts(st, type="move")} == {(-1, 0)}


def test_with_no_barracks_to_place_the_outpost_mole_stays_and_she_ends_her_turn():  # rulings T9, T10, T12, T21
    # No barracks in reserve and none on the battlefield to take back: the placement is not available
    # (T10), so the action step is hers as usual; the mole on the outpost is no mole of the battlefield and
    # does not move (T12, ruling T21 turn 3), so she has no action and ends her turn (T9).
    st = red_only_on_an_outpost(red=0)
    assert types(st) == {"end_turn"}
    do(st, type="end_turn")
    assert st.cur == BLUE and moles_of(st, RED) == {(-3, 0)} and medals(st, RED) == 10


# --- the action step when every action costs one of her own moles -------------------------------------
def red_cornered(*extra_squares):
    """Red's mole on (0,0) next to Blue's on (1,0) and nothing else: every step is combat or a fall."""
    pos = Position().neutral((0, 0), colour=2).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).mole(RED, (0, 0))
    pos.neutral(*extra_squares, colour=2)
    return pos.build(cur=RED)  # no card in hand or Line: she cannot enter into combat (T11, Law #7)


def test_she_may_end_her_turn_when_every_action_would_eliminate_one_of_her_moles():  # ruling T21
    st = red_cornered()
    assert types(st) == {"move", "end_turn"}
    assert len(acts(st, type="move")) == 6  # into combat (1,0) or off the battlefield: all lose her mole
    do(st, type="end_turn")
    assert st.cur == BLUE and mole_at(st, (0, 0)) == RED and medals(st, RED) == 10


def test_she_may_still_choose_to_lose_the_mole():  # ruling T21: ending is allowed, not forced
    st = red_cornered()
    do(st, type="move", **{"from": [0, 0], "to": [-1, 0]})  # off the battlefield: Law #5
    assert medals(st, RED) == 5 and mole_at(st, (0, 0)) == -1


def test_one_move_that_keeps_her_moles_alive_makes_the_action_step_compulsory():  # rulings T9, T21
    st = red_cornered((-1, 0))
    assert types(st) == {"move"}
    do(st, type="move", **{"from": [0, 0], "to": [-1, 0]})
    assert mole_at(st, (-1, 0)) == RED


def test_entering_into_combat_keeps_the_action_step_compulsory():  # rulings T11, T21
    pos = Position().neutral((0, 0), colour=2).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).mole(RED, (0, 0))
    st = pos.hand(RED, ["build_barracks"]).build(cur=RED)
    assert types(st) == {"enter", "move"}


# --- ransom: 3 medals in hand -----------------------------------------------------------------------------
def test_a_ransom_is_paid_from_three_medals_and_never_goes_below_zero():  # rulings T9, T21
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).barracks(RED, (-1, 0))
    pos.mole(RED, (-1, 0)).prisoners(BLUE, RED, 2).hand(RED, ["advance"]).medals(RED, 3)
    st = pos.build(cur=RED)
    do(st, type="ransom", captor=BLUE)
    assert medals(st, RED) == 0 and medals(st, BLUE) == 13
    assert not acts(st, type="ransom") and st.prisoners[BLUE][RED] == 1


# --- T10: a barracks carrying something stays -------------------------------------------------------------
@pytest.mark.parametrize(
    "farmer,cover",
    [
        ("lord_of_the_crates", lambda pos, h: pos.crate(0, h)),
        ("queen_of_nature", lambda pos, h: pos.feature("turnip", h)),
        (None, lambda pos, h: pos.red_cross(h)),
    ],
)
def test_a_barracks_under_a_crate_a_farmer_tile_or_the_red_cross_is_not_taken_back(farmer, cover):  # T10, T21
    # Red has no barracks in reserve; two of hers end the strip, one covered, one bare.
    pos = Position(farmer=farmer).neutral(*[(q, 0) for q in range(-2, 3)], colour=2)
    pos.barracks(RED, (-3, 0), (3, 0)).mole(RED, (1, 0)).reserve_tiles(RED, 0).hand(RED, ["grenade"])
    cover(pos, (3, 0))
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[0, -1])
    assert hexes(st, type="take_back") == {(-3, 0)}


def test_with_only_covered_barracks_there_is_nothing_to_take_back():  # rulings T10, T21
    pos = Position(farmer="lord_of_the_crates").neutral(*[(q, 0) for q in range(-2, 3)], colour=2)
    pos.barracks(RED, (3, 0)).crate(0, (3, 0)).mole(RED, (1, 0)).reserve_tiles(RED, 0).hand(RED, ["grenade"])
    st = pos.build(cur=RED)
    assert not acts(st, type="enter")


# --- The Crusher, The Sprayer, Trap Master: battlefield squares only -----------------------------------
@pytest.mark.parametrize("farmer,kind", [("the_crusher", "rock"), ("the_sprayer", "gas"), ("trap_master", "trap")])
def test_obstacle_and_trap_farmers_never_drop_their_tile_on_an_outpost(farmer, kind):  # rulings T17, T21
    # (0, 3) is a bare outpost (its zone tile has gone); the field is the disc of radius 1
    pos = red_to_act(farmer=farmer, radius=1).neutral((3, 0), (0, 3), colour=2).outpost((3, 0), (0, 3))
    if kind == "trap":
        pos.pool(1)
    else:
        pos.feature(kind, (3, 0))
    st = go(pos, ["farmer"])
    trial = copy(st)
    do(trial, type="play", card="farmer", source="hand")
    targets = hexes(trial, type="target")
    assert targets and (0, 3) not in targets and (3, 0) not in targets
    assert targets <= set(disc(1))
