"""The eight farmers (rulings T7, T8, T17): their USE works, is not offered when impossible, and Red Cross."""

from __future__ import annotations

from topoum_positions import Position, activate, acts, card_plays, do, feature_at, hexes, mole_at, play, tile_at

from engine.topoum import board as B

RED, BLUE = 0, 1


def farm(farmer):
    """Red's mole at (-1,0) on a field of neutral tiles, 'Farmer is coming!' in hand."""
    return Position(farmer=farmer).area(3).mole(RED, (-1, 0)).hand(RED, ["farmer", "build_barracks"])


def ready(pos):
    st = pos.build(cur=RED)
    activate(st)
    return st


# --- Kings of Buckets --------------------------------------------------------------------------------
def test_kings_of_buckets_moves_a_puddle_onto_an_unoccupied_square():
    pos = farm("kings_of_buckets").feature("puddle", (2, 0)).barracks(BLUE, (1, 1)).mole(BLUE, (0, 1))
    st = ready(pos)
    play(st, "farmer")
    targets = {tuple(a["hex"]) for a in acts(st, type="target", **{"from": [2, 0]})}
    assert (1, 1) in targets and (0, 1) not in targets and (0, 0) not in targets and (2, 0) not in targets
    assert not acts(st, type="target", **{"from": None})  # none beside the board
    do(st, type="target", hex=[1, 1], **{"from": [2, 0]})
    assert feature_at(st, (1, 1)) == B.PUDDLE and feature_at(st, (2, 0)) == B.NONE
    assert tile_at(st, (1, 1)) == BLUE and tile_at(st, (2, 0)) == 2  # flooded barracks turns neutral


def test_kings_of_buckets_brings_back_a_puddle_from_beside_the_board():
    st = ready(farm("kings_of_buckets").pool(1))
    play(st, "farmer")
    do(st, type="target", hex=[2, 0], **{"from": None})
    assert feature_at(st, (2, 0)) == B.PUDDLE and st.pool == 0


def test_kings_of_buckets_without_puddles_is_not_offered():
    st = ready(farm("kings_of_buckets"))
    assert not card_plays(st, "farmer")


def test_kings_of_buckets_not_on_the_red_cross():
    st = ready(farm("kings_of_buckets").pool(1).red_cross((2, 0)))
    play(st, "farmer")
    assert (2, 0) not in hexes(st, type="target")


def test_a_mole_walking_into_a_puddle_is_lost():  # ruling T16
    st = farm("kings_of_buckets").feature("puddle", (0, 0)).build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert RED not in st.mole and st.medals[RED] == 5


# --- The Crusher / The Sprayer ----------------------------------------------------------------------
def test_the_crusher_drops_a_rock_on_a_mole():
    pos = farm("the_crusher").feature("rock", (3, 0)).barracks(BLUE, (2, 0)).mole(BLUE, (2, 0))
    st = ready(pos)
    play(st, "farmer", hex=[2, 0], **{"from": [3, 0]})
    assert feature_at(st, (2, 0)) == B.ROCK and tile_at(st, (2, 0)) == BLUE and mole_at(st, (2, 0)) == -1
    assert st.moles_left[BLUE] == 4 and st.medals[RED] == 10


def test_the_crusher_rock_cannot_be_entered_and_blocks_lines():  # ruling T16
    pos = Position(farmer="the_crusher").neutral((0, 0), (1, 0), (2, 0), (0, 1)).feature("rock", (1, 0))
    st = pos.mole(RED, (0, 0), (2, 0)).build(cur=RED)
    assert not acts(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    from engine.topoum.scoring import lines

    assert lines(st, RED) == []


def test_the_crusher_not_onto_a_protected_mole_or_without_rocks():
    st = ready(farm("the_crusher").feature("rock", (3, 0)).mole(BLUE, (2, 0)).red_cross((2, 0)))
    play(st, "farmer")
    assert (2, 0) not in hexes(st, type="target")
    st = ready(farm("the_crusher"))
    assert not card_plays(st, "farmer")


def test_the_sprayer_gasses_a_square():
    pos = farm("the_sprayer").feature("gas", (3, 0)).barracks(RED, (2, 0)).mole(RED, (2, 0))
    st = ready(pos)
    play(st, "farmer", hex=[2, 0], **{"from": [3, 0]})
    assert feature_at(st, (2, 0)) == B.GAS and tile_at(st, (2, 0)) == RED and st.medals[RED] == 5


def test_the_sprayer_not_onto_the_red_cross():
    st = ready(farm("the_sprayer").feature("gas", (3, 0)).red_cross((2, 0)))
    play(st, "farmer")
    assert (2, 0) not in hexes(st, type="target") and (1, 0) in hexes(st, type="target")


# --- The Queen of Nature --------------------------------------------------------------------------------
def test_queen_of_nature_puts_the_turnip_under_the_active_mole():
    pos = farm("queen_of_nature").barracks(RED, (0, 0)).feature("turnip", (1, 1))
    st = ready(pos)
    play(st, "farmer")
    assert st.pending is None  # no choice to make
    assert feature_at(st, (0, 0)) == B.TURNIP and feature_at(st, (1, 1)) == B.NONE
    assert tile_at(st, (0, 0)) == RED  # the barracks is buried


def test_queen_of_nature_not_offered_on_the_turnip_itself():
    st = ready(farm("queen_of_nature").feature("turnip", (0, 0)))
    assert not card_plays(st, "farmer")


def test_queen_of_nature_under_the_red_cross_is_fine():
    st = ready(farm("queen_of_nature").feature("turnip", (1, 1)).red_cross((0, 0)))
    play(st, "farmer")
    assert feature_at(st, (0, 0)) == B.TURNIP and st.rc == st.geo.cell((0, 0))


# --- Lady Boom --------------------------------------------------------------------------------------------
def test_lady_boom_blows_a_square_next_to_the_dynamite_and_moves_it_there():
    pos = Position(farmer="lady_boom").neutral(*[(q, 0) for q in range(-1, 4)], (2, -1), (3, -1), colour=2)
    pos.clear((2, 0)).obstacle("dynamite", (2, 0)).mole(RED, (-1, 0)).mole(BLUE, (3, 0))
    pos.hand(RED, ["farmer"])
    st = ready(pos)
    play(st, "farmer")
    assert hexes(st, type="target") == {(1, 0), (3, 0), (2, -1), (3, -1)}
    do(st, type="target", hex=[3, 0])
    assert feature_at(st, (3, 0)) == B.DYNAMITE and tile_at(st, (3, 0)) == B.STANDALONE
    assert tile_at(st, (2, 0)) == -1 and st.moles_left[BLUE] == 4 and st.pending is None


def test_lady_boom_can_cut_the_battlefield():  # Law #4 after the blast
    pos = Position(farmer="lady_boom").neutral(*[(q, 0) for q in range(-1, 4)], (2, -1), colour=2)
    pos.clear((2, 0)).obstacle("dynamite", (2, 0)).mole(RED, (-1, 0)).hand(RED, ["farmer"])
    st = ready(pos)
    play(st, "farmer", hex=[3, 0])
    # the dynamite now stands alone at (3,0): that part is removed and Red must put it back
    assert tile_at(st, (3, 0)) == -1 and st.pending == {"k": "dynamite"}
    do(st, type="target", hex=[2, 0])
    assert feature_at(st, (2, 0)) == B.DYNAMITE and st.pending is None


def test_blowing_the_dynamite_away_means_placing_it_again():  # ruling T17
    pos = Position(farmer="lady_boom").neutral((-1, 0), (0, 0), (0, 1)).obstacle("dynamite", (1, 0))
    st = ready(pos.mole(RED, (-1, 0)).hand(RED, ["grenade"]))
    play(st, "grenade", hex=[1, 0])
    assert st.pending == {"k": "dynamite"} and st.dyn_pending
    assert hexes(st, type="target") == {
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-2, 0),
        (-2, 1),
        (-1, 1),
        (0, 2),
        (1, 1),
        (-1, 2),
    }
    do(st, type="target", hex=[1, 1])
    assert feature_at(st, (1, 1)) == B.DYNAMITE and not st.dyn_pending and st.pending is None


def test_lady_boom_not_offered_without_the_dynamite_on_the_board():
    st = ready(farm("lady_boom"))
    assert not card_plays(st, "farmer")


def test_lady_boom_on_the_red_cross_costs_five():  # ruling T15
    pos = Position(farmer="lady_boom").area(3).clear((2, 0)).obstacle("dynamite", (2, 0)).mole(RED, (-1, 0))
    pos.mole(BLUE, (3, 0)).red_cross((3, 0)).hand(RED, ["farmer"])
    st = ready(pos)
    play(st, "farmer", hex=[3, 0])
    assert st.rc == -1 and st.medals[RED] == 5 and mole_at(st, (3, 0)) == -1


def test_a_mole_moving_onto_the_dynamite_is_lost():
    pos = Position(farmer="lady_boom").neutral((-1, 0)).obstacle("dynamite", (0, 0)).mole(RED, (-1, 0))
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert RED not in st.mole and feature_at(st, (0, 0)) == B.DYNAMITE


# --- Trap Master -------------------------------------------------------------------------------------------
def test_trap_master_sets_the_trap_and_it_springs():
    pos = farm("trap_master").barracks(BLUE, (2, 0)).mole(BLUE, (3, 0)).pool(1)
    st = ready(pos)
    play(st, "farmer")
    assert (3, 0) not in hexes(st, type="target") and (2, 0) in hexes(st, type="target")
    do(st, type="target", hex=[2, 0])
    assert feature_at(st, (2, 0)) == B.TRAP and tile_at(st, (2, 0)) == BLUE
    do(st, type="end_turn")
    do(st, type="move", **{"from": [3, 0], "to": [2, 0]})
    assert BLUE not in st.mole and feature_at(st, (2, 0)) == B.NONE and st.pool == 1


def test_trap_master_not_onto_the_red_cross_and_only_unoccupied():
    st = ready(farm("trap_master").feature("trap", (3, -3)).red_cross((2, 0)).mole(BLUE, (1, 0)))
    play(st, "farmer")
    assert not {(2, 0), (1, 0), (0, 0)} & hexes(st, type="target")


# --- The Stomper ----------------------------------------------------------------------------------------------
def test_the_stomper_crushes_and_frightens():
    pos = farm("the_stomper").feature("footprint", (2, 0)).mole(BLUE, (1, -1), (2, -1)).mole(RED, (3, -1))
    st = ready(pos)
    play(st, "farmer")
    assert hexes(st, type="target") == {(1, 0), (2, -1), (3, -1), (3, 0), (2, 1), (1, 1)}
    do(st, type="target", hex=[2, -1])
    assert mole_at(st, (2, -1)) == -1 and feature_at(st, (2, -1)) == B.FOOTPRINT
    # neighbours of (2,-1) run one space away: (1,-1)->(0,-1), (3,-1)->(4,-2) off the field, (0,0)? no
    assert mole_at(st, (0, -1)) == BLUE and mole_at(st, (1, -1)) == -1
    assert mole_at(st, (3, -1)) == -1 and st.medals[RED] == 5


def test_the_stomper_off_the_board_goes_anywhere_but_not_on_the_red_cross():
    st = ready(farm("the_stomper").pool(1).mole(BLUE, (2, 0)).red_cross((2, 0)))
    play(st, "farmer")
    targets = hexes(st, type="target")
    assert (3, -3) in targets and (2, 0) not in targets


def test_the_stomper_does_not_push_a_protected_rival():
    pos = farm("the_stomper").feature("footprint", (3, 0)).mole(BLUE, (1, 0)).red_cross((1, 0))
    st = ready(pos)
    play(st, "farmer", hex=[2, 0])
    assert mole_at(st, (1, 0)) == BLUE


def test_the_stomper_with_no_free_square_next_to_it_is_not_offered():
    pos = Position(farmer="the_stomper").neutral((-1, 0), (0, 0), (1, 0)).feature("footprint", (1, 0))
    st = ready(pos.mole(RED, (-1, 0)).hand(RED, ["farmer", "build_barracks"]).red_cross((0, 0)))
    assert not card_plays(st, "farmer")


# --- Lord of the Crates ---------------------------------------------------------------------------------------
def test_lord_of_the_crates_gives_a_medal_and_a_crate_to_look_at():  # rulings T8, T21 (the crate is optional)
    pos = farm("lord_of_the_crates").crate(0, (3, 0)).crate(1, (0, 3)).crates([5, 0, 2, 3])
    st = ready(pos)
    play(st, "farmer")
    assert hexes(st, type="target") == {(3, 0), (0, 3)} and acts(st, type="target", hex=None)
    do(st, type="target", hex=[3, 0])
    assert st.medals[RED] == 11 and feature_at(st, (0, 0)) == B.CRATE + 0
    assert st.crate_known == [[0], []]
    red_cell = [c for c in st.view(RED)["board"] if c["hex"] == [0, 0]][0]
    assert red_cell["value"] == 5 and red_cell["seen_by"] == [RED]
    assert not st.undoable(RED)
    # Blue sees Red's turn once she confirms it (ruling S3): then that she looked, never the value.
    assert [c for c in st.view(BLUE)["board"] if c["hex"] == [0, 0]][0].get("feature") != "crate"
    do(st, type="end_turn")
    blue_cell = [c for c in st.view(BLUE)["board"] if c["hex"] == [0, 0]][0]
    assert "value" not in blue_cell and blue_cell["seen_by"] == [RED]


def test_lord_of_the_crates_still_pays_without_crates():
    st = ready(farm("lord_of_the_crates"))
    play(st, "farmer")
    assert st.medals[RED] == 11 and st.pending is None


def test_walking_onto_a_crate_shows_it_to_her_only():  # ruling T8
    pos = farm("lord_of_the_crates").crate(2, (0, 0)).crates([0, 2, 3, 5])
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert st.crate_known[RED] == [2] and "3" not in str(
        st.describe(RED, {"type": "move", "from": [-1, 0], "to": [0, 0]}, st)
    )


def test_a_grenade_retires_a_crate():
    st = ready(farm("lord_of_the_crates").crate(1, (1, 0)).hand(RED, ["grenade"]))
    play(st, "grenade", hex=[1, 0])
    assert all(f < B.CRATE for f in st.feat)
    assert st.view(RED)["crates_total"] == 4


def test_lord_of_the_crates_under_a_protected_mole():  # ruling T15
    st = ready(farm("lord_of_the_crates").crate(0, (3, 0)).red_cross((0, 0)))
    play(st, "farmer", hex=[3, 0])
    assert feature_at(st, (0, 0)) == B.CRATE and st.rc == st.geo.cell((0, 0)) and st.crate_known[RED] == [0]


def test_kings_of_buckets_puddle_not_onto_obstacles_or_farmer_tiles():  # ruling T17
    pos = farm("kings_of_buckets").feature("puddle", (3, 0)).clear((2, 0)).obstacle("ice", (2, 0))
    st = ready(pos)
    play(st, "farmer")
    assert not {(2, 0), (3, 0)} & hexes(st, type="target")
