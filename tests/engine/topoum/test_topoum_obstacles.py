"""The four obstacles of the expert variant (ruling T16), with pushes and Red Cross."""

from __future__ import annotations

from topoum_positions import Position, activate, acts, card_plays, do, hexes, mole_at, play

from engine.topoum import board as B
from engine.topoum.scoring import lines

RED, BLUE = 0, 1


def strip(*extra):
    return Position(obstacles=True).neutral(*[(q, 0) for q in range(-2, 5)], *extra, colour=2)


# --- rock ------------------------------------------------------------------------------------------
def test_rock_cannot_be_entered_and_blocks_lines():
    st = strip().clear((1, 0)).obstacle("rock", (1, 0)).mole(RED, (0, 0), (2, 0)).build(cur=RED)
    assert not acts(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert lines(st, RED) == []


def test_rock_stops_a_push():
    pos = strip((0, 1), (0, 2)).clear((3, 0)).obstacle("rock", (3, 0)).mole(RED, (-1, 0))
    pos.mole(BLUE, (2, 0), (0, 1), (1, 0)).hand(RED, ["panic_attack"])
    st = pos.build(cur=RED)
    activate(st)
    play(st, "panic_attack")
    assert {a["dir"] for a in acts(st, type="direction")} == {0, 5}
    do(st, type="direction", dir=0)
    # (2,0) stays before the rock, so (1,0) is pushed onto it: both Blue moles are lost
    assert mole_at(st, (2, 0)) == -1 and mole_at(st, (1, 0)) == -1 and st.moles_left[BLUE] == 3


def test_rock_not_offered_as_a_target_square_for_moves_by_cards():
    pos = strip().clear((1, 0)).obstacle("rock", (1, 0)).mole(RED, (-1, 0)).hand(RED, ["advance"])
    st = pos.build(cur=RED)
    activate(st)
    play(st, "advance")
    assert (1, 0) not in hexes(st)


# --- puddle and gas ---------------------------------------------------------------------------------
def test_puddle_swallows_a_mole_but_not_the_line():
    pos = strip().clear((1, 0)).obstacle("puddle", (1, 0)).mole(RED, (0, 0), (2, 0))
    st = pos.build(cur=RED)
    assert [v for _, _, v in lines(st, RED)] == [3]
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (0, 0)) == -1 and st.medals[RED] == 5 and st.moles_left[RED] == 3


def test_gas_swallows_a_mole_and_costs_lines_a_medal():
    pos = strip().clear((1, 0)).obstacle("gas", (1, 0)).mole(RED, (0, 0), (2, 0))
    st = pos.build(cur=RED)
    assert [v for _, _, v in lines(st, RED)] == [3 - 1]
    do(st, type="move", **{"from": [2, 0], "to": [1, 0]})
    assert st.medals[RED] == 5


def test_pushed_into_gas_by_a_rival_costs_the_pusher_nothing():  # Law #5 is for one's own moles
    pos = strip().clear((2, 0)).obstacle("gas", (2, 0)).mole(RED, (-1, 0)).mole(BLUE, (1, 0))
    st = pos.hand(RED, ["panic_attack"]).build(cur=RED)
    activate(st)
    play(st, "panic_attack", dir=0)
    assert BLUE not in st.mole and st.medals == [10, 10]


# --- ice ---------------------------------------------------------------------------------------------
def test_ice_slides_a_mole_to_the_far_side():
    pos = strip().clear((1, 0)).obstacle("ice", (1, 0)).mole(RED, (0, 0)).hand(RED, ["advance"])
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (2, 0)) == RED and st.pending["m"] == st.geo.cell((2, 0))


def test_ice_off_the_battlefield_loses_the_mole():
    pos = Position(obstacles=True).neutral((0, 0)).obstacle("ice", (1, 0)).mole(RED, (0, 0))
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert RED not in st.mole and st.medals[RED] == 5


def test_ice_stops_before_a_rock():
    pos = strip().clear((1, 0), (2, 0)).obstacle("ice", (1, 0)).obstacle("rock", (2, 0)).mole(RED, (0, 0))
    st = pos.hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (1, 0)) == RED
    assert {"type": "change_tile"} not in acts(st)  # the ice is no base tile


def test_ice_into_a_mole_is_a_collision():
    pos = strip().clear((1, 0)).obstacle("ice", (1, 0)).mole(RED, (0, 0)).mole(BLUE, (2, 0))
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert RED not in st.mole and BLUE not in st.mole and st.medals == [10, 10]


def test_ice_stops_before_a_protected_rival():  # ruling T15
    pos = strip().clear((1, 0)).obstacle("ice", (1, 0)).mole(RED, (0, 0)).mole(BLUE, (2, 0)).red_cross((2, 0))
    st = pos.hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (1, 0)) == RED and mole_at(st, (2, 0)) == BLUE


def test_ice_does_not_block_lines():
    pos = strip().clear((1, 0)).obstacle("ice", (1, 0)).mole(RED, (0, 0), (2, 0))
    assert [v for _, _, v in lines(pos.build(), RED)] == [3]


def test_obstacles_can_be_blown_up():  # ruling T16
    pos = strip().clear((1, 0)).obstacle("rock", (1, 0)).mole(RED, (-1, 0)).hand(RED, ["grenade"])
    st = pos.build(cur=RED)
    activate(st)
    play(st, "grenade", hex=[1, 0])
    assert st.tile[st.geo.cell((1, 0))] == -1 and st.feat[st.geo.cell((1, 0))] == B.NONE
    assert st.pool == 0  # an obstacle tile leaves the game


def test_a_protected_rival_is_not_pushed_into_gas():  # ruling T15
    pos = strip().clear((2, 0)).obstacle("gas", (2, 0)).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).red_cross((1, 0))
    st = pos.hand(RED, ["panic_attack", "build_barracks"]).build(cur=RED)
    activate(st)
    assert not card_plays(st, "panic_attack")
    assert mole_at(st, (1, 0)) == BLUE


def test_obstacle_tiles_are_no_base_tiles():
    pos = strip().clear((1, 0), (-1, 0)).obstacle("puddle", (1, 0)).obstacle("gas", (-1, 0))
    pos.neutral((0, 1)).mole(RED, (0, 1)).hand(RED, ["conquest", "build_barracks"])
    st = pos.build(cur=RED)
    activate(st, (0, 1), (0, 0))
    play(st, "conquest")
    assert not {(1, 0), (-1, 0)} & hexes(st)


def test_a_mole_may_stand_on_ice_under_the_red_cross():
    pos = strip().clear((1, 0), (2, 0)).obstacle("ice", (1, 0)).obstacle("rock", (2, 0)).mole(RED, (0, 0))
    st = pos.red_cross((1, 0)).hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (1, 0)) == RED and st.rc == st.geo.cell((1, 0))
