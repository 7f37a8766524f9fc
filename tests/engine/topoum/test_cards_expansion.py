"""Expansion cards (rulebook section 5, rulings T3, T10, T14): new barracks and moles, and Law #7.

Red's mole starts on her barracks at (-1, 0) and moves east onto (0, 0), the active mole.
"""

from __future__ import annotations

from topoum_asserts import (
    BLUE,
    RED,
    START,
    A,
    choices,
    field,
    free_spaces_next_to,
    go,
    has_tile,
    is_barracks,
    is_neutral,
    medals,
    moles_of,
    offered,
    outposts,
    play,
    red_to_act,
    reserve,
    tiles_in_reserve,
)
from topoum_positions import Position, acts, do, mole_at


def small(pos=None):
    """Three squares in a row: Red's barracks (-1, 0), neutral (0, 0), neutral (1, 0) with a blue mole."""
    pos = pos or Position(players=2)
    pos.neutral(A, (1, 0), colour=3).barracks(RED, START).mole(RED, START).mole(BLUE, (1, 0))
    return pos


def moves_from(st) -> set:
    return {tuple(a["from"]) for a in acts(st, type="move")}


# --- Build Barracks -------------------------------------------------------------------------------
def test_build_barracks_goes_on_any_empty_space_next_to_the_battlefield_not_next_to_an_outpost():
    pos = small().neutral((3, 0), colour=2).outpost((3, 0))
    st = go(pos, ["build_barracks"])
    expected = free_spaces_next_to(st, [START, A, (1, 0)])
    assert choices(st, "build_barracks") == expected
    assert (4, 0) not in expected  # next to the outpost only (ruling T3)
    tiles = tiles_in_reserve(st, RED)
    play(st, "build_barracks", (2, 0))  # next to (1, 0) and to the outpost (3, 0)
    assert is_barracks(st, (2, 0), RED)
    assert mole_at(st, (2, 0)) == -1
    assert tiles_in_reserve(st, RED) == tiles - 1
    assert outposts(st) == set()  # the outpost it touches joins the battlefield (ruling T3)


def test_build_barracks_with_none_in_reserve_takes_back_a_free_barracks_first():
    # ruling T10 (Spanish rule 7): a bare barracks whose removal does not split the battlefield
    pos = small().reserve_tiles(RED, 0)
    st = go(pos, ["build_barracks"])
    assert "build_barracks" in offered(st)
    play(st, "build_barracks", (2, 0))
    assert {tuple(a["hex"]) for a in acts(st, type="take_back")} == {START}
    do(st, type="take_back", hex=list(START))
    assert not has_tile(st, START)
    assert is_barracks(st, (2, 0), RED)
    assert tiles_in_reserve(st, RED) == 0


def test_build_barracks_is_not_offered_without_a_barracks_to_place():
    # no barracks in reserve; her only barracks on the board holds the active mole (ruling T10)
    pos = Position(players=2)
    pos.neutral(START, (1, 0), colour=3).barracks(RED, A).mole(RED, START).mole(BLUE, (1, 0))
    pos.reserve_tiles(RED, 0)
    st = go(pos, ["build_barracks", "short_range"])
    assert "build_barracks" not in offered(st)
    assert "short_range" in offered(st)


# --- Abandoned Barracks ---------------------------------------------------------------------------
def test_abandoned_barracks_is_built_next_to_the_active_mole_which_moves_onto_it():
    st = go(small(), ["abandoned_barracks"])
    # empty spaces next to the active mole only, not elsewhere around the battlefield
    assert choices(st, "abandoned_barracks") == {(1, -1), (0, -1), (-1, 1), (0, 1)}
    play(st, "abandoned_barracks", (0, -1))
    assert is_barracks(st, (0, -1), RED)
    assert mole_at(st, (0, -1)) == 0
    assert mole_at(st, A) == -1 and has_tile(st, A)
    assert medals(st, RED) == 10


def test_abandoned_barracks_is_not_offered_when_the_active_mole_is_surrounded_by_squares():
    pos = red_to_act().mole(BLUE, (1, 0))
    st = go(pos, ["abandoned_barracks", "short_range"])
    assert "abandoned_barracks" not in offered(st)


def test_abandoned_barracks_is_not_offered_without_a_barracks_to_place():
    pos = Position(players=2)
    pos.neutral(START, (1, 0), colour=3).barracks(RED, A).mole(RED, START).mole(BLUE, (1, 0))
    pos.reserve_tiles(RED, 0)
    st = go(pos, ["abandoned_barracks", "short_range"])
    assert "abandoned_barracks" not in offered(st)


# --- Conquest --------------------------------------------------------------------------------------
def test_conquest_replaces_an_unoccupied_rival_barracks_or_neutral_tile_next_to_the_active_mole():
    pos = red_to_act(without=[(0, 1)])
    pos.barracks(BLUE, (1, 0), (2, 0), (-1, 1)).mole(BLUE, (0, -1), (-1, 1))
    st = go(pos, ["conquest"])
    # (1, 0) Blue's bare barracks and (1, -1) a bare neutral tile; not the occupied (0, -1) and
    # (-1, 1), not her own barracks (-1, 0), not Blue's barracks (2, 0) two spaces away
    assert choices(st, "conquest") == {(1, 0), (1, -1)}
    red_tiles, blue_tiles = tiles_in_reserve(st, RED), tiles_in_reserve(st, BLUE)
    play(st, "conquest", (1, 0))
    assert is_barracks(st, (1, 0), RED)
    assert tiles_in_reserve(st, RED) == red_tiles - 1
    assert tiles_in_reserve(st, BLUE) == blue_tiles + 1  # the replaced tile goes back to Blue (T4)


def test_conquest_of_a_neutral_tile_returns_it_to_its_colour():
    pos = small()
    pos.neutral((0, -1), colour=1)
    st = go(pos, ["conquest"])
    blue_tiles = tiles_in_reserve(st, BLUE)
    play(st, "conquest", (0, -1))
    assert is_barracks(st, (0, -1), RED)
    assert tiles_in_reserve(st, BLUE) == blue_tiles + 1


def test_conquest_is_not_offered_when_every_neighbouring_tile_is_occupied_or_her_own_barracks():
    pos = Position(players=2)
    pos.neutral(A, (1, 0), (0, 1), colour=3).barracks(RED, START, (0, -1))
    pos.mole(RED, START).mole(BLUE, (1, 0), (0, 1))
    st = go(pos, ["conquest", "short_range"])
    assert "conquest" not in offered(st)


# --- Betrayal --------------------------------------------------------------------------------------
def test_betrayal_replaces_an_adjacent_rival_with_a_mole_from_her_reserve():
    st = go(small(), ["betrayal"])
    assert choices(st, "betrayal") == {(1, 0)}
    play(st, "betrayal", (1, 0))
    assert mole_at(st, (1, 0)) == 0
    assert moles_of(st, RED) == {A, (1, 0)}
    assert reserve(st, RED) == 2
    assert reserve(st, BLUE) == 4
    assert (1, 0) not in moves_from(st)  # a mole from the reserve cannot move this turn (T14)
    assert medals(st, RED) == 10


def test_betrayal_is_not_offered_with_an_empty_reserve():
    pos = red_to_act().mole(BLUE, (1, 0)).mole(RED, (2, 0), (0, 2), (-2, 2))
    st = go(pos, ["betrayal", "short_range"])
    assert reserve(st, RED) == 0
    assert "betrayal" not in offered(st)
    assert "short_range" in offered(st)


def test_betrayal_is_not_offered_without_an_adjacent_rival():
    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (1, 0))
    st = go(pos, ["betrayal", "advance"])
    assert "betrayal" not in offered(st)


# --- New Soldier -------------------------------------------------------------------------------
def test_new_soldier_deploys_a_reserve_mole_two_away_ignoring_the_space_between():
    pos = red_to_act(without=[(0, -1)]).mole(BLUE, (1, 0))
    st = go(pos, ["new_soldier"])
    assert choices(st, "new_soldier") == {(2, 0), (2, -2), (0, -2), (-2, 0), (-2, 2), (0, 2)}
    play(st, "new_soldier", (0, -2))  # across the empty space (0, -1)
    assert moles_of(st, RED) == {A, (0, -2)}
    assert reserve(st, RED) == 2
    assert (0, -2) not in moves_from(st)  # T14: a mole from the reserve cannot move this turn


def test_new_soldier_onto_a_rival_eliminates_both_without_penalty():
    pos = red_to_act().mole(BLUE, (2, 0))
    st = go(pos, ["new_soldier"])
    play(st, "new_soldier", (2, 0))
    assert moles_of(st, RED) == {A} and moles_of(st, BLUE) == set()
    assert reserve(st, RED) == 3 and reserve(st, BLUE) == 4
    assert medals(st, RED) == 10


def test_new_soldier_onto_an_own_mole_eliminates_both_and_costs_ten():
    pos = red_to_act().mole(RED, (2, 0))
    st = go(pos, ["new_soldier"])
    play(st, "new_soldier", (2, 0))
    assert moles_of(st, RED) == {A}
    assert reserve(st, RED) == 3
    assert medals(st, RED) == 0


def test_new_soldier_is_not_offered_with_an_empty_reserve_or_without_a_square_two_away():
    pos = red_to_act().mole(RED, (1, 0), (0, 1), (-1, 1))
    st = go(pos, ["new_soldier", "advance"])
    assert "new_soldier" not in offered(st)

    pos = Position(players=2)
    field(pos, radius=1)
    pos.barracks(RED, START).mole(RED, START)
    st = go(pos, ["new_soldier", "advance"])
    assert "new_soldier" not in offered(st)
    assert is_neutral(st, A)


def test_conquest_does_not_take_obstacle_tiles():
    # only "a unoccupied rival barracks or a unoccupied neutral terrain"
    pos = Position(players=2, obstacles=True)
    pos.neutral(A, colour=3).barracks(RED, START).mole(RED, START).barracks(BLUE, (1, -1))
    pos.obstacle("puddle", (1, 0)).obstacle("ice", (0, 1)).obstacle("gas", (0, -1))
    st = go(pos, ["conquest"])
    assert choices(st, "conquest") == {(1, -1)}
