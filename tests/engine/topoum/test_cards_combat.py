"""Combat cards (rulebook section 5, ruling T14): what each one eliminates, and when it is not offered (Law #7).

Most positions: a disc of squares of radius 2 around (0, 0); Red's mole starts on her barracks at
(-1, 0) and moves east onto (0, 0), where it is the active mole.
"""

from __future__ import annotations

from topoum_asserts import (
    BLUE,
    RED,
    START,
    YELLOW,
    A,
    choices,
    field,
    go,
    has_tile,
    medals,
    moles_of,
    offered,
    play,
    red_holding,
    red_to_act,
    reserve,
    squares,
    tiles_in_reserve,
)
from topoum_positions import Position, acts, do, mole_at


# --- Bayonet ---------------------------------------------------------------------------------
def test_bayonet_moves_the_active_mole_onto_the_adjacent_rival_which_is_eliminated():
    pos = red_to_act().mole(BLUE, (1, 0), (2, 0)).mole(RED, (0, 1))
    st = go(pos, ["bayonet"])
    # only adjacent rival moles: not her own (0, 1), not the rival two spaces away
    assert choices(st, "bayonet") == {(1, 0)}
    play(st, "bayonet", (1, 0))
    assert mole_at(st, (1, 0)) == 0  # Red stands where the rival was
    assert mole_at(st, A) == -1
    assert moles_of(st, BLUE) == {(2, 0)}
    assert reserve(st, BLUE) == 3  # the eliminated mole is back in Blue's reserve
    assert medals(st, RED) == 10  # no penalty: no own mole lost


def test_bayonet_is_not_offered_without_an_adjacent_rival():
    # "necessarily occupied by a rival mole": a rival two spaces away and an own neighbour do not count
    pos = red_to_act().mole(BLUE, (2, 0)).mole(RED, (0, 1))
    st = go(pos, ["bayonet", "advance"])
    assert "bayonet" not in offered(st)
    assert "advance" in offered(st)


# --- Short Range --------------------------------------------------------------------------------
def test_short_range_eliminates_an_adjacent_rival_and_the_shooter_stays():
    pos = red_to_act(players=3).mole(BLUE, (1, -1), (2, 0)).mole(YELLOW, (-1, 1)).mole(RED, (0, -1))
    st = go(pos, ["short_range"])
    assert choices(st, "short_range") == {(1, -1), (-1, 1)}  # rivals of any colour, adjacent only
    play(st, "short_range", (1, -1))
    assert mole_at(st, (1, -1)) == -1
    assert mole_at(st, A) == 0
    assert moles_of(st, BLUE) == {(2, 0)}
    assert moles_of(st, YELLOW) == {(-1, 1)}
    assert reserve(st, BLUE) == 3
    assert medals(st, RED) == 10


def test_short_range_is_not_offered_without_an_adjacent_rival():
    # the rulebook's own example of Law #7
    pos = red_to_act().mole(BLUE, (2, 0), (0, -2)).mole(RED, (1, 0))
    st = go(pos, ["short_range", "advance"])
    assert "short_range" not in offered(st)


# --- Long Range ----------------------------------------------------------------------------------
def test_long_range_hits_a_rival_two_or_three_spaces_away_in_a_straight_line():
    pos = red_to_act().neutral((0, -3), (-3, 0), (-4, 0), colour=3)
    pos.mole(BLUE, (2, 0), (0, -3), (-1, 1), (-4, 0))
    st = go(pos, ["long_range"])
    # (2, 0): 2 away; (0, -3): 3 away; (-1, 1) is adjacent and (-4, 0) is 4 away
    assert choices(st, "long_range") == {(2, 0), (0, -3)}
    play(st, "long_range", (0, -3))
    assert mole_at(st, (0, -3)) == -1
    assert moles_of(st, BLUE) == {(2, 0), (-1, 1), (-4, 0)}
    assert reserve(st, BLUE) == 1
    assert mole_at(st, A) == 0


def test_long_range_is_blocked_by_moles_and_rocks_in_between():
    pos = red_to_act(players=3)
    pos.mole(RED, (1, 0)).mole(BLUE, (2, 0))  # east: her own mole in between
    pos.mole(YELLOW, (0, 1)).mole(BLUE, (0, 2))  # south-east: a rival mole in between
    pos.obstacle("rock", (0, -1)).mole(BLUE, (0, -2))  # north-west: a rock in between
    st = go(pos, ["long_range", "advance"])
    assert "long_range" not in offered(st)


def test_long_range_is_not_blocked_by_an_empty_space_in_between():
    # ruling T14: empty spaces do not block the shot
    pos = red_to_act(without=[(-1, 1)]).mole(BLUE, (-2, 2))
    st = go(pos, ["long_range"])
    assert choices(st, "long_range") == {(-2, 2)}
    play(st, "long_range", (-2, 2))
    assert moles_of(st, BLUE) == set()


def test_long_range_is_not_offered_when_rivals_are_only_adjacent_or_four_away():
    pos = red_to_act().neutral((-3, 0), (-4, 0), colour=3).mole(BLUE, (1, 0), (-4, 0))
    st = go(pos, ["long_range", "advance"])
    assert "long_range" not in offered(st)


# --- Grenade -----------------------------------------------------------------------------------
def test_grenade_removes_an_adjacent_square_with_the_rival_mole_on_it():
    pos = red_to_act(without=[(0, 1)]).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    st = go(pos, ["grenade"])
    # every adjacent square (empty ones too), never a space without a tile, never her own square
    assert choices(st, "grenade") == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)}
    blue_tiles = tiles_in_reserve(st, BLUE)
    play(st, "grenade", (1, 0))
    assert not has_tile(st, (1, 0))
    assert mole_at(st, (1, 0)) == -1
    assert reserve(st, BLUE) == 4
    assert tiles_in_reserve(st, BLUE) == blue_tiles + 1  # the barracks goes back to its colour (T4)
    assert medals(st, RED) == 10
    assert mole_at(st, A) == 0


def test_grenade_on_an_own_mole_costs_five_medals():
    # Law #5: friendly fire
    pos = red_to_act().mole(RED, (1, -1))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, -1))
    assert not has_tile(st, (1, -1))
    assert moles_of(st, RED) == {A}
    assert reserve(st, RED) == 3
    assert medals(st, RED) == 5


def test_grenade_that_splits_the_battlefield_removes_the_smaller_part_and_own_losses_cost():
    # Law #4 and Law #5's first bullet: own moles in the removed part cost 5 each
    pos = Position(players=2)
    pos.neutral((-2, 0), (0, 0), (1, 0), (2, 0), (3, 0), (-2, 1), colour=3)
    pos.barracks(RED, START).mole(RED, START).mole(RED, (3, 0)).mole(BLUE, (2, 0)).mole(BLUE, (-2, 1))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, 0))  # leaves {(-2,0),(-2,1),(-1,0),(0,0)} and {(2,0),(3,0)}
    assert squares(st) == {(-2, 0), (-2, 1), (-1, 0), (0, 0)}
    assert moles_of(st, BLUE) == {(-2, 1)}
    assert moles_of(st, RED) == {A}
    assert medals(st, RED) == 5


def test_grenade_that_splits_the_battlefield_in_equal_parts_lets_the_player_choose():
    # Law #4: "If the parts have the same extension, the player who provoked the division decides"
    pos = Position(players=2)
    pos.neutral((0, 0), (1, 0), (2, 0), (3, 0), colour=3)
    pos.barracks(RED, START).mole(RED, START).mole(BLUE, (3, 0))
    st = go(pos, ["grenade"])
    play(st, "grenade", (1, 0))  # {(-1,0),(0,0)} against {(2,0),(3,0)}: equal, Red decides
    keeps = {tuple(a["hex"]) for a in acts(st, type="keep")}
    assert keeps == {(-1, 0), (0, 0), (2, 0), (3, 0)}
    do(st, type="keep", hex=[0, 0])
    assert squares(st) == {(-1, 0), (0, 0)}
    assert moles_of(st, BLUE) == set()
    assert medals(st, RED) == 10


# --- Mortar Attack -----------------------------------------------------------------------------
def test_mortar_attack_rulebook_example_splits_the_battlefield_four_against_five():
    # Law #4 example: Red enters into combat and shells the neutral square of a yellow mole;
    # the 4-square part with a yellow and a blue mole disappears, the 5-square part stays.
    pos = Position(players=3)
    pos.neutral((0, 0), (1, 0), (2, 0), (3, -1), (4, -1), (4, -2), (5, -2), (5, -1), colour=3)
    pos.barracks(RED, START).mole(RED, START)
    pos.mole(YELLOW, (3, -1), (4, -1)).mole(BLUE, (5, -2))
    st = red_holding(pos, ["mortar_attack"])
    do(st, type="enter", hex=[1, -1])
    assert choices(st, "mortar_attack") == {(3, -1)}
    play(st, "mortar_attack", (3, -1))
    assert squares(st) == {(-1, 0), (0, 0), (1, 0), (2, 0), (1, -1)}
    assert moles_of(st, YELLOW) == set() and reserve(st, YELLOW) == 4
    assert moles_of(st, BLUE) == set() and reserve(st, BLUE) == 4
    assert moles_of(st, RED) == {(-1, 0), (1, -1)}
    assert medals(st, RED) == 10


def test_mortar_attack_hits_the_square_two_away_ignoring_what_is_between():
    pos = red_to_act(without=[(0, -1)]).mole(BLUE, (1, 0), (2, 0), (0, -2))
    st = go(pos, ["mortar_attack"])
    # parabolic: the empty space at (0, -1) and the mole at (1, 0) do not matter
    assert choices(st, "mortar_attack") == {(2, 0), (2, -2), (0, -2), (-2, 0), (-2, 2), (0, 2)}
    play(st, "mortar_attack", (0, -2))
    assert not has_tile(st, (0, -2))
    assert moles_of(st, BLUE) == {(1, 0), (2, 0)}  # the square in between is untouched
    assert has_tile(st, (1, 0))


def test_mortar_attack_is_not_offered_without_a_square_two_away():
    pos = Position(players=2)
    field(pos, radius=1)
    pos.barracks(RED, START).mole(RED, START).mole(BLUE, (1, 0))
    st = go(pos, ["mortar_attack", "short_range"])
    assert "mortar_attack" not in offered(st)
    assert "short_range" in offered(st)


# --- Slingshot ----------------------------------------------------------------------------------
def test_slingshot_eliminates_a_rival_exactly_two_away_ignoring_what_is_between():
    pos = red_to_act(without=[(0, -1)]).neutral((0, 3), colour=3)
    pos.mole(BLUE, (1, 0), (2, 0), (0, -2), (0, 3))
    st = go(pos, ["slingshot"])
    # (2, 0) behind a mole, (0, -2) across an empty space; not the adjacent (1, 0), not (0, 3) at 3
    assert choices(st, "slingshot") == {(2, 0), (0, -2)}
    play(st, "slingshot", (2, 0))
    assert moles_of(st, BLUE) == {(1, 0), (0, -2), (0, 3)}
    assert has_tile(st, (2, 0))  # a shot, not an explosion: the square stays
    assert medals(st, RED) == 10


def test_slingshot_is_not_offered_when_rivals_are_one_or_three_away_and_own_moles_two_away():
    pos = red_to_act().neutral((0, 3), colour=3).mole(BLUE, (1, 0), (0, 3)).mole(RED, (-2, 2))
    st = go(pos, ["slingshot", "advance"])
    assert "slingshot" not in offered(st)


# --- from the Line of Operations (ruling T5, T13) ------------------------------------------------
def test_a_combat_card_from_the_line_pays_its_slot_and_unplayable_line_cards_are_not_listed():
    pos = red_to_act().mole(BLUE, (1, 0)).line([None, "slingshot", None, None, "short_range"])
    st = go(pos, [])
    plays = {(a["card"], a.get("slot")) for a in acts(st, type="play")}
    assert plays == {("short_range", 5)}  # no rival two away: the Slingshot in slot 2 is not listed
    play(st, "short_range", (1, 0), source="line")
    assert moles_of(st, BLUE) == set()
    assert medals(st, RED) == 12  # slot 5 gives 2 medals
