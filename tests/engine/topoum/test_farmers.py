"""The eight farmers (rulebook section 7, rulings T8, T16, T17): each USE of "Farmer is coming!", and Law #7.

Red's mole starts on her barracks at (-1, 0) and moves east onto (0, 0), the active mole; the
battlefield is a disc of radius 2 around (0, 0) unless a test says otherwise.
"""

from __future__ import annotations

import topoum_asserts as asserts
from topoum_asserts import (
    BLUE,
    RED,
    START,
    A,
    activate,
    choices,
    copy,
    disc,
    end_turn_gain,
    feature,
    field,
    has_tile,
    is_neutral,
    medals,
    moles_of,
    move,
    offered,
    play,
    red_holding,
    reserve,
)
from topoum_positions import Position, acts, do

DISC = set(disc(2))


def red_to_act(farmer, **kw):
    """The usual field with Red to act, in a game with `farmer`."""
    return asserts.red_to_act(farmer=farmer, **kw)


def go(pos, cards=("farmer",)):
    return asserts.go(pos, cards)


def tile_moves(st) -> set:
    """(from, to) of every choice of a four-tile farmer; from is None for a tile beside the board."""
    trial = copy(st)
    do(trial, type="play", card="farmer", source="hand")
    return {
        (tuple(a["from"]) if a.get("from") is not None else None, tuple(a["hex"])) for a in acts(trial, type="target")
    }


def play_farmer(st, to, frm="none"):
    do(st, type="play", card="farmer", source="hand")
    spec = {"type": "target", "hex": list(to) if to is not None else None}
    if frm != "none":
        spec["from"] = list(frm) if frm is not None else None
    do(st, **spec)


def entered_on_a_full_battlefield(farmer, **extra):
    """Red enters at (1, 0) next to (0, 0) (a blue mole) and (-1, 0) (her own): every square is occupied."""
    pos = Position(players=2, farmer=farmer)
    pos.neutral(A, colour=3).barracks(RED, START).mole(RED, START).mole(BLUE, A)
    for k, v in extra.items():
        getattr(pos, k)(*v)
    st = red_holding(pos, ["farmer", "short_range"])
    do(st, type="enter", hex=[1, 0])
    return st


# --- Kings of Buckets -------------------------------------------------------------------------
def test_kings_of_buckets_moves_a_puddle_onto_an_unoccupied_square_and_floods_its_barracks():
    pos = red_to_act("kings_of_buckets").neutral((3, 0), colour=2).feature("puddle", (3, 0))
    pos.barracks(BLUE, (1, -1)).mole(BLUE, (1, 0))
    st = go(pos)
    # to any unoccupied square without a farmer tile; never onto a mole (A, (1, 0))
    assert tile_moves(st) == {((3, 0), h) for h in DISC - {A, (1, 0)}}
    play_farmer(st, (1, -1), frm=(3, 0))
    assert feature(st, (1, -1)) == "puddle"
    assert is_neutral(st, (1, -1), BLUE)  # the flooded barracks turns neutral (T17)
    assert feature(st, (3, 0)) is None and has_tile(st, (3, 0))  # the base tile stays behind


def test_kings_of_buckets_puddle_may_go_onto_any_unoccupied_square_even_an_outpost():
    # "Move one Puddle tile on any unoccupied square" (English text and ruling T17 alike), whereas
    # The Crusher, The Sprayer and Trap Master say "in the battlefield"; (0, 3) is a bare outpost
    # whose puddle has gone (ruling T3: a tile on a marked space not yet touched by the battlefield)
    pos = red_to_act("kings_of_buckets", radius=1)
    pos.neutral((3, 0), (0, 3), colour=2).feature("puddle", (3, 0)).outpost((3, 0), (0, 3))
    st = go(pos)
    assert ((3, 0), (0, 3)) in tile_moves(st)


def test_kings_of_buckets_puts_back_a_puddle_from_beside_the_board():
    pos = red_to_act("kings_of_buckets").pool(1)
    st = go(pos)
    assert {frm for frm, _ in tile_moves(st)} == {None}
    play_farmer(st, (2, 0), frm=None)
    assert feature(st, (2, 0)) == "puddle"


def test_kings_of_buckets_is_not_offered_when_every_square_is_occupied():
    st = entered_on_a_full_battlefield("kings_of_buckets", pool=(1,))
    assert "farmer" not in offered(st)
    assert "short_range" in offered(st)


# --- The Crusher -------------------------------------------------------------------------------
def test_the_crusher_drops_a_rock_on_any_square_crushing_the_mole_and_the_barracks():
    pos = red_to_act("the_crusher").neutral((3, 0), colour=2).feature("rock", (3, 0))
    pos.barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    st = go(pos)
    assert ((3, 0), (1, 0)) in tile_moves(st)  # occupied squares too
    play_farmer(st, (1, 0), frm=(3, 0))
    assert feature(st, (1, 0)) == "rock"
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert is_neutral(st, (1, 0), BLUE)
    assert medals(st, RED) == 10


def test_the_crusher_on_an_own_mole_costs_five():
    pos = red_to_act("the_crusher").pool(1).mole(RED, (0, 2))
    st = go(pos)
    play_farmer(st, (0, 2), frm=None)
    assert moles_of(st, RED) == {A}
    assert medals(st, RED) == 5  # Law #5


def test_the_crusher_is_not_offered_without_a_rock_to_move():
    pos = red_to_act("the_crusher").mole(BLUE, (1, 0))
    st = go(pos, ["farmer", "short_range"])
    assert "farmer" not in offered(st)


# --- The Sprayer --------------------------------------------------------------------------------
def test_the_sprayer_gasses_any_square_killing_the_mole_and_the_barracks():
    pos = red_to_act("the_sprayer").neutral((0, 3), colour=2).feature("gas", (0, 3))
    pos.barracks(BLUE, (1, -1)).mole(BLUE, (1, -1))
    st = go(pos)
    # any battlefield square without a farmer tile, occupied or not, the active mole's own included
    assert {to for _, to in tile_moves(st)} == DISC
    play_farmer(st, (1, -1), frm=(0, 3))
    assert feature(st, (1, -1)) == "gas"
    assert moles_of(st, BLUE) == set()
    assert is_neutral(st, (1, -1), BLUE)
    assert feature(st, (0, 3)) is None


def test_the_sprayer_is_not_offered_without_a_gas_tile():
    pos = red_to_act("the_sprayer").mole(BLUE, (1, 0))
    st = go(pos, ["farmer", "short_range"])
    assert "farmer" not in offered(st)


# --- The Queen of Nature -----------------------------------------------------------------------------
def test_queen_of_nature_puts_the_turnip_under_the_active_mole_and_its_lines_score_two_more():
    pos = red_to_act("queen_of_nature").barracks(RED, A, (2, 0)).mole(RED, (2, 0)).feature("turnip", (0, 2))
    st = go(pos)
    assert choices(st, "farmer") is None  # no choice: the active mole's square
    play(st, "farmer")
    assert feature(st, A) == "turnip"
    assert feature(st, (0, 2)) is None
    assert is_neutral(st, A, RED)  # the barracks under it is buried
    # line (0,0)-(1,0)-(2,0): 3 squares + 1 red barracks (2,0) + 2 for the turnip
    assert end_turn_gain(st, RED) == 6


def test_queen_of_nature_places_the_turnip_from_beside_the_board():
    st = go(red_to_act("queen_of_nature").pool(1))
    play(st, "farmer")
    assert feature(st, A) == "turnip"


def test_queen_of_nature_is_not_offered_when_the_active_mole_is_already_on_the_turnip():
    pos = red_to_act("queen_of_nature").feature("turnip", A).mole(BLUE, (1, 0))
    st = go(pos, ["farmer", "short_range"])
    assert "farmer" not in offered(st)


# --- Lady Boom -----------------------------------------------------------------------------------
def test_lady_boom_blows_up_a_square_next_to_the_dynamite_and_the_dynamite_moves_there():
    pos = red_to_act("lady_boom").obstacle("dynamite", (2, -1)).mole(BLUE, (1, 0))
    st = go(pos)
    assert choices(st, "farmer") == {(2, -2), (1, -1), (1, 0), (2, 0)}  # next to the dynamite, not the mole
    play(st, "farmer", (1, 0))
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert feature(st, (1, 0)) == "dynamite"
    assert not has_tile(st, (2, -1))
    assert medals(st, RED) == 10


def test_lady_boom_dynamite_blown_away_is_placed_at_once_by_whoever_did_it():
    pos = red_to_act("lady_boom").obstacle("dynamite", (1, 0)).mole(BLUE, (0, 2))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, 0))
    spots = {tuple(a["hex"]) for a in acts(st, type="target")}
    assert st.cur == 0
    assert (3, 0) in spots and (1, 0) in spots  # free spaces next to the battlefield
    assert A not in spots and (5, 0) not in spots
    do(st, type="target", hex=[3, 0])
    assert feature(st, (3, 0)) == "dynamite"


def test_a_mole_moving_onto_the_dynamite_is_eliminated():
    pos = red_to_act("lady_boom").obstacle("dynamite", A)
    st = red_holding(pos, ["advance"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5
    assert feature(st, A) == "dynamite"


def test_lady_boom_is_not_offered_without_the_dynamite_on_the_board():
    pos = red_to_act("lady_boom").pool(1).mole(BLUE, (1, 0))
    st = go(pos, ["farmer", "short_range"])
    assert "farmer" not in offered(st)


# --- Trap Master ------------------------------------------------------------------------------------
def test_trap_master_sets_the_trap_on_an_unoccupied_square_and_buries_its_barracks():
    pos = red_to_act("trap_master").feature("trap", (0, 2)).barracks(BLUE, (1, -1)).mole(BLUE, (1, 0))
    st = go(pos)
    assert choices(st, "farmer") == DISC - {A, (1, 0), (0, 2)}
    play(st, "farmer", (1, -1))
    assert feature(st, (1, -1)) == "trap"
    assert feature(st, (0, 2)) is None
    assert is_neutral(st, (1, -1), BLUE)


def test_trap_master_lines_lose_one_per_end_mole_next_to_the_trap():
    pos = red_to_act("trap_master").feature("trap", (0, 2)).barracks(RED, (2, 0)).mole(RED, (2, 0))
    st = go(pos)
    play(st, "farmer", (1, -1))  # next to (0, 0), not to (2, 0)
    # line (0,0)-(1,0)-(2,0): 3 squares + 1 red barracks - 1 for the worried mole at (0, 0)
    assert end_turn_gain(st, RED) == 3


def test_a_mole_stepping_on_the_trap_is_eliminated_and_the_trap_leaves_the_board():
    pos = red_to_act("trap_master").feature("trap", A)
    st = red_holding(pos, ["farmer"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5
    assert feature(st, A) is None


def test_trap_master_is_not_offered_when_every_square_is_occupied():
    st = entered_on_a_full_battlefield("trap_master", pool=(1,))
    assert "farmer" not in offered(st)


# --- The Stomper ------------------------------------------------------------------------------------
def test_the_stomper_crushes_the_mole_under_the_footprint_and_scares_the_neighbours_away():
    pos = red_to_act("the_stomper").feature("footprint", (1, -2))
    pos.mole(BLUE, (1, -1), (2, -1), (1, 0))
    st = go(pos)
    assert choices(st, "farmer") == {(2, -2), (0, -2), (0, -1), (1, -1)}  # next to the footprint
    play(st, "farmer", (1, -1))
    assert feature(st, (1, -1)) == "footprint"
    assert feature(st, (1, -2)) is None
    # (1,-1) crushed; (2,-1) runs east off the battlefield; (1,0) runs to (1,1); Red's (0,0) to (-1,1)
    assert moles_of(st, BLUE) == {(1, 1)}
    assert reserve(st, BLUE) == 3
    assert moles_of(st, RED) == {(-1, 1)}
    assert medals(st, RED) == 10


def test_the_stomper_footprint_from_beside_the_board_goes_anywhere():
    st = go(red_to_act("the_stomper").pool(1))
    assert choices(st, "farmer") == DISC


def test_a_mole_moving_onto_the_footprint_is_eliminated():
    pos = red_to_act("the_stomper").feature("footprint", A)
    st = red_holding(pos, ["farmer"])
    move(st, START, A)
    assert moles_of(st, RED) == set()
    assert medals(st, RED) == 5


def test_the_stomper_is_not_offered_when_only_obstacle_tiles_touch_the_footprint():
    pos = Position(players=2, farmer="the_stomper", obstacles=True)
    field(pos, radius=1)
    pos.barracks(RED, START).mole(RED, START)
    pos.obstacle("rock", (2, -1), (2, -2), (1, -2)).neutral((3, -2), colour=2).feature("footprint", (3, -2))
    pos.obstacle("puddle", (3, -3), (4, -3), (4, -2), (3, -1))
    pos.mole(BLUE, (1, 0))
    st = go(pos, ["farmer", "short_range"])
    assert "farmer" not in offered(st)


# --- Lord of the Crates -----------------------------------------------------------------------------
def test_lord_of_the_crates_gives_a_medal_and_a_crate_under_the_active_mole_seen_only_by_red():
    pos = red_to_act("lord_of_the_crates").crates([0, 2, 3, 5]).neutral((3, 0), colour=2).crate(3, (3, 0))
    st = go(pos)
    assert choices(st, "farmer") == {None, (3, 0)}  # moving the crate is optional (ruling T21)
    play(st, "farmer", (3, 0))
    assert medals(st, RED) == 11
    assert feature(st, A) == "crate" and feature(st, (3, 0)) is None
    assert st.view(0)["crates_known"] == {"3": 5}
    assert st.view(1).get("crates_known") == {}
    assert all("value" not in c for c in st.view(None)["board"])


def crate_choices_after_playing(st) -> set:
    """Play the farmer card; the crate choices asked for (none asked: only {None} was possible)."""
    do(st, type="play", card="farmer", source="hand")
    asked = {tuple(a["hex"]) if a["hex"] is not None else None for a in acts(st, type="target")}
    return asked or {None}


def test_lord_of_the_crates_still_gives_a_medal_when_no_crate_is_left():
    st = go(red_to_act("lord_of_the_crates").mole(BLUE, (1, 0)))
    assert "farmer" in offered(st)
    assert crate_choices_after_playing(st) == {None}
    if acts(st, type="target"):
        do(st, type="target", hex=None)
    assert medals(st, RED) == 11


def test_lord_of_the_crates_offers_no_crate_to_a_mole_already_on_a_crate():
    pos = red_to_act("lord_of_the_crates").crate(0, A).neutral((3, 0), colour=2).crate(1, (3, 0))
    st = go(pos)
    assert st.view(0)["crates_known"] == {"0": 0}  # ruling T8: reaching a crate shows its value
    assert crate_choices_after_playing(st) == {None}
    if acts(st, type="target"):
        do(st, type="target", hex=None)
    assert medals(st, RED) == 11
    assert feature(st, (3, 0)) == "crate"


# --- farmer tiles leaving and coming back ----------------------------------------------------------
def test_the_stomper_scaring_her_own_mole_off_the_battlefield_costs_five():
    pos = red_to_act("the_stomper").feature("footprint", (1, -2)).mole(RED, (2, -2))
    st = go(pos)
    play(st, "farmer", (1, -1))  # (2,-2) runs north-east to (3,-3): no tile there
    assert (2, -2) not in moles_of(st, RED)
    assert medals(st, RED) == 5  # Law #5


def test_a_sprung_trap_can_be_set_again_by_a_later_card():
    # Trap Master: "Another player can place it again wherever she wishes if a new card says so"
    pos = red_to_act("trap_master").feature("trap", A).barracks(RED, (2, 0)).mole(RED, (2, 0))
    st = red_holding(pos, ["farmer"])
    move(st, START, A)  # the first mole steps on the trap
    assert feature(st, A) is None
    activate(st, (2, 0), (1, 0))  # the second mole moves and plays the farmer
    assert "farmer" in offered(st)
    play(st, "farmer", (0, 2))
    assert feature(st, (0, 2)) == "trap"


def test_a_puddle_destroyed_by_a_grenade_goes_beside_the_board_and_can_come_back():
    pos = red_to_act("kings_of_buckets").neutral((1, -1), colour=2).feature("puddle", (1, -1))
    pos.barracks(RED, (2, 0)).mole(RED, (2, 0))
    st = go(pos, ["grenade", "farmer"])
    play(st, "grenade", (1, -1))
    assert not has_tile(st, (1, -1))
    activate(st, (2, 0), (1, 0))
    assert {frm for frm, _ in tile_moves(st)} == {None}  # only the one beside the board
    play_farmer(st, (0, 2), frm=None)
    assert feature(st, (0, 2)) == "puddle"


def test_a_crate_destroyed_by_a_grenade_leaves_the_game():
    pos = red_to_act("lord_of_the_crates").crate(2, (1, -1)).barracks(RED, (2, 0)).mole(RED, (2, 0))
    st = go(pos, ["grenade", "farmer"])
    play(st, "grenade", (1, -1))
    activate(st, (2, 0), (1, 0))
    assert crate_choices_after_playing(st) == {None}
