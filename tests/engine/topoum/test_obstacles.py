"""The four obstacles of the expert variant (rulebook section 6, rulings T12, T16, T18): rock, puddle, gas, ice.

Obstacle tiles are squares by themselves. Red's mole starts on her barracks at (-1, 0); a second red
mole at (3, 0) is used to read lines of sight along the row r = 0.
"""

from __future__ import annotations

import topoum_asserts as asserts
from topoum_asserts import (
    BLUE,
    RED,
    START,
    A,
    choices,
    end_turn_gain,
    feature,
    field,
    go,
    has_tile,
    medals,
    moles_of,
    move,
    move_targets,
    offered,
    play,
    red_holding,
    reserve,
)
from topoum_positions import Position, do


def red_to_act(**kw):
    """The usual field with Red to act, in the expert variant (obstacles)."""
    return asserts.red_to_act(obstacles=True, **kw)


def line_over(kind):
    """Red at (-2, 0) moves onto her barracks (-1, 0) and changes nothing else; Red at (2, 0); `kind` on (0, 0).

    The moved mole makes the line (-1, 0)..(2, 0) new, so it scores at the end of the turn (T18).
    """
    pos = Position(players=2, obstacles=True)
    field(pos)
    pos.obstacle(kind, A)
    pos.barracks(RED, (-2, 0)).mole(RED, (-2, 0)).mole(RED, (2, 0))
    st = red_holding(pos, ["build_barracks"])
    move(st, (-2, 0), START)
    do(st, type="change_tile")  # (-1, 0) becomes a red barracks: the line gets 1 bonus medal
    return st


# --- Rock ---------------------------------------------------------------------------------------
def test_no_mole_can_move_onto_a_rock():
    pos = red_to_act().obstacle("rock", A)
    st = red_holding(pos, ["advance"])
    assert A not in move_targets(st, START)
    assert (-2, 0) in move_targets(st, START)


def test_a_mole_pushed_towards_a_rock_is_not_moved():
    # east of (0, 0): a blue mole, the rock, another blue mole beyond it
    pos = red_to_act().obstacle("rock", (2, 0)).neutral((3, 0), colour=2).mole(BLUE, (1, 0), (3, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=0)
    assert moles_of(st, BLUE) == {(1, 0)}  # stays against the rock; (3, 0) is pushed off the field
    assert feature(st, (2, 0)) == "rock"


def test_a_rock_blocks_lines_of_sight():
    st = line_over("rock")
    assert end_turn_gain(st, RED) == 0


# --- Puddle ---------------------------------------------------------------------------------------
def test_a_mole_moved_onto_a_puddle_is_eliminated_with_the_friendly_fire_penalty():
    pos = red_to_act().obstacle("puddle", A)
    st = red_holding(pos, ["advance"])
    assert A in move_targets(st, START)
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert reserve(st, RED) == 4
    assert medals(st, RED) == 5
    assert feature(st, A) == "puddle"


def test_a_rival_pushed_into_a_puddle_is_eliminated_without_penalty():
    pos = red_to_act().obstacle("puddle", (2, 0)).mole(BLUE, (1, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=0)
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert medals(st, RED) == 10


def test_a_puddle_does_not_block_lines_of_sight():
    st = line_over("puddle")
    # (-1,0) (0,0) (1,0) (2,0): 4 squares + 1 red barracks
    assert end_turn_gain(st, RED) == 5


# --- Gas ------------------------------------------------------------------------------------------------
def test_a_mole_moved_onto_gas_is_eliminated():
    pos = red_to_act().obstacle("gas", A)
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5


def test_gas_does_not_block_lines_of_sight_but_takes_one_medal_off_them():
    st = line_over("gas")
    assert end_turn_gain(st, RED) == 4  # 4 squares + 1 red barracks - 1 for the gas


# --- Ice ------------------------------------------------------------------------------------------------
def test_a_mole_stepping_on_ice_slides_on_to_the_next_square():
    pos = red_to_act().obstacle("ice", A)
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == {(1, 0)}
    assert medals(st, RED) == 10
    assert "advance" in offered(st)  # it landed on a free square: the usual card decision follows


def test_a_mole_sliding_off_the_battlefield_is_eliminated():
    pos = red_to_act(without=[(1, 0)]).obstacle("ice", A)
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5


def test_a_mole_sliding_towards_a_rock_stops_on_the_ice():
    pos = red_to_act().obstacle("ice", A).obstacle("rock", (1, 0)).mole(BLUE, (0, 1))
    st = red_holding(pos, ["short_range"])
    move(st, START, A)
    assert moles_of(st, RED) == {A}
    assert choices(st, "short_range") == {(0, 1)}


def test_a_mole_sliding_into_a_rival_is_fair_combat_and_into_her_own_costs_ten():
    pos = red_to_act().obstacle("ice", A).mole(BLUE, (1, 0))
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == set() and moles_of(st, BLUE) == set()
    assert medals(st, RED) == 10

    pos = red_to_act().obstacle("ice", A).mole(RED, (1, 0))
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 0


def test_ice_does_not_block_lines_of_sight():
    st = line_over("ice")
    assert end_turn_gain(st, RED) == 5


# --- Obstacles as squares --------------------------------------------------------------------------
def test_a_grenade_destroys_an_obstacle_tile():
    pos = red_to_act().obstacle("rock", (1, 0)).mole(BLUE, (2, 0))
    st = go(pos, ["grenade"])
    assert (1, 0) in choices(st, "grenade")
    play(st, "grenade", (1, 0))
    assert not has_tile(st, (1, 0))
    assert feature(st, (1, 0)) is None


def test_a_mole_pushed_onto_ice_slides_on():
    # T16: "a mole entering keeps sliding", whether it walks or is pushed (T14 Panic Attack)
    pos = red_to_act().obstacle("ice", (2, 0)).mole(BLUE, (1, 0)).mole(BLUE, (0, 2))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=0)
    assert moles_of(st, BLUE) == {(0, 2)}  # (1,0) -> ice (2,0) -> (3,0): no tile, lost
    assert reserve(st, BLUE) == 3


def test_a_mole_moved_off_the_battlefield_is_missing_in_combat():
    # Law #3 and T12: a space without a tile; her own mole, so Law #5 costs 5
    pos = Position(players=2, obstacles=True)
    pos.neutral(A, (1, 0), colour=3).barracks(RED, START).mole(RED, START).mole(BLUE, (1, 0))
    st = red_holding(pos, ["advance"])
    assert (-2, 0) in move_targets(st, START)
    move(st, START, (-2, 0))
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5
