"""Movement cards (rulebook section 5, rulings T12 and T14): where each one takes the moles, and Law #7.

Most positions: a disc of squares of radius 2 around (0, 0); Red's mole starts on her barracks at
(-1, 0) and moves east onto (0, 0), where it is the active mole. Directions: 0 east, 1 north-east,
2 north-west, 3 west, 4 south-west, 5 south-east (engine.hexgrid).
"""

from __future__ import annotations

from topoum_asserts import (
    BLUE,
    EAST,
    RED,
    SE,
    START,
    YELLOW,
    A,
    activate,
    choices,
    end_turn_gain,
    field,
    go,
    medals,
    moles_of,
    offered,
    play,
    red_holding,
    red_to_act,
    reserve,
)
from topoum_positions import Position, acts, do, mole_at


# --- Advance ---------------------------------------------------------------------------------
def test_advance_moves_the_active_mole_to_an_adjacent_free_square():
    pos = red_to_act(without=[(0, 1)]).obstacle("rock", (1, -1))
    st = go(pos, ["advance"])
    # adjacent squares only: not the empty space (0, 1), not the rock (1, -1)
    assert choices(st, "advance") == {(1, 0), (0, -1), (-1, 0), (-1, 1)}
    play(st, "advance", (1, 0))
    assert moles_of(st, RED) == {(1, 0)}
    assert medals(st, RED) == 10


def test_advance_onto_a_rival_is_fair_combat_and_both_fall_without_penalty():
    pos = red_to_act().mole(BLUE, (1, 0))
    st = go(pos, ["advance"])
    play(st, "advance", (1, 0))
    assert moles_of(st, RED) == set() and moles_of(st, BLUE) == set()
    assert reserve(st, RED) == 4 and reserve(st, BLUE) == 4
    assert medals(st, RED) == 10  # Law #5: fallen in fair combat


def test_advance_onto_an_own_mole_eliminates_both_and_costs_ten():
    pos = red_to_act().mole(RED, (0, 1))
    st = go(pos, ["advance"])
    play(st, "advance", (0, 1))
    assert moles_of(st, RED) == set()
    assert reserve(st, RED) == 4
    assert medals(st, RED) == 0  # Law #5: confusion among her own, -10


def test_advance_is_not_offered_when_the_only_neighbouring_square_is_a_rock():
    # Red enters into combat at (2, 0), whose only neighbouring square is the rock at (1, 0)
    pos = Position(players=2)
    pos.neutral((0, 0), colour=3).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).mole(BLUE, (0, 0))
    pos.obstacle("rock", (1, 0))
    st = red_holding(pos, ["advance", "grenade"])
    do(st, type="enter", hex=[2, 0])
    assert offered(st) == {"grenade"}


# --- Underground Maneuver ----------------------------------------------------------------------
def test_underground_maneuver_reaches_the_square_two_away_ignoring_what_is_between():
    pos = red_to_act(without=[(0, -1)]).obstacle("rock", (1, 0), (2, -2)).mole(BLUE, (-1, 1))
    st = go(pos, ["underground_maneuver"])
    # over the rock (1, 0), the empty (0, -1) and the mole (-1, 1); not onto the rock (2, -2)
    assert choices(st, "underground_maneuver") == {(2, 0), (0, -2), (-2, 0), (-2, 2), (0, 2)}
    play(st, "underground_maneuver", (0, -2))
    assert moles_of(st, RED) == {(0, -2)}
    assert moles_of(st, BLUE) == {(-1, 1)}


def test_underground_maneuver_onto_a_rival_is_fair_combat():
    pos = red_to_act().mole(BLUE, (2, 0))
    st = go(pos, ["underground_maneuver"])
    play(st, "underground_maneuver", (2, 0))
    assert moles_of(st, RED) == set() and moles_of(st, BLUE) == set()
    assert medals(st, RED) == 10


def test_underground_maneuver_is_not_offered_without_a_square_two_away():
    pos = Position(players=2)
    field(pos, radius=1)
    pos.barracks(RED, START).mole(RED, START)
    st = go(pos, ["underground_maneuver", "advance"])
    assert "underground_maneuver" not in offered(st)
    assert "advance" in offered(st)


# --- Motorbike Patrol ----------------------------------------------------------------------------
def test_motorbike_patrol_runs_over_a_rival_on_the_first_square():
    pos = red_to_act().mole(BLUE, (1, 0))
    st = go(pos, ["motorbike_patrol"])
    play(st, "motorbike_patrol", (2, 0))
    assert moles_of(st, RED) == {(2, 0)}
    assert moles_of(st, BLUE) == set()
    assert reserve(st, BLUE) == 4
    assert medals(st, RED) == 10


def test_motorbike_patrol_needs_two_squares_and_is_stopped_by_own_moles_and_rocks():
    pos = red_to_act(without=[(0, -1)])
    pos.mole(RED, (1, 0))  # east: her own mole on the first square
    pos.obstacle("rock", (1, -1))  # north-east: a rock on the first square
    # north-west: no tile on the first space; west: (-1, 0), (-2, 0) free; south-west, south-east free
    st = go(pos, ["motorbike_patrol"])
    assert choices(st, "motorbike_patrol") == {(-2, 0), (-2, 2), (0, 2)}
    play(st, "motorbike_patrol", (0, 2))
    assert moles_of(st, RED) == {(1, 0), (0, 2)}


def test_motorbike_patrol_is_not_offered_without_two_squares_in_a_line():
    pos = Position(players=2)
    field(pos, radius=1)
    pos.barracks(RED, START).mole(RED, START)
    st = go(pos, ["motorbike_patrol", "advance"])
    assert "motorbike_patrol" not in offered(st)


# --- Panic Attack ----------------------------------------------------------------------------------
def test_panic_attack_pushes_every_mole_on_the_ray_one_space_farthest_first():
    pos = red_to_act().neutral((3, -1), (4, -1), (4, 0), (5, 0), colour=3)  # (3, 0) is a gap
    pos.mole(BLUE, (1, 0), (4, 0), (1, -1))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    # (1, 0) -> (2, 0); (4, 0) beyond the gap -> (5, 0); (1, -1) is not on the ray
    assert moles_of(st, BLUE) == {(2, 0), (5, 0), (1, -1)}
    assert mole_at(st, A) == 0


def test_panic_attack_pushes_moles_off_the_battlefield_and_own_losses_cost_five():
    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (0, 2))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)  # (2, 0) is pushed onto (3, 0), a space without a tile
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert medals(st, RED) == 10  # a rival lost: no penalty

    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (0, 2))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=SE)  # her own (0, 2) goes off to (0, 3)
    assert moles_of(st, RED) == {A}
    assert medals(st, RED) == 5  # Law #5


def test_panic_attack_mole_pushed_towards_a_rock_stays_and_the_one_behind_collides():
    pos = red_to_act(players=3).neutral((3, 0), colour=3).obstacle("rock", (3, 0))
    pos.mole(BLUE, (2, 0)).mole(YELLOW, (1, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    # (2, 0) stays against the rock; (1, 0) is pushed onto it: both fall (T12), nobody pays
    assert moles_of(st, BLUE) == set() and moles_of(st, YELLOW) == set()
    assert medals(st, RED) == 10


def test_panic_attack_pushing_an_own_mole_onto_another_costs_ten():
    # the far mole stays against the rock, the near one is pushed onto it: Law #5, -10
    pos = red_to_act().obstacle("rock", (3, 0)).mole(RED, (1, 0), (2, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    assert moles_of(st, RED) == {A}
    assert reserve(st, RED) == 3
    assert medals(st, RED) == 0


def test_panic_attack_offers_only_directions_in_which_some_mole_moves():
    pos = red_to_act().obstacle("rock", (0, 2)).mole(RED, (0, 1)).mole(BLUE, (2, 0))
    st = go(pos, ["panic_attack"])
    # south-east: (0, 1) would stay against the rock; east: (2, 0) is pushed off the field
    assert choices(st, "panic_attack") == {EAST}


def test_panic_attack_is_not_offered_when_no_mole_is_in_line_with_the_active_one():
    pos = red_to_act().mole(BLUE, (2, -1), (1, 1))  # not on any of the six rays from (0, 0)
    st = go(pos, ["panic_attack", "advance"])
    assert "panic_attack" not in offered(st)


# --- Tunnel -------------------------------------------------------------------------------------
def test_tunnel_takes_the_mole_from_her_barracks_to_another_free_one_anywhere():
    pos = red_to_act().neutral((3, -3), (4, -4), colour=3).barracks(RED, A, (4, -4), (0, 2))
    pos.mole(BLUE, (0, 2)).barracks(BLUE, (1, -1))
    st = go(pos, ["tunnel"])
    # her free barracks: (-1, 0) it came from and (4, -4) far away; not (0, 2) (occupied), not Blue's
    assert choices(st, "tunnel") == {(-1, 0), (4, -4)}
    play(st, "tunnel", (4, -4))
    assert moles_of(st, RED) == {(4, -4)}


def test_tunnel_is_not_offered_from_a_neutral_square():
    pos = red_to_act().barracks(RED, (2, 0))
    st = go(pos, ["tunnel", "advance"])  # (0, 0) is neutral
    assert "tunnel" not in offered(st)


def test_tunnel_is_not_offered_without_another_free_barracks():
    pos = Position(players=2)
    field(pos)
    pos.barracks(RED, START, A, (2, 0)).mole(RED, (-2, 0)).mole(RED, START, (2, 0))
    st = go(pos, ["tunnel", "advance"])
    # (-1, 0) is free now, so Tunnel can take the mole back there: offered
    assert choices(st, "tunnel") == {(-1, 0)}
    pos = Position(players=2)
    field(pos)
    pos.barracks(RED, (-2, 0), A, (2, 0)).mole(RED, (-2, 0), (2, 0))
    pos.neutral(START, colour=3).mole(RED, START)
    st = red_holding(pos, ["tunnel", "advance"])
    activate(st, START, A)  # leaves a neutral square behind; her other barracks are occupied
    assert "tunnel" not in offered(st)


# --- Decoy ---------------------------------------------------------------------------------------
def test_decoy_swaps_the_active_mole_with_a_rival_on_an_adjacent_barracks_of_any_colour():
    pos = red_to_act(players=3).barracks(BLUE, (1, 0)).barracks(RED, (0, 1)).mole(BLUE, (1, 0), (0, 1))
    pos.mole(YELLOW, (0, -1))  # on a neutral square: not a target
    st = go(pos, ["decoy"])
    assert choices(st, "decoy") == {(1, 0), (0, 1)}
    play(st, "decoy", (1, 0))
    assert mole_at(st, (1, 0)) == 0
    assert mole_at(st, A) == 1
    assert moles_of(st, BLUE) == {A, (0, 1)}
    assert medals(st, RED) == 10


def test_decoy_is_not_offered_when_adjacent_rivals_stand_on_neutral_squares():
    pos = red_to_act().barracks(BLUE, (2, 0)).mole(BLUE, (1, 0), (2, 0))
    st = go(pos, ["decoy", "advance"])
    assert "decoy" not in offered(st)


def test_the_active_mole_cannot_move_again_after_its_card():
    # ruling T12: each mole moves at most once; the card's own movement does not give it another
    pos = red_to_act().barracks(RED, (-2, 2)).mole(RED, (-2, 2))
    st = go(pos, ["advance"])
    play(st, "advance", (1, 0))
    froms = {tuple(a["from"]) for a in acts(st, type="move")}
    assert froms == {(-2, 2)}


def test_motorbike_patrol_ending_on_a_rival_is_fair_combat():
    # T14: the ride follows T12 where it ends; the first square (1, 0) is free
    pos = red_to_act().mole(BLUE, (2, 0))
    st = go(pos, ["motorbike_patrol"])
    play(st, "motorbike_patrol", (2, 0))
    assert moles_of(st, RED) == set() and moles_of(st, BLUE) == set()
    assert medals(st, RED) == 10


def test_panic_attack_pushing_her_own_mole_onto_a_rival_is_fair_combat():
    # Law #5: "you will not suffer this penalty if you move a mole to a square occupied by a rival"
    pos = red_to_act().obstacle("rock", (3, 0)).mole(RED, (1, 0)).mole(BLUE, (2, 0))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)  # (2, 0) stays against the rock; Red's (1, 0) is pushed onto it
    assert moles_of(st, RED) == {A} and moles_of(st, BLUE) == set()
    assert medals(st, RED) == 10


# --- lines of sight after card movements (Law of War #6, ruling T18) ----------------------------------
def test_a_mole_that_comes_back_to_its_square_by_a_card_makes_its_lines_new():
    # "if you move one mole and, by means of cards actions, it returns to the same position,
    # that line of sight is considered new": (-1,0)..(2,0) existed at the start of the turn
    pos = red_to_act().mole(RED, (2, 0))
    st = go(pos, ["advance"])
    play(st, "advance", START)
    assert moles_of(st, RED) == {START, (2, 0)}
    assert end_turn_gain(st, RED) == 5  # 4 squares + her barracks at (-1, 0)


def test_moles_pushed_by_panic_attack_make_new_lines():
    pos = red_to_act().mole(RED, (1, 0), (2, -2))
    st = go(pos, ["panic_attack"])
    play(st, "panic_attack", dir=EAST)  # (1, 0) -> (2, 0)
    assert moles_of(st, RED) == {A, (2, 0), (2, -2)}
    # (0,0)-(2,0), (0,0)-(2,-2) and the pushed (2,0)-(2,-2): three squares each, no red barracks
    assert end_turn_gain(st, RED) == 9
