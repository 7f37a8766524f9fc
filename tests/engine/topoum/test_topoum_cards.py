"""Each card type (ruling T14): where it works, where it is not offered (Law #7), and Red Cross (T15).

The active Red mole walks from (-1,0) onto (0,0) of a field of neutral tiles (radius 3), then plays.
"""

from __future__ import annotations

import pytest
from topoum_positions import Position, activate, acts, card_plays, do, hexes, mole_at, play, tile_at

from engine.topoum import board as B

RED, BLUE = 0, 1


def field(card, **moles):
    """The field with Red's mole at (-1,0), the card in Red's hand and a spare Build Barracks."""
    pos = Position().area(3).mole(RED, (-1, 0)).hand(RED, [card, "build_barracks"])
    return pos


def ready(pos):
    st = pos.build(cur=RED)
    activate(st)
    return st


# --- combat ----------------------------------------------------------------------------------------
def test_bayonet_moves_onto_the_rival_which_is_eliminated():
    st = ready(field("bayonet").mole(BLUE, (1, 0), (0, 2)))
    assert hexes(st, type="target") == set()
    play(st, "bayonet")
    assert hexes(st) == {(1, 0)}  # (0,2) is not adjacent
    do(st, type="target", hex=[1, 0])
    assert mole_at(st, (1, 0)) == RED and mole_at(st, (0, 0)) == -1 and st.moles_left[BLUE] == 3
    assert st.medals == [10, 10]


def test_bayonet_needs_an_adjacent_rival():
    st = ready(field("bayonet").mole(BLUE, (2, 0)).mole(RED, (0, 1)))
    assert not card_plays(st, "bayonet")


def test_red_cross_shields_from_bayonet():  # ruling T15
    st = ready(field("bayonet").mole(BLUE, (1, 0)).red_cross((1, 0)))
    assert not card_plays(st, "bayonet")


def test_short_range_eliminates_an_adjacent_rival():
    st = ready(field("short_range").mole(BLUE, (0, 1)))
    play(st, "short_range", hex=[0, 1])
    assert mole_at(st, (0, 1)) == -1 and mole_at(st, (0, 0)) == RED and st.moles_left[BLUE] == 4


def test_short_range_not_offered_without_adjacent_rival_or_when_protected():
    st = ready(field("short_range").mole(BLUE, (2, 0)))
    assert not card_plays(st, "short_range")
    st = ready(field("short_range").mole(BLUE, (1, 0)).red_cross((1, 0)))
    assert not card_plays(st, "short_range")


def test_long_range_two_or_three_away_over_empty_spaces():
    pos = field("long_range").mole(BLUE, (2, 0), (0, -3), (1, 0)).clear((0, -1))
    st = ready(pos)
    play(st, "long_range")
    # (2,0) is behind Blue's adjacent mole at (1,0): blocked; (0,-3) is 3 away past an empty space
    assert hexes(st) == {(0, -3)}
    do(st, type="target", hex=[0, -3])
    assert mole_at(st, (0, -3)) == -1


@pytest.mark.parametrize("blocker", ["mole", "rock", "red_cross"])
def test_long_range_is_blocked(blocker):
    pos = field("long_range").mole(BLUE, (3, 0))
    if blocker == "mole":
        pos.mole(RED, (1, 0))
    elif blocker == "rock":
        pos.obstacle("rock", (2, 0))
    else:
        pos.red_cross((2, 0))
    st = ready(pos)
    assert not card_plays(st, "long_range")


def test_long_range_does_not_reach_a_protected_rival():  # ruling T15
    st = ready(field("long_range").mole(BLUE, (2, 0)).red_cross((2, 0)))
    assert not card_plays(st, "long_range")


def test_grenade_removes_an_adjacent_square_with_its_mole():
    st = ready(field("grenade").mole(BLUE, (1, 0)))
    play(st, "grenade")
    assert hexes(st) == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    do(st, type="target", hex=[1, 0])
    assert tile_at(st, (1, 0)) == -1 and mole_at(st, (1, 0)) == -1 and st.moles_left[BLUE] == 4
    assert st.tiles_left[2] == 16 - 37 + 1  # the tile went back to its colour (ruling T4)


def test_grenade_not_offered_on_empty_spaces():
    pos = Position().neutral((-1, 0), (0, 0)).mole(RED, (-1, 0)).hand(RED, ["grenade", "build_barracks"])
    st = ready(pos)
    play(st, "grenade")
    assert hexes(st) == {(-1, 0)}


def test_grenade_own_mole_costs_five():  # Law #5
    st = ready(field("grenade").mole(RED, (1, 0)))
    play(st, "grenade", hex=[1, 0])
    assert st.medals[RED] == 5


def test_grenade_on_the_red_cross_costs_its_remover_five():  # ruling T15
    st = ready(field("grenade").mole(BLUE, (1, 0)).red_cross((1, 0)))
    play(st, "grenade", hex=[1, 0])
    assert st.rc == -1 and mole_at(st, (1, 0)) == -1
    assert st.medals == [5, 10] and st.moles_left[BLUE] == 4


def test_mortar_attack_hits_two_away_ignoring_the_middle():
    st = ready(field("mortar_attack").mole(BLUE, (1, 0), (2, 0)).obstacle("rock", (0, 1)))
    play(st, "mortar_attack")
    assert (2, 0) in hexes(st) and (0, 2) in hexes(st) and (1, 0) not in hexes(st)
    do(st, type="target", hex=[2, 0])
    assert tile_at(st, (2, 0)) == -1 and mole_at(st, (1, 0)) == BLUE


def test_mortar_attack_needs_a_square_two_away():
    pos = Position().neutral((-1, 0), (0, 0)).mole(RED, (-1, 0)).hand(RED, ["mortar_attack", "build_barracks"])
    st = ready(pos)
    assert not card_plays(st, "mortar_attack")


def test_mortar_on_a_protected_mole_removes_it_with_the_red_cross():  # ruling T15
    st = ready(field("mortar_attack").mole(BLUE, (2, 0)).red_cross((2, 0)))
    play(st, "mortar_attack", hex=[2, 0])
    assert st.rc == -1 and st.medals[RED] == 5 and st.moles_left[BLUE] == 4


def test_slingshot_two_away_over_a_mole():
    st = ready(field("slingshot").mole(BLUE, (2, 0), (1, 0)))
    play(st, "slingshot")
    assert hexes(st) == {(2, 0)}
    do(st, type="target", hex=[2, 0])
    assert mole_at(st, (2, 0)) == -1 and mole_at(st, (1, 0)) == BLUE


def test_slingshot_not_offered_on_adjacent_or_protected():
    st = ready(field("slingshot").mole(BLUE, (1, 0)))
    assert not card_plays(st, "slingshot")
    st = ready(field("slingshot").mole(BLUE, (2, 0)).red_cross((2, 0)))
    assert not card_plays(st, "slingshot")


# --- movement -------------------------------------------------------------------------------------
def test_advance_to_an_adjacent_square():
    st = ready(field("advance").clear((0, 1)).obstacle("rock", (1, -1)).mole(BLUE, (1, 0)).red_cross((1, 0)))
    play(st, "advance")
    # not the empty space, not the rock, not the protected rival; (-1,0) where she came from is fine
    assert hexes(st) == {(0, -1), (-1, 0), (-1, 1)}
    do(st, type="target", hex=[0, -1])
    assert mole_at(st, (0, -1)) == RED and mole_at(st, (0, 0)) == -1


def test_advance_into_a_rival_is_fair_combat():  # ruling T14 (T12 outcomes)
    st = ready(field("advance").mole(BLUE, (1, 0)))
    play(st, "advance", hex=[1, 0])
    assert RED not in st.mole and BLUE not in st.mole and st.medals == [10, 10]


def test_advance_not_offered_when_boxed_in():
    pos = Position().neutral((-1, 0), (0, 0), (-1, 1)).obstacle("rock", (0, -1)).mole(RED, (-1, 0), (-1, 1))
    pos.hand(RED, ["advance", "build_barracks"])
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [-1, 1], "to": [0, 0]})
    play(st, "advance")
    assert hexes(st) == {(-1, 0), (-1, 1)}


def test_underground_maneuver_two_away_ignoring_the_middle():
    st = ready(field("underground_maneuver").obstacle("rock", (1, 0)).clear((0, 1)))
    play(st, "underground_maneuver")
    assert (2, 0) in hexes(st) and (0, 2) in hexes(st)
    do(st, type="target", hex=[2, 0])
    assert mole_at(st, (2, 0)) == RED


def test_underground_maneuver_not_onto_empty_rock_or_protected():
    pos = field("underground_maneuver").clear((2, 0)).obstacle("rock", (0, 2)).mole(BLUE, (2, -2))
    st = ready(pos.red_cross((2, -2)))
    play(st, "underground_maneuver")
    assert not {(2, 0), (0, 2), (2, -2)} & hexes(st)


def test_motorbike_patrol_runs_over_a_rival():
    st = ready(field("motorbike_patrol").mole(BLUE, (1, 0)))
    play(st, "motorbike_patrol")
    assert (2, 0) in hexes(st)
    do(st, type="target", hex=[2, 0])
    assert mole_at(st, (2, 0)) == RED and mole_at(st, (1, 0)) == -1 and st.medals == [10, 10]


@pytest.mark.parametrize("block", ["own", "protected", "rock", "gap"])
def test_motorbike_patrol_blocked(block):
    pos = field("motorbike_patrol")
    if block == "own":
        pos.mole(RED, (1, 0))
    elif block == "protected":
        pos.mole(BLUE, (1, 0)).red_cross((1, 0))
    elif block == "rock":
        pos.obstacle("rock", (1, 0))
    else:
        pos.clear((1, 0))
    st = ready(pos)
    play(st, "motorbike_patrol")
    assert (2, 0) not in hexes(st) and (0, 2) in hexes(st)


def test_panic_attack_pushes_every_mole_on_the_ray_farthest_first():
    pos = field("panic_attack").mole(BLUE, (1, 0), (2, 0)).mole(RED, (3, 0))
    st = ready(pos)
    play(st, "panic_attack", dir=0)
    # (3,0) leaves the field (Red -5), then (2,0)->(3,0), (1,0)->(2,0)
    assert mole_at(st, (2, 0)) == BLUE and mole_at(st, (3, 0)) == BLUE and mole_at(st, (1, 0)) == -1
    assert st.medals[RED] == 5 and mole_at(st, (0, 0)) == RED


def test_panic_attack_across_gaps_and_against_rocks():
    pos = field("panic_attack").clear((1, 0)).mole(BLUE, (2, 0)).obstacle("rock", (3, -3)).mole(BLUE, (2, -2))
    st = ready(pos)
    play(st, "panic_attack")
    dirs = {a["dir"] for a in acts(st, type="direction")}
    assert 0 in dirs and 1 not in dirs  # (2,-2) sits before a rock: nothing would move that way
    do(st, type="direction", dir=0)
    assert mole_at(st, (3, 0)) == BLUE


def test_panic_attack_leaves_protected_rivals():  # ruling T15 (our reading, RULES_NOTES)
    st = ready(field("panic_attack").mole(BLUE, (1, 0)).red_cross((1, 0)))
    assert not card_plays(st, "panic_attack")


def test_tunnel_between_own_barracks():
    pos = Position().area(3).barracks(RED, (0, 0), (3, -3), (-2, 2)).mole(RED, (-1, 0), (-2, 2))
    pos.hand(RED, ["tunnel", "build_barracks"])
    st = ready(pos)
    play(st, "tunnel")
    assert hexes(st) == {(3, -3)}  # (-2,2) is occupied
    do(st, type="target", hex=[3, -3])
    assert mole_at(st, (3, -3)) == RED and mole_at(st, (0, 0)) == -1


def test_tunnel_needs_to_start_on_own_barracks():
    pos = Position().area(3).barracks(RED, (3, -3)).mole(RED, (-1, 0)).hand(RED, ["tunnel", "build_barracks"])
    st = ready(pos)
    assert not card_plays(st, "tunnel")


def test_tunnel_leaves_the_red_cross_behind():  # ruling T15
    pos = Position().area(3).barracks(RED, (0, 0), (3, -3)).mole(RED, (-1, 0)).red_cross((0, 0))
    st = ready(pos.hand(RED, ["tunnel"]))
    play(st, "tunnel", hex=[3, -3])
    assert st.rc == st.geo.cell((0, 0))


def test_decoy_swaps_with_a_rival_on_an_adjacent_barracks():
    pos = field("decoy").barracks(BLUE, (1, 0)).mole(BLUE, (1, 0), (0, 1))
    st = ready(pos)
    play(st, "decoy")
    assert hexes(st) == {(1, 0)}  # (0,1) stands on neutral terrain
    do(st, type="target", hex=[1, 0])
    assert mole_at(st, (1, 0)) == RED and mole_at(st, (0, 0)) == BLUE


def test_decoy_not_with_protected():
    st = ready(field("decoy").barracks(RED, (1, 0)).mole(BLUE, (1, 0)).red_cross((1, 0)))
    assert not card_plays(st, "decoy")


# --- expansion -------------------------------------------------------------------------------------
def test_build_barracks_next_to_the_battlefield():
    st = ready(field("build_barracks"))
    play(st, "build_barracks")
    assert (4, 0) in hexes(st) and (0, 0) not in hexes(st) and (5, 0) not in hexes(st)
    do(st, type="target", hex=[4, 0])
    assert tile_at(st, (4, 0)) == B.BARRACKS + RED and st.bf[st.geo.cell((4, 0))]


def test_build_barracks_not_offered_without_barracks():  # ruling T10
    pos = Position().area(3).mole(RED, (-1, 0)).hand(RED, ["build_barracks", "advance"]).reserve_tiles(RED, 0)
    st = ready(pos)
    assert not card_plays(st, "build_barracks")


def test_abandoned_barracks_next_to_the_mole():
    pos = field("abandoned_barracks").clear((1, 0), (0, 1))
    st = ready(pos)
    play(st, "abandoned_barracks")
    assert hexes(st) == {(1, 0), (0, 1)}
    do(st, type="target", hex=[1, 0])
    assert tile_at(st, (1, 0)) == B.BARRACKS + RED and mole_at(st, (1, 0)) == RED


def test_abandoned_barracks_needs_an_empty_space():
    st = ready(field("abandoned_barracks"))
    assert not card_plays(st, "abandoned_barracks")


def test_conquest_replaces_an_unoccupied_tile():
    pos = field("conquest").barracks(BLUE, (1, 0)).barracks(RED, (0, 1)).mole(BLUE, (1, -1))
    st = ready(pos)
    play(st, "conquest")
    assert (1, 0) in hexes(st) and (0, 1) not in hexes(st) and (1, -1) not in hexes(st)
    do(st, type="target", hex=[1, 0])
    assert tile_at(st, (1, 0)) == B.BARRACKS + RED and st.tiles_left[BLUE] == 16


def test_conquest_under_a_lone_red_cross():  # ruling T15: the piece alone protects nothing
    st = ready(field("conquest").barracks(BLUE, (1, 0)).red_cross((1, 0)))
    play(st, "conquest")
    assert (1, 0) in hexes(st)


def test_conquest_not_offered_when_all_neighbours_are_occupied_or_hers():
    pos = Position().barracks(RED, (-1, 0), (0, 0), (1, 0)).mole(RED, (-1, 0))
    st = ready(pos.hand(RED, ["conquest", "build_barracks"]))
    assert not card_plays(st, "conquest")


def test_betrayal_replaces_a_rival_by_a_reserve_mole():
    st = ready(field("betrayal").mole(BLUE, (1, 0)))
    play(st, "betrayal", hex=[1, 0])
    assert mole_at(st, (1, 0)) == RED and st.moles_left == [2, 4]


def test_betrayal_needs_a_reserve_mole_and_an_unprotected_rival():
    pos = field("betrayal").mole(BLUE, (1, 0)).mole(RED, (3, 0), (-3, 0), (0, 3))
    st = ready(pos)
    assert st.moles_left[RED] == 0 and not card_plays(st, "betrayal")
    st = ready(field("betrayal").mole(BLUE, (1, 0)).red_cross((1, 0)))
    assert not card_plays(st, "betrayal")


def test_new_soldier_two_away():
    st = ready(field("new_soldier").mole(BLUE, (1, 0)))
    play(st, "new_soldier")
    assert (2, 0) in hexes(st) and (1, 0) not in hexes(st)
    do(st, type="target", hex=[2, 0])
    assert mole_at(st, (2, 0)) == RED and st.moles_left[RED] == 2


def test_new_soldier_onto_a_rival_or_her_own():  # ruling T14
    st = ready(field("new_soldier").mole(BLUE, (2, 0)))
    play(st, "new_soldier", hex=[2, 0])
    assert mole_at(st, (2, 0)) == -1 and st.medals[RED] == 10 and st.moles_left == [3, 4]
    st = ready(field("new_soldier").mole(RED, (2, 0)))
    play(st, "new_soldier", hex=[2, 0])
    assert st.medals[RED] == 0 and st.moles_left[RED] == 3


def test_new_soldier_not_on_protected_or_without_reserve():
    st = ready(field("new_soldier").mole(BLUE, (2, 0)).red_cross((2, 0)))
    play(st, "new_soldier")
    assert (2, 0) not in hexes(st)
    st = ready(field("new_soldier").mole(RED, (3, 0), (-3, 0), (0, 3)))
    assert not card_plays(st, "new_soldier")


# --- special ------------------------------------------------------------------------------------------
def test_prisoner_of_war_captures_into_her_reserve():
    st = ready(field("prisoner_of_war").mole(BLUE, (1, 0)))
    play(st, "prisoner_of_war", hex=[1, 0])
    assert mole_at(st, (1, 0)) == -1 and st.prisoners[RED][BLUE] == 1
    assert st.moles_left == [3, 3]  # she cannot use it; Blue cannot either until ransomed


def test_prisoner_of_war_not_on_protected_or_far():
    st = ready(field("prisoner_of_war").mole(BLUE, (1, 0)).red_cross((1, 0)).mole(BLUE, (2, 0)))
    assert not card_plays(st, "prisoner_of_war")


def test_medal_of_honor_returns_another_mole_for_three():
    st = ready(field("medal_of_honor").mole(RED, (3, 0)))
    play(st, "medal_of_honor")
    assert hexes(st) == {(3, 0)}
    do(st, type="target", hex=[3, 0])
    assert st.medals[RED] == 13 and st.moles_left[RED] == 3 and mole_at(st, (3, 0)) == -1


def test_medal_of_honor_not_for_the_active_mole_alone():
    st = ready(field("medal_of_honor"))
    assert not card_plays(st, "medal_of_honor")


def test_medal_of_honor_for_a_protected_own_mole_leaves_the_red_cross():
    st = ready(field("medal_of_honor").mole(RED, (3, 0)).red_cross((3, 0)))
    play(st, "medal_of_honor", hex=[3, 0])
    assert st.rc == st.geo.cell((3, 0)) and st.medals[RED] == 13


def test_press_support_takes_the_press_from_its_holder():
    st = ready(field("press_support").press(BLUE))
    play(st, "press_support")
    assert st.press == RED and not st.pending
    do(st, type="end_turn")
    assert st.medals[RED] == 11  # paid at the end of this very turn


def test_press_support_not_offered_to_its_holder():
    st = ready(field("press_support").press(RED))
    assert not card_plays(st, "press_support")


def test_red_cross_moves_to_the_active_mole_and_shields_it():  # ruling T15
    st = ready(field("red_cross").red_cross((3, 0)).hand(BLUE, ["short_range"]))
    play(st, "red_cross")
    assert st.rc == st.geo.cell((0, 0))
    assert not card_plays(st, "red_cross")  # not twice on the same square


def test_red_cross_blocks_and_does_not_follow():  # ruling T15
    pos = Position().area(3).barracks(RED, (0, 0)).mole(RED, (0, 0)).red_cross((0, 0)).mole(BLUE, (1, 0))
    st = pos.hand(BLUE, ["short_range", "build_barracks"]).build(cur=BLUE)
    assert not acts(st, type="move", **{"from": [1, 0], "to": [0, 0]})
    do(st, type="move", **{"from": [1, 0], "to": [1, -1]})
    assert not card_plays(st, "short_range")
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [-1, 0]})
    assert st.rc == st.geo.cell((0, 0)) and mole_at(st, (0, 0)) == -1


# --- Red Cross with the remaining cards (ruling T15) ----------------------------------------------------
def test_build_barracks_from_a_protected_mole():
    st = ready(field("build_barracks").red_cross((0, 0)))
    play(st, "build_barracks", hex=[4, 0])
    assert tile_at(st, (4, 0)) == B.BARRACKS + RED and st.rc == st.geo.cell((0, 0))


def test_abandoned_barracks_leaves_the_red_cross_behind():
    st = ready(field("abandoned_barracks").clear((1, 0)).red_cross((0, 0)))
    play(st, "abandoned_barracks", hex=[1, 0])
    assert mole_at(st, (1, 0)) == RED and st.rc == st.geo.cell((0, 0)) and mole_at(st, (0, 0)) == -1


def test_press_support_from_a_protected_mole():
    st = ready(field("press_support").red_cross((0, 0)))
    play(st, "press_support")
    assert st.press == RED


def test_a_rivals_red_cross_mole_can_still_be_swapped_into_by_her_own_decoy():
    # the Red Cross shields Blue's mole from Red's card; Red's own protected mole may decoy a rival
    pos = field("decoy").barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).red_cross((0, 0))
    st = ready(pos)
    play(st, "decoy", hex=[1, 0])
    assert mole_at(st, (0, 0)) == BLUE and st.rc == st.geo.cell((0, 0))
