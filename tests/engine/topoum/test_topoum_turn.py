"""The turn: ransom and the compulsory mole (T9), running out (T10), entering (T11), moving (T12),
card costs (T13), replenishing, Peace and the final round (T19), undo (S3)."""

from __future__ import annotations

import pytest
from topoum_positions import Position, acts, do, hexes, mole_at, play, tile_at

from engine.core import IllegalAction
from engine.topoum import board as B
from engine.topoum.cards import PEACE

RED, BLUE, YELLOW = 0, 1, 2


def strip(q0, q1, r=0):
    return [(q, r) for q in range(q0, q1 + 1)]


# --- T9: the start of the turn ----------------------------------------------------------------
def test_no_mole_means_a_compulsory_placement_first():  # ruling T9
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).barracks(RED, (-1, 0))
    st = pos.hand(RED, ["advance"]).build(cur=RED)
    assert {a["type"] for a in acts(st)} == {"place"}
    assert (-2, 0) in hexes(st) and (-1, -1) in hexes(st) and (3, 0) not in hexes(st)
    do(st, type="place", hex=[-1, -1])
    assert mole_at(st, (-1, -1)) == RED and st.stage == "action"
    # that mole may move this turn, and she may also enter into combat
    assert acts(st, type="move", **{"from": [-1, -1]})
    assert {a["type"] for a in acts(st)} >= {"move", "enter"}


def test_ransom_costs_three_medals_to_the_captor():  # ruling T9
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).barracks(RED, (-1, 0))
    pos.mole(RED, (-1, 0)).prisoners(BLUE, RED, 1).hand(RED, ["advance"])
    st = pos.build(cur=RED)
    assert st.moles_left[RED] == 2
    do(st, type="ransom", captor=BLUE)
    assert st.medals == [7, 13] and st.moles_left[RED] == 3 and st.prisoners[BLUE][RED] == 0
    assert not acts(st, type="ransom")


def test_no_ransom_without_three_medals_or_after_acting():  # rulings T9, T21
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).prisoners(BLUE, RED)
    st = pos.medals(RED, 2).hand(RED, ["advance"]).build(cur=RED)
    assert not acts(st, type="ransom")
    st = pos.medals(RED, 10).build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert not acts(st, type="ransom")


def test_a_player_with_nothing_to_do_only_ends_her_turn():  # ruling T9
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    for _ in range(4):
        pos.prisoners(BLUE, RED, 4)
    st = pos.medals(RED, 0).build(cur=RED)
    assert acts(st) == [{"type": "end_turn"}]


# --- T11: enter into combat --------------------------------------------------------------------
def test_entry_only_where_a_card_can_then_be_played():  # ruling T11, Law #7
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    pos.barracks(RED, (-1, 0)).mole(RED, (-1, 0)).hand(RED, ["short_range"])
    st = pos.build(cur=RED)
    # Short Range needs a rival next to the new mole: only spaces next to (1,0)
    assert hexes(st, type="enter") == {(2, 0), (2, -1), (1, -1), (0, 1), (1, 1)}
    assert (-2, 0) not in hexes(st, type="enter")


def test_entering_places_barracks_and_mole_then_a_card_must_follow():  # ruling T11
    pos = Position().neutral((0, 0)).barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    pos.barracks(RED, (-1, 0)).mole(RED, (-1, 0)).hand(RED, ["short_range", "advance"])
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[1, -1])
    assert tile_at(st, (1, -1)) == B.BARRACKS + RED and mole_at(st, (1, -1)) == RED
    assert {a["type"] for a in acts(st)} == {"play", "undo"}
    play(st, "short_range", hex=[1, 0])
    assert mole_at(st, (1, 0)) == -1 and st.moles_left[BLUE] == 4
    assert {a["type"] for a in acts(st)} == {"end_turn", "undo"}  # entering is the whole action


def test_the_new_mole_cannot_move_this_turn():  # ruling T14
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).hand(RED, ["build_barracks"])
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[1, 0])
    play(st, "build_barracks", hex=[2, 0])
    assert not acts(st, type="move")


def test_no_entry_without_a_reserve_mole():
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).hand(RED, ["build_barracks"])
    st = pos.prisoners(BLUE, RED, 3).medals(RED, 0).build(cur=RED)
    assert not acts(st, type="enter") and acts(st, type="move")


# --- T12: moving moles --------------------------------------------------------------------------
def two_red_one_blue():
    pos = Position().neutral((0, 0), (1, 0), (2, 0)).barracks(RED, (-1, 0)).barracks(BLUE, (3, 0))
    return pos.mole(RED, (0, 0), (-1, 0)).mole(BLUE, (1, 0))


def test_fair_combat_costs_nothing():  # ruling T12, Law #5
    st = two_red_one_blue().build(cur=RED)
    do(st, type="move", **{"from": [0, 0], "to": [1, 0]})
    assert mole_at(st, (0, 0)) == -1 and mole_at(st, (1, 0)) == -1
    assert st.medals == [10, 10] and st.moles_left == [3, 4]
    assert acts(st, type="move") and not acts(st, type="play")  # no card after a combat


def test_friendly_collision_costs_ten():  # ruling T12, Law #5
    st = two_red_one_blue().build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert st.medals[RED] == 0 and st.moles_left[RED] == 4


def test_walking_off_the_battlefield_costs_five():  # Law #3, Law #5
    st = two_red_one_blue().build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [-2, 0]})
    assert st.medals[RED] == 5 and st.moles_left[RED] == 3


def test_off_the_board_edge_is_lost_too():
    pos = Position(radius=4).neutral((4, 0), (3, 0)).mole(RED, (4, 0)).mole(BLUE, (3, 0))
    st = pos.build(cur=RED)
    do(st, type="move", **{"from": [4, 0], "to": [5, 0]})
    assert st.medals[RED] == 5 and RED not in st.mole


def test_cannot_move_onto_a_rock_or_a_protected_rival():  # rulings T12, T15
    pos = two_red_one_blue().obstacle("rock", (0, -1)).red_cross((1, 0))
    st = pos.build(cur=RED)
    targets = {tuple(a["to"]) for a in acts(st, type="move", **{"from": [0, 0]})}
    assert (0, -1) not in targets and (1, 0) not in targets and (-1, 1) in targets


def test_moving_to_a_free_square_needs_a_card_or_a_tile_change():  # ruling T12
    pos = Position().neutral((0, 0), (1, 0)).barracks(BLUE, (0, 1)).barracks(RED, (-1, 0)).mole(RED, (-1, 0))
    st = pos.hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    options = acts(st)
    assert {"type": "change_tile"} in options and {"type": "play", "card": "advance", "source": "hand"} in options
    assert {"type": "end_turn"} not in options


@pytest.mark.parametrize(
    "start,after",
    [
        (B.BARRACKS + RED, RED),  # own barracks turns neutral
        (RED, B.BARRACKS + RED),  # own neutral turns to its barracks side
        (BLUE, B.BARRACKS + RED),  # a neutral tile of another colour is replaced
        (B.BARRACKS + BLUE, B.BARRACKS + RED),  # a rival barracks is replaced
    ],
)
def test_changing_the_tile_under_the_mole(start, after):  # ruling T12, T4
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0))
    st = pos.build(cur=RED)
    st.tile[st.geo.cell((0, 0))] = start
    before = list(st.tiles_left)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    do(st, type="change_tile")
    assert tile_at(st, (0, 0)) == after
    if start & 3 != RED:
        assert st.tiles_left[start & 3] == before[start & 3] + 1
        assert st.tiles_left[RED] == before[RED] - 1
    else:
        assert st.tiles_left == before


def test_a_move_with_no_possible_follow_up_is_not_offered():  # Law #7
    pos = Position().barracks(BLUE, (0, 0)).neutral((-1, 0), colour=BLUE).mole(RED, (-1, 0))
    st = pos.reserve_tiles(RED, 0).build(cur=RED)  # no card, no barracks in reserve, none to take back
    targets = {tuple(a["to"]) for a in acts(st, type="move")}
    assert (0, 0) not in targets and (-2, 0) in targets  # (the suicidal step stays allowed)


def test_each_mole_moves_once_and_several_may_move():  # ruling T12
    st = two_red_one_blue().neutral((-1, 1)).hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [-1, 1]})
    assert acts(st, type="play")
    do(st, type="change_tile")
    assert st.stage == "moving"
    froms = {tuple(a["from"]) for a in acts(st, type="move")}
    assert froms == {(0, 0)}
    assert {"type": "end_turn"} in acts(st)


# --- T10: running out of barracks ----------------------------------------------------------------
def test_running_out_takes_back_a_free_barracks_that_does_not_split():  # ruling T10
    # red barracks at the end of a strip (free) and in its middle (would split it)
    pos = Position().barracks(RED, (-2, 0), (0, 0)).neutral((-1, 0), (1, 0), (2, 0))
    pos.mole(RED, (2, 0)).reserve_tiles(RED, 0).hand(RED, ["grenade"])
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[3, 0])
    assert {a["type"] for a in acts(st)} == {"take_back", "undo"}
    assert hexes(st, type="take_back") == {(-2, 0)}
    do(st, type="take_back", hex=[-2, 0])
    assert tile_at(st, (-2, 0)) == -1 and tile_at(st, (3, 0)) == B.BARRACKS + RED
    assert st.tiles_left[RED] == 0
    assert acts(st, type="play", card="grenade")


def test_building_needs_a_second_barracks_when_entering_took_the_last():  # ruling T10
    pos = Position().barracks(RED, (-2, 0), (0, 0)).neutral((-1, 0), (1, 0), (2, 0))
    pos.mole(RED, (2, 0)).reserve_tiles(RED, 0).hand(RED, ["build_barracks"])
    st = pos.build(cur=RED)
    assert not acts(st, type="enter")  # the only free barracks pays for the entry, none is left to build


def test_running_out_with_nothing_to_take_back_forbids_entering():  # ruling T10
    pos = Position().barracks(RED, (0, 0)).neutral((-1, 0), (1, 0)).mole(RED, (1, 0), (-1, 0))
    st = pos.reserve_tiles(RED, 0).hand(RED, ["build_barracks"]).build(cur=RED)
    assert not acts(st, type="enter")


# --- T13: card costs -------------------------------------------------------------------------------
@pytest.mark.parametrize("slot,medals", [(1, 8), (2, 9), (3, 10), (4, 11), (5, 12)])
def test_taking_from_the_line_pays_by_slot(slot, medals):  # ruling T5
    cards = [None] * 5
    cards[slot - 1] = "build_barracks"
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).line(cards)
    st = pos.build(cur=RED)
    do(st, type="enter", hex=[1, 0])
    play(st, "build_barracks", source="line", slot=slot, hex=[2, 0])
    assert st.medals[RED] == medals and st.piles[RED] == ["build_barracks"]


def test_line_values_are_an_option():
    pos = Position().neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0)).line(["build_barracks"])
    st = pos.build(cur=RED)
    st.opts = dict(st.opts, line_values=[-5, 0, 0, 0, 0])
    do(st, type="enter", hex=[1, 0])
    play(st, "build_barracks", source="line", slot=1, hex=[2, 0])
    assert st.medals[RED] == 5


# --- T19: replenishing, Peace, the final round --------------------------------------------------------
def small_game(cur=RED, start=RED, deck=(), hand=("build_barracks", "advance"), line=None):
    pos = Position(start=start).neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0))
    pos.barracks(BLUE, (1, 0)).mole(BLUE, (1, 0)).hand(RED, hand).hand(BLUE, ["advance", "advance"])
    pos.line(line or ["grenade", "conquest", "advance", "short_range", "medal_of_honor"]).deck(list(deck))
    return pos.build(cur=cur)


def test_hand_then_line_refill():  # ruling T19
    st = small_game(deck=["tunnel", "decoy", "slingshot"])
    do(st, type="enter", hex=[-1, 1])
    play(st, "conquest", source="line", slot=2, hex=[0, 0])
    do(st, type="end_turn")
    # no hand card used: the hand stays; the Line shifts right and takes the top card on the left
    assert st.hands[RED] == ["build_barracks", "advance"]
    assert st.line == ["tunnel", "grenade", "advance", "short_range", "medal_of_honor"]
    assert st.cur == BLUE


def test_hand_card_refills_the_hand_only():
    st = small_game(deck=["tunnel", "decoy"])
    do(st, type="enter", hex=[-1, 1])
    play(st, "build_barracks", hex=[-2, 1])
    do(st, type="end_turn")
    assert st.hands[RED] == ["advance", "tunnel"]
    assert st.line == ["grenade", "conquest", "advance", "short_range", "medal_of_honor"]


def test_no_card_used_discards_slot_five():  # ruling T19
    st = small_game(deck=["tunnel"])
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    assert st.trash == ["medal_of_honor"]
    assert st.line == ["tunnel", "grenade", "conquest", "advance", "short_range"]


def test_peace_ends_the_game_after_the_last_seat():  # ruling T19
    st = small_game(deck=[PEACE, "tunnel", "decoy"], start=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    assert st.peace and st.line[0] == "tunnel" and st.phase == "play" and st.cur == BLUE
    do(st, type="move", **{"from": [1, 0], "to": [0, 0]})
    do(st, type="end_turn")
    assert st.phase == "over" and st.is_over() and st.to_act() == []


def test_peace_in_the_last_seats_turn_ends_at_once():
    st = small_game(deck=[PEACE, "tunnel"], start=BLUE, cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    assert st.phase == "over"


def test_after_peace_hands_are_not_refilled():  # ruling T19
    st = small_game(deck=[PEACE, "tunnel", "decoy", "slingshot"], start=BLUE, cur=BLUE)
    st.hands[RED] = ["build_barracks"]
    st.peace = True
    st.cur = RED
    from engine.topoum.turn import begin_turn

    begin_turn(st)
    do(st, type="enter", hex=[-1, 1])
    play(st, "build_barracks", hex=[-2, 1])
    do(st, type="end_turn")
    assert st.hands[RED] == []


def test_peace_drawn_for_the_hand_is_replaced_then_the_hand_stops():
    st = small_game(deck=["tunnel", PEACE, "decoy", "slingshot"], hand=("build_barracks", "build_barracks"))
    do(st, type="enter", hex=[-1, 1])
    play(st, "build_barracks", hex=[-2, 1])
    st.hands[RED].clear()  # as if she had played both
    st.hand_used = 2
    do(st, type="end_turn")
    assert st.peace and st.hands[RED] == ["tunnel", "decoy"]


def test_empty_deck_leaves_empty_slots():  # ruling T19
    st = small_game(deck=[])
    do(st, type="enter", hex=[-1, 1])
    play(st, "grenade", source="line", slot=1, hex=[0, 0])
    do(st, type="end_turn")
    assert st.line == [None, "conquest", "advance", "short_range", "medal_of_honor"]


def test_press_pays_its_holder_at_the_end_of_every_turn():  # ruling T14
    st = small_game(deck=["tunnel"] * 3)
    st.press = BLUE
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    do(st, type="change_tile")
    do(st, type="end_turn")
    assert st.medals[BLUE] == 11


# --- S3: undo ---------------------------------------------------------------------------------------
def test_undo_takes_back_each_decision_to_the_start_of_the_turn():  # ruling S3
    st = small_game()
    start = st.to_json()
    assert not st.undoable(RED) and {"type": "undo"} not in acts(st)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    after_move = st.to_json()
    do(st, type="change_tile")
    assert st.undoable(RED) and not st.undoable(BLUE)
    do(st, type="undo")
    assert st.to_json() == after_move
    do(st, type="undo")
    assert st.to_json() == start


def test_undo_stops_at_a_crate_look():  # rulings S3, T8
    pos = Position(farmer="lord_of_the_crates").neutral((0, 0)).barracks(RED, (-1, 0)).mole(RED, (-1, 0))
    st = pos.crate(2, (0, 0)).hand(RED, ["advance"]).build(cur=RED)
    do(st, type="move", **{"from": [-1, 0], "to": [0, 0]})
    assert st.crate_known[RED] == [2]
    assert not st.undoable(RED)
    do(st, type="change_tile")
    assert st.undoable(RED)
    do(st, type="undo")
    assert not st.undoable(RED) and st.pending["k"] == "card"


def test_undo_is_refused_with_a_reason_when_not_possible():
    st = small_game()
    with pytest.raises(IllegalAction) as err:
        st.apply(RED, {"type": "undo"})
    assert err.value.code == "topoum.nothing_to_undo"


def test_illegal_actions_are_refused_and_change_nothing():
    st = small_game()
    before = st.to_json()
    for bad in (
        {"type": "enter", "hex": [5, 5]},
        {"type": "move", "from": [1, 0], "to": [2, 0]},
        {"type": "play", "card": "advance", "source": "hand"},
        {"type": "end_turn"},
    ):
        with pytest.raises(IllegalAction) as err:
            st.apply(RED, bad)
        assert err.value.code.startswith(("topoum.", "action."))
        assert st.to_json() == before
    with pytest.raises(IllegalAction):
        st.apply(BLUE, {"type": "end_turn"})
