"""Lines of sight (T18, Law #6), Law #4 (T3) with the rulebook's Mortar example, final scoring (T20)."""

from __future__ import annotations

from topoum_positions import Position, acts, do, hexes, mole_at, play, tile_at

from engine.topoum.scoring import final_scores, lines, new_lines

RED, BLUE, YELLOW = 0, 1, 2


def values(st, c):
    return sorted(v for _, _, v in lines(st, c))


# --- lines of sight ----------------------------------------------------------------------------------
def test_rulebook_line_of_sight_example():
    """Yellow: 4 squares, all yellow barracks = 8. Blue: three lines of 4 squares, 6 blue barracks = 18."""
    pos = Position(players=3)
    pos.barracks(YELLOW, (-4, 0), (-3, 0), (-2, 0), (-1, 0)).mole(YELLOW, (-4, 0), (-1, 0))
    corners = [(0, 2), (3, 2), (0, 5)]
    pos.neutral((1, 2), (2, 2), (0, 3), (0, 4), (2, 3), (1, 4), colour=RED).barracks(BLUE, *corners)
    pos.mole(BLUE, *corners)
    pos.neutral((0, 0), (0, 1), colour=RED)  # joins the two groups into one battlefield
    st = pos.build(cur=YELLOW)
    assert values(st, YELLOW) == [8]
    assert values(st, BLUE) == [6, 6, 6] and sum(values(st, BLUE)) == 18


def test_lines_need_squares_and_no_mole_between():  # ruling T18
    pos = Position().neutral((0, 0), (1, 0), (2, 0), (3, 0), (5, 0), (4, 1), colour=2)
    pos.mole(RED, (0, 0), (3, 0), (5, 0)).mole(BLUE, (4, 1))
    st = pos.build()
    # (3,0)-(5,0) has an empty space between; (0,0)-(3,0) is 4 squares
    assert [(st.geo.cells[a], st.geo.cells[b], v) for a, b, v in lines(st, RED)] == [((0, 0), (3, 0), 4)]
    pos.mole(BLUE, (1, 0))
    assert lines(pos.build(), RED) == []


def test_rocks_and_red_cross_block_but_not_at_the_end_mole():  # rulings T15, T16
    pos = Position().neutral((0, 0), (1, 0), (2, 0), colour=2).mole(RED, (0, 0), (2, 0))
    assert values(pos.red_cross((1, 0)).build(), RED) == []
    assert values(pos.red_cross((2, 0)).build(), RED) == [3]
    pos2 = Position().neutral((0, 0), (2, 0), colour=2).obstacle("rock", (1, 0)).mole(RED, (0, 0), (2, 0))
    assert values(pos2.build(), RED) == []


def test_gas_puddle_and_ice_lie_in_lines():  # ruling T16
    pos = Position().neutral((0, 0), (4, 0), colour=2).obstacle("gas", (1, 0)).obstacle("puddle", (2, 0))
    pos.obstacle("ice", (3, 0)).mole(RED, (0, 0), (4, 0))
    assert values(pos.build(), RED) == [5 - 1]


def test_turnip_and_trap_adjust_lines():  # ruling T17
    pos = Position(farmer="queen_of_nature").neutral((0, 0), (1, 0), (2, 0), colour=2).mole(RED, (0, 0), (2, 0))
    assert values(pos.feature("turnip", (0, 0)).build(), RED) == [3 + 2]
    pos = Position(farmer="trap_master").neutral((0, 0), (1, 0), (2, 0), (3, -1), colour=2)
    pos.mole(RED, (0, 0), (2, 0)).feature("trap", (3, -1))
    assert values(pos.build(), RED) == [3 - 1]  # (2,0) stands next to the trap


def strip_game():
    pos = Position().neutral(*[(q, 0) for q in range(-1, 5)], (2, -1), colour=2)
    return pos.mole(RED, (0, 0), (3, 0), (-1, 0)).hand(RED, ["advance", "advance"])


def test_only_new_lines_score():  # Law of War #6, ruling T18
    st = strip_game().build(cur=RED)
    assert values(st, RED) == [2, 4]
    # (-1,0)-(0,0) and (0,0)-(3,0) exist already; Red moves (3,0) on and turns (4,0) into her barracks
    do(st, type="move", **{"from": [3, 0], "to": [4, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    # (0,0)-(4,0) is new (5 squares + her new barracks); (-1,0)-(0,0) was there at the start
    assert st.medals[RED] == 10 + 5 + 1


def test_a_mole_that_moves_away_and_back_makes_a_new_line():  # Law of War #6
    st = strip_game().build(cur=RED)
    do(st, type="move", **{"from": [3, 0], "to": [4, 0]})
    play(st, "advance", hex=[3, 0])
    assert mole_at(st, (3, 0)) == RED
    assert sorted(v for _, _, v in new_lines(st, RED)) == [4]
    do(st, type="end_turn")
    assert st.medals[RED] == 14


def test_lines_unchanged_by_the_turn_do_not_score():
    st = strip_game().build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [-1, 1]})  # walks off the field
    do(st, type="end_turn")
    assert st.medals[RED] == 5


def test_only_the_active_player_scores():
    pos = strip_game().mole(BLUE, (2, -1)).neutral((1, -1), colour=2).mole(BLUE, (1, -1))
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [3, 0], "to": [4, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    assert st.medals[BLUE] == 10


# --- Law #4 -------------------------------------------------------------------------------------------
def mortar_example():
    """Rulebook: Red enters and fires a Mortar at the neutral tile under a yellow mole; the field splits 5/4."""
    pos = Position(players=3)
    pos.neutral((0, 0), colour=RED).mole(YELLOW, (0, 0))
    pos.barracks(RED, (-1, 0), (-1, -1)).barracks(BLUE, (-2, -1)).barracks(YELLOW, (-3, 0))
    pos.barracks(BLUE, (1, 0), (2, 0)).barracks(YELLOW, (3, 0), (4, 0))
    pos.mole(YELLOW, (3, 0)).mole(BLUE, (2, 0)).mole(RED, (-1, -1))
    return pos.line([None, "mortar_attack"])


def test_rulebook_mortar_example_splits_5_4():  # Law of War #4, ruling T3
    st = mortar_example().build(cur=RED)
    do(st, type="enter", hex=[-2, 0])
    play(st, "mortar_attack", source="line", slot=2, hex=[0, 0])
    for h in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]:
        assert tile_at(st, h) == -1 and mole_at(st, h) == -1
    assert st.moles_left == [2, 4, 4]
    assert st.medals == [9, 10, 10]  # -1 for Line slot 2, no penalty: none of Red's moles were lost
    assert st.tiles_left[BLUE] == 15 and st.tiles_left[YELLOW] == 15
    line = st.describe(RED, {"type": "target", "hex": [0, 0]}, before=_before_target())
    assert {"code": "topoum.split", "sizes": [5, 4]} in line
    assert any(e["code"] == "topoum.mole_lost" and e["seat"] == BLUE for e in line)


def _before_target():
    st = mortar_example().build(cur=RED)
    do(st, type="enter", hex=[-2, 0])
    play(st, "mortar_attack", source="line", slot=2)
    return st


def test_own_moles_lost_in_a_split_cost_five():  # Law of War #5
    pos = mortar_example()
    pos.mole(RED, (4, 0))
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[-2, 0])
    play(st, "mortar_attack", source="line", slot=2, hex=[0, 0])
    assert st.medals[RED] == 10 - 1 - 5


def test_red_cross_lost_in_a_split_costs_the_splitter_five():  # ruling T15
    st = mortar_example().red_cross((3, 0)).build(cur=RED)
    do(st, type="enter", hex=[-2, 0])
    play(st, "mortar_attack", source="line", slot=2, hex=[0, 0])
    assert st.rc == -1 and st.medals[RED] == 10 - 1 - 5


def test_equal_parts_let_the_acting_player_choose():  # ruling T3
    pos = Position().neutral((-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), colour=2)
    pos.mole(RED, (-1, 0)).mole(BLUE, (2, 0)).hand(RED, ["grenade"])
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    # grenade on (-1,0): parts {(-2,0)} and {(1,0),(2,0),(0,0)}: unequal; on (1,0): {(2,0)} vs {..3}
    play(st, "grenade", hex=[1, 0])
    assert tile_at(st, (2, 0)) == -1 and mole_at(st, (2, 0)) == -1
    pos = Position().neutral((-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0), colour=2)
    pos.mole(RED, (-1, 0)).mole(BLUE, (2, 0)).hand(RED, ["mortar_attack"])
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [-2, 0]})
    play(st, "mortar_attack", hex=[0, 0])
    assert st.pending["k"] == "keep"
    assert hexes(st, type="keep") == {(-2, 0), (-1, 0), (1, 0), (2, 0)}
    assert {a["type"] for a in acts(st)} == {"keep", "undo"}
    do(st, type="keep", hex=[2, 0])
    assert mole_at(st, (-2, 0)) == -1 and st.medals[RED] == 5 and mole_at(st, (2, 0)) == BLUE
    assert tile_at(st, (-1, 0)) == -1 and tile_at(st, (1, 0)) >= 0
    assert {a["type"] for a in acts(st)} >= {"end_turn"}


def test_outposts_are_not_removed_by_law_4():  # ruling T3
    pos = Position().neutral((0, 0), (1, 0), (2, 0), colour=2).neutral((4, 0), colour=3).outpost((4, 0))
    pos.mole(RED, (0, 0)).hand(RED, ["grenade"]).neutral((-1, 0), colour=2)
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [-1, 0]})
    play(st, "grenade", hex=[0, 0])
    # parts: {(-1,0)} with Red's mole and {(1,0),(2,0)}: the smaller goes, the outpost stays
    assert tile_at(st, (-1, 0)) == -1 and tile_at(st, (1, 0)) >= 0 and st.medals[RED] == 5
    assert tile_at(st, (4, 0)) == 3 and not st.bf[st.geo.cell((4, 0))]


def test_outposts_join_when_touched():  # ruling T3
    pos = Position().neutral((0, 0), (1, 0), (2, 0), colour=2).neutral((4, 0), colour=3).outpost((4, 0))
    pos.mole(RED, (0, 0)).hand(RED, ["build_barracks"]).neutral((-1, 0), colour=2)
    st = pos.build(cur=RED)
    assert not st.bf[st.geo.cell((4, 0))]
    do(st, type="move", **{"from": [0, 0], "to": [-1, 0]})
    play(st, "build_barracks", hex=[3, 0])
    assert st.bf[st.geo.cell((4, 0))]


# --- final scoring -------------------------------------------------------------------------------------
def pile(combat, movement, expansion, special):
    return ["grenade"] * combat + ["advance"] * movement + ["conquest"] * expansion + ["medal_of_honor"] * special


def test_rulebook_final_scoring_example():  # ruling T20
    victor, cesar = final_scores([pile(3, 3, 1, 2), pile(2, 2, 3, 2)])
    assert victor["categories"] == 3 + 3 + 2 and victor["sets"] == 2
    assert cesar["categories"] == 3 + 2 and cesar["sets"] == 4
    assert victor["categories"] + victor["sets"] == 10 and cesar["categories"] + cesar["sets"] == 9


def test_a_category_nobody_played_scores_nothing():
    a, b = final_scores([pile(1, 0, 0, 0), pile(0, 0, 0, 0)])
    assert a["categories"] == 3 and b["categories"] == 0 and a["sets"] == 0


def game_over(medals, barracks=(0, 0), piles=((), ())):
    pos = Position().neutral((0, 0), colour=2)
    for seat, count in enumerate(barracks):
        for i in range(count):
            pos.barracks(seat, (i + 1, -seat * 2))
    for seat, cards in enumerate(piles):
        pos.pile(seat, list(cards))
    st = pos.build()
    from engine.topoum.scoring import finish

    st.medals = list(medals)
    finish(st)
    return st


def test_final_scoring_at_the_end_and_ranks():
    st = game_over([10, 10], piles=(pile(1, 0, 0, 0), ()))
    assert st.medals == [13, 10]
    assert [r.rank for r in st.results()] == [1, 2]


def test_ties_go_to_barracks_then_discards_then_share():  # ruling T20
    st = game_over([10, 10], barracks=(1, 2))
    assert [r.rank for r in st.results()] == [2, 1]
    assert [r.tie_break for r in st.results()] == ["barracks", "barracks"]  # which rule decided it (decision 24)
    st = game_over([10, 10], barracks=(2, 2), piles=(pile(1, 0, 0, 0), pile(1, 0, 0, 0) + ["grenade"]))
    assert st.medals == [10, 13] and [r.rank for r in st.results()] == [2, 1]
    assert [r.tie_break for r in st.results()] == [None, None]  # the medals decided it
    st = game_over([10, 10], barracks=(2, 2), piles=(pile(1, 0, 0, 0), pile(1, 0, 0, 0)))
    assert st.medals == [12, 12] and [r.rank for r in st.results()] == [1, 1]
    assert [r.tie_break for r in st.results()] == ["shared", "shared"]


def test_discard_count_breaks_a_tie_of_medals_and_barracks():  # ruling T20
    # Red: 2 for the tied movement majority; Blue: 2 for it and 3 for special
    st = game_over([13, 10], barracks=(1, 1), piles=(pile(0, 1, 0, 0), pile(0, 1, 0, 0) + ["medal_of_honor"]))
    assert st.medals == [15, 15]
    assert [r.rank for r in st.results()] == [2, 1]  # Blue has the bigger pile
    assert [r.tie_break for r in st.results()] == ["discard_pile", "discard_pile"]


def test_crates_score_for_the_moles_on_them_at_the_end():  # ruling T8, T20
    pos = Position(farmer="lord_of_the_crates").neutral((0, 0), (1, 0), colour=2).crate(3, (0, 0)).crate(1, (1, 0))
    pos.mole(RED, (0, 0)).crates([0, 2, 3, 5])
    st = pos.build()
    from engine.topoum.scoring import finish

    finish(st)
    assert st.final[RED]["crates"] == 5 and st.medals[RED] == 15 and st.medals[BLUE] == 10
