"""The Red Cross (rulebook section 5, rulings T14, T15, T18) against every card, farmer and line of sight.

T15: the mole sharing its square cannot be eliminated, captured, moved into or swapped by a rival's
card; if the square is removed, the Red Cross and that mole leave the board and the remover loses 5
medals; when the mole moves away the Red Cross stays; it blocks lines of sight except those of the
mole on its square. Cards can still be played on a protected active mole (Law #7 note).

Red's mole starts on her barracks at (-1, 0) and moves east onto (0, 0), the active mole.
"""

from __future__ import annotations

import pytest
from topoum_asserts import (
    BLUE,
    EAST,
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
    red_cross_at,
    red_holding,
    red_to_act,
    reserve,
    squares,
)
from topoum_positions import Position, acts, do, mole_at


# --- lines of sight ----------------------------------------------------------------------------
def line_with_red_cross(cross, red_on_cross=False):
    """Red's mole at (-2, 0) moves onto (-1, 0) and turns it into her barracks; Red also at (2, 0)."""
    pos = Position(players=2)
    field(pos)
    pos.barracks(RED, (-2, 0)).mole(RED, (-2, 0))
    pos.mole(RED, cross if red_on_cross else (2, 0)).red_cross(cross)
    st = red_holding(pos, ["advance"])
    move(st, (-2, 0), START)
    do(st, type="change_tile")
    return st


def test_the_red_cross_blocks_a_line_of_sight_like_a_mole():
    st = line_with_red_cross((0, 0))
    assert end_turn_gain(st, RED) == 0


def test_the_mole_under_the_red_cross_keeps_its_own_lines_of_sight():
    st = line_with_red_cross((1, 0), red_on_cross=True)
    # (-1,0) (0,0) (1,0): 3 squares + the red barracks at (-1, 0)
    assert end_turn_gain(st, RED) == 4


# --- rival cards cannot eliminate, capture or swap the protected mole ---------------------------------
@pytest.mark.parametrize("card", ["bayonet", "short_range", "prisoner_of_war", "betrayal"])
def test_adjacent_attacks_are_not_offered_against_a_protected_rival(card):
    pos = red_to_act().mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, [card, "advance"])
    assert card not in offered(st)


@pytest.mark.parametrize("card", ["bayonet", "short_range", "prisoner_of_war", "betrayal", "decoy"])
def test_adjacent_attacks_target_only_the_unprotected_rival(card):
    pos = red_to_act().barracks(BLUE, (1, 0), (0, 1)).mole(BLUE, (1, 0), (0, 1)).red_cross((1, 0))
    st = go(pos, [card])
    assert choices(st, card) == {(0, 1)}
    play(st, card, (0, 1))
    assert mole_at(st, (1, 0)) == 1 and red_cross_at(st) == (1, 0)


def test_decoy_is_not_offered_against_a_protected_rival_on_a_barracks():
    pos = red_to_act().barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, ["decoy", "advance"])
    assert "decoy" not in offered(st)


def test_long_range_spares_the_protected_rival_and_is_stopped_by_an_empty_red_cross():
    pos = red_to_act().mole(BLUE, (2, 0), (0, -2), (-2, 2)).red_cross((2, 0))
    st = go(pos, ["long_range"])
    assert choices(st, "long_range") == {(0, -2), (-2, 2)}

    pos = red_to_act().mole(BLUE, (0, -2), (-2, 2)).red_cross((0, -1))  # the cross alone, in between
    st = go(pos, ["long_range"])
    assert choices(st, "long_range") == {(-2, 2)}


def test_slingshot_spares_the_protected_rival():
    pos = red_to_act().mole(BLUE, (2, 0), (0, -2)).red_cross((2, 0))
    st = go(pos, ["slingshot"])
    assert choices(st, "slingshot") == {(0, -2)}

    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (1, 0)).red_cross((2, 0))
    st = go(pos, ["slingshot", "advance"])
    assert "slingshot" not in offered(st)


def test_new_soldier_cannot_land_on_a_protected_mole():
    pos = red_to_act().mole(BLUE, (2, 0)).red_cross((2, 0))
    st = go(pos, ["new_soldier"])
    assert choices(st, "new_soldier") == {(2, -2), (0, -2), (-2, 0), (-2, 2), (0, 2)}


# --- nor move into its square ------------------------------------------------------------------------
def test_a_mole_cannot_move_onto_a_protected_rival():
    pos = red_to_act().mole(BLUE, (-2, 0)).red_cross((-2, 0))
    st = red_holding(pos, ["advance"])
    assert (-2, 0) not in move_targets(st, START)
    assert (-1, -1) in move_targets(st, START)


def test_advance_and_underground_maneuver_cannot_enter_a_protected_rival_square():
    pos = red_to_act().mole(BLUE, (1, 0), (2, 0)).red_cross((1, 0))
    st = go(pos, ["advance"])
    assert (1, 0) not in choices(st, "advance")

    pos = red_to_act().mole(BLUE, (2, 0)).red_cross((2, 0))
    st = go(pos, ["underground_maneuver"])
    assert (2, 0) not in choices(st, "underground_maneuver")
    assert (0, 2) in choices(st, "underground_maneuver")


def test_motorbike_patrol_is_stopped_by_a_protected_mole_on_either_square():
    pos = red_to_act().mole(BLUE, (1, 0), (0, 2)).red_cross((1, 0))
    st = go(pos, ["motorbike_patrol"])
    ways = choices(st, "motorbike_patrol")
    assert (2, 0) not in ways  # cannot run over the protected (1, 0)
    assert (-2, 0) in ways

    pos = red_to_act().mole(BLUE, (0, 2)).red_cross((0, 2))
    st = go(pos, ["motorbike_patrol"])
    assert (0, 2) not in choices(st, "motorbike_patrol")  # cannot end on it either


def test_panic_attack_does_not_push_a_protected_rival_nor_push_anyone_onto_it():
    pos = red_to_act().mole(BLUE, (1, 0), (2, 0)).red_cross((2, 0)).mole(BLUE, (0, 2))
    st = go(pos, ["panic_attack"])
    # east: (2, 0) is protected and stays, so (1, 0) cannot be pushed onto it: nothing moves
    assert EAST not in choices(st, "panic_attack")

    pos = red_to_act().mole(BLUE, (1, 0), (2, 0)).red_cross((1, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    assert moles_of(st, BLUE) == {(1, 0)}  # the unprotected (2, 0) is pushed off the field
    assert red_cross_at(st) == (1, 0)


# --- her own cards may move her own protected mole; the cross stays behind --------------------------
def test_panic_attack_pushes_her_own_protected_mole_and_the_cross_stays():
    pos = red_to_act().mole(RED, (1, 0)).red_cross((1, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    assert moles_of(st, RED) == {A, (2, 0)}
    assert red_cross_at(st) == (1, 0)


def test_a_protected_active_mole_moving_on_leaves_the_cross_behind():
    pos = red_to_act().red_cross(A).mole(BLUE, (2, -2))
    st = go(pos, ["advance"])  # the mole entered the cross's square: "any mole can now enter"
    play(st, "advance", (1, 0))
    assert moles_of(st, RED) == {(1, 0)}
    assert red_cross_at(st) == A


def test_abandoned_barracks_takes_the_protected_mole_away_from_the_cross():
    pos = red_to_act(without=[(0, -1)]).red_cross(A)
    st = go(pos, ["abandoned_barracks"])
    play(st, "abandoned_barracks", (0, -1))
    assert moles_of(st, RED) == {(0, -1)}
    assert red_cross_at(st) == A


def test_tunnel_into_an_empty_barracks_with_the_cross_puts_the_mole_under_it():
    pos = red_to_act().barracks(RED, A, (2, -2)).red_cross((2, -2))
    st = go(pos, ["tunnel"])
    play(st, "tunnel", (2, -2))
    assert moles_of(st, RED) == {(2, -2)}
    assert red_cross_at(st) == (2, -2)


def test_decoy_from_under_the_cross_leaves_the_rival_protected_on_it():
    pos = red_to_act().red_cross(A).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    st = go(pos, ["decoy"])
    play(st, "decoy", (1, 0))
    assert mole_at(st, (1, 0)) == 0 and mole_at(st, A) == 1
    assert red_cross_at(st) == A


def test_medal_of_honor_may_withdraw_her_own_protected_mole():
    pos = red_to_act().mole(RED, (2, 0)).red_cross((2, 0))
    st = go(pos, ["medal_of_honor"])
    assert choices(st, "medal_of_honor") == {(2, 0)}
    play(st, "medal_of_honor", (2, 0))
    assert moles_of(st, RED) == {A}
    assert medals(st, RED) == 13
    assert red_cross_at(st) == (2, 0)


@pytest.mark.parametrize(
    "card,target",
    [
        ("build_barracks", (3, 0)),
        ("conquest", (1, 0)),
        ("press_support", None),
        ("grenade", (0, 1)),
        ("new_soldier", (0, 2)),
        ("medal_of_honor", (2, -2)),
    ],
)
def test_cards_can_still_be_played_on_a_protected_active_mole_which_stays_protected(card, target):
    # "you can still play cards over protected moles even though they are not eliminated"
    pos = red_to_act().red_cross(A).mole(RED, (2, -2))
    st = go(pos, [card])
    assert card in offered(st)
    play(st, card, target)
    assert mole_at(st, A) == 0 and red_cross_at(st) == A


# --- removing the protected square costs the remover 5 --------------------------------------------
def test_a_grenade_on_the_red_cross_square_removes_both_and_costs_five():
    pos = red_to_act().mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, ["grenade"])
    assert (1, 0) in choices(st, "grenade")
    play(st, "grenade", (1, 0))
    assert not has_tile(st, (1, 0))
    assert red_cross_at(st) is None
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert medals(st, RED) == 5


def test_a_mortar_attack_on_the_red_cross_square_costs_five():
    pos = red_to_act().mole(BLUE, (2, 0)).red_cross((2, 0))
    st = go(pos, ["mortar_attack"])
    play(st, "mortar_attack", (2, 0))
    assert red_cross_at(st) is None
    assert moles_of(st, BLUE) == set()
    assert medals(st, RED) == 5


def test_blowing_up_her_own_protected_mole_costs_the_cross_and_the_friendly_fire():
    # T15 (5 for removing the cross's square) and Law #5 (5 for her own mole lost)
    pos = red_to_act().mole(RED, (1, 0)).red_cross((1, 0))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, 0))
    assert moles_of(st, RED) == {A}
    assert medals(st, RED) == 0


def test_a_battlefield_split_that_removes_the_cross_costs_the_splitter_five():
    pos = Position(players=2)
    pos.neutral(A, (-2, 0), (-2, 1), (1, 0), (2, 0), (3, 0), colour=3)
    pos.barracks(RED, START).mole(RED, START).mole(BLUE, (3, 0)).red_cross((3, 0))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, 0))  # {(2,0),(3,0)} is the smaller part
    assert squares(st) == {(-2, 0), (-2, 1), START, A}
    assert red_cross_at(st) is None
    assert moles_of(st, BLUE) == set()
    assert medals(st, RED) == 5


# --- farmers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("farmer,kind", [("the_crusher", "rock"), ("the_sprayer", "gas")])
def test_rock_and_gas_cannot_fall_on_a_protected_rival(farmer, kind):
    pos = red_to_act(farmer=farmer).pool(1).mole(BLUE, (1, 0), (2, 0)).red_cross((1, 0))
    st = go(pos, ["farmer"])
    do(st, type="play", card="farmer", source="hand")
    targets = {tuple(a["hex"]) for a in acts(st, type="target")}
    assert (1, 0) not in targets
    assert (2, 0) in targets


def test_the_stomper_neither_crushes_nor_scares_a_protected_rival():
    pos = red_to_act(farmer="the_stomper").feature("footprint", (1, -2)).mole(BLUE, (1, -1), (0, -1))
    pos.red_cross((1, -1))
    st = go(pos, ["farmer"])
    assert (1, -1) not in choices(st, "farmer")

    pos = red_to_act(farmer="the_stomper").feature("footprint", (1, -2)).mole(BLUE, (0, -1), (2, -1))
    pos.red_cross((0, -1))
    st = go(pos, ["farmer"])
    play(st, "farmer", (1, -1))  # neighbours of (1,-1): the protected (0,-1), (2,-1), Red's (0,0)
    assert mole_at(st, (0, -1)) == 1  # protected: does not run away
    assert moles_of(st, BLUE) == {(0, -1)}  # (2, -1) runs east off the battlefield


def test_lady_boom_blowing_up_the_red_cross_square_costs_five():
    pos = red_to_act(farmer="lady_boom").obstacle("dynamite", (2, -1)).mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, ["farmer"])
    play(st, "farmer", (1, 0))
    assert red_cross_at(st) is None
    assert moles_of(st, BLUE) == set()
    assert medals(st, RED) == 5
    assert feature(st, (1, 0)) == "dynamite"


def test_queen_of_nature_turnip_can_join_the_cross_under_the_active_mole():
    pos = red_to_act(farmer="queen_of_nature").red_cross(A).feature("turnip", (0, 2))
    st = go(pos, ["farmer"])
    play(st, "farmer")
    assert feature(st, A) == "turnip" and red_cross_at(st) == A


@pytest.mark.parametrize("farmer,tile", [("kings_of_buckets", "puddle"), ("trap_master", "trap")])
def test_puddle_and_trap_never_land_on_a_protected_mole(farmer, tile):
    pos = red_to_act(farmer=farmer).pool(1).mole(BLUE, (1, 0)).red_cross((1, 0))
    st = go(pos, ["farmer"])
    do(st, type="play", card="farmer", source="hand")
    targets = {tuple(a["hex"]) for a in acts(st, type="target")}
    assert (1, 0) not in targets and (2, 0) in targets


def test_lord_of_the_crates_puts_a_crate_under_a_protected_active_mole():
    pos = red_to_act(farmer="lord_of_the_crates").red_cross(A).neutral((3, 0), colour=2).crate(1, (3, 0))
    st = go(pos, ["farmer"])
    play(st, "farmer", (3, 0))
    assert feature(st, A) == "crate" and red_cross_at(st) == A
    assert medals(st, RED) == 11
