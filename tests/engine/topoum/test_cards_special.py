"""Special cards (rulebook section 5, rulings T9, T14, T15): prisoners, medals, the Press and the Red Cross.

"Farmer is coming!" is tested farmer by farmer in test_farmers.py.
Red's mole starts on her barracks at (-1, 0) and moves east onto (0, 0), the active mole.
"""

from __future__ import annotations

from topoum_asserts import (
    BLUE,
    RED,
    YELLOW,
    A,
    choices,
    end_turn_gain,
    go,
    medals,
    moles_of,
    move,
    offered,
    play,
    red_cross_at,
    red_to_act,
    reserve,
)
from topoum_positions import acts, do, mole_at


def blue_moves_and_ends(st, frm, to):
    """Blue's whole turn: one move, the tile changed, end of turn."""
    move(st, frm, to)
    do(st, type="change_tile")
    do(st, type="end_turn")


# --- Prisoner of War -----------------------------------------------------------------------------
def test_prisoner_of_war_captures_an_adjacent_rival_which_red_cannot_use():
    pos = red_to_act(players=3).mole(BLUE, (1, 0), (2, 0)).mole(YELLOW, (0, 1))
    st = go(pos, ["prisoner_of_war"])
    assert choices(st, "prisoner_of_war") == {(1, 0), (0, 1)}
    play(st, "prisoner_of_war", (1, 0))
    assert moles_of(st, BLUE) == {(2, 0)}
    assert reserve(st, BLUE) == 2  # not back in Blue's reserve: it is Red's prisoner
    assert reserve(st, RED) == 3  # nor in Red's usable reserve
    assert st.prisoners[0][1] == 1
    assert medals(st, RED) == 10


def test_a_prisoner_is_ransomed_by_its_owner_for_three_medals_at_the_start_of_her_turn():
    # ruling T9: 3 medals to the captor, the mole back to its owner's reserve
    pos = red_to_act().mole(BLUE, (1, 0)).barracks(BLUE, (2, -1)).mole(BLUE, (2, -1))
    st = go(pos, ["prisoner_of_war"])
    play(st, "prisoner_of_war", (1, 0))
    do(st, type="end_turn")
    assert st.cur == 1
    assert acts(st, type="ransom") == [{"type": "ransom", "captor": 0}]
    before_red, before_blue = medals(st, RED), medals(st, BLUE)
    do(st, type="ransom", captor=0)
    assert medals(st, BLUE) == before_blue - 3
    assert medals(st, RED) == before_red + 3
    assert reserve(st, BLUE) == 3
    assert st.prisoners[0][1] == 0


def test_prisoner_of_war_is_not_offered_without_an_adjacent_rival():
    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (1, 0))
    st = go(pos, ["prisoner_of_war", "advance"])
    assert "prisoner_of_war" not in offered(st)


# --- Medal of Honor -------------------------------------------------------------------------------
def test_medal_of_honor_sends_another_own_mole_home_for_three_medals():
    pos = red_to_act().mole(RED, (2, 0), (0, -2)).mole(BLUE, (1, 0))
    st = go(pos, ["medal_of_honor"])
    # her other moles anywhere on the battlefield; never the active mole, never a rival
    assert choices(st, "medal_of_honor") == {(2, 0), (0, -2)}
    play(st, "medal_of_honor", (2, 0))
    assert moles_of(st, RED) == {A, (0, -2)}
    assert reserve(st, RED) == 2
    assert medals(st, RED) == 13


def test_medal_of_honor_is_not_offered_when_the_active_mole_is_her_only_one():
    pos = red_to_act().mole(BLUE, (1, 0))
    st = go(pos, ["medal_of_honor", "short_range"])
    assert "medal_of_honor" not in offered(st)


# --- Press Support -----------------------------------------------------------------------------------
def test_press_support_gives_the_press_and_a_medal_at_the_end_of_every_turn():
    pos = red_to_act().barracks(BLUE, (2, -2)).mole(BLUE, (2, -2))
    st = go(pos, ["press_support"])
    play(st, "press_support")
    assert st.press == 0
    assert end_turn_gain(st, RED) == 1  # Red has one mole: no line, only the Press
    before = medals(st, BLUE)
    red_before = medals(st, RED)
    blue_moves_and_ends(st, (2, -2), (1, -2))
    assert medals(st, RED) == red_before + 1  # at the end of Blue's turn too
    assert medals(st, BLUE) == before


def test_press_support_takes_the_press_from_its_holder():
    pos = red_to_act().press(BLUE).mole(BLUE, (2, -2))
    st = go(pos, ["press_support"])
    play(st, "press_support")
    assert st.press == 0
    blue = medals(st, BLUE)
    do(st, type="end_turn")
    assert medals(st, BLUE) == blue


def test_press_support_is_not_offered_to_the_player_holding_the_press():
    pos = red_to_act().press(RED).mole(BLUE, (1, 0))
    st = go(pos, ["press_support", "short_range"])
    assert "press_support" not in offered(st)


# --- Red Cross -------------------------------------------------------------------------------------
def test_red_cross_moves_the_piece_onto_the_active_mole_from_beside_the_board():
    st = go(red_to_act().mole(BLUE, (1, 0)), ["red_cross"])
    assert red_cross_at(st) is None
    play(st, "red_cross")
    assert red_cross_at(st) == A
    assert mole_at(st, A) == 0


def test_red_cross_moves_the_piece_away_from_another_mole_which_loses_its_protection():
    pos = red_to_act().mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, ["red_cross", "short_range"])
    assert "short_range" not in offered(st)  # (1, 0) is protected for now
    play(st, "red_cross")
    assert red_cross_at(st) == A


def test_red_cross_is_not_offered_when_the_active_mole_already_stands_with_it():
    # the mole moves onto the Red Cross square ("any mole can now enter that square")
    pos = red_to_act().mole(BLUE, (1, 0)).red_cross(A)
    st = go(pos, ["red_cross", "short_range"])
    assert red_cross_at(st) == A
    assert "red_cross" not in offered(st)
    assert "short_range" in offered(st)
