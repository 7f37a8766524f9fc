"""The advanced two-player variant: reveal a third tile or turn one over (rulings L6, S3)."""

from __future__ import annotations

import json

import pytest
from topology_positions import GAME, place, place_showing, position

from engine.core import IllegalAction
from engine.topology.rings import find_rings

LOOSE = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))
# A tile on (1, -1)-(1, -2) whose ends 1 and 2 (facing (0, 0) and (1, 0)) are joined.
CORNER = ((1, -1), 2, ((0, 3), (1, 2), (4, 9), (5, 8), (6, 7)))
# Two tiles laid where they touch the table along one edge only, so they close nothing.
QUIET = [((2, 0), 0), ((4, 0), 0)]


def frozen(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def lay_quietly(state, tiles, spots):
    for tile, (anchor, orientation) in zip(tiles, spots):
        state.apply(state.current, place(tile, anchor, orientation))


def test_a_turn_starts_with_two_tiles_and_a_choice():  # ruling L6
    state = GAME.new_state(2, {"advanced": True}, 9)
    seat = state.current
    assert len(state.revealed) == 2
    actions = state.legal_actions(seat)
    assert actions[0] == {"type": "reveal"}
    assert [a for a in actions[1:]] == [{"type": "turn_over", "tile": t} for t in state.board.tiles]
    before = frozen(state)
    with pytest.raises(IllegalAction, match="topology.choose_first"):
        state.apply(seat, place(state.revealed[0], (2, 0), 0))
    with pytest.raises(IllegalAction, match="topology.must_choose"):
        state.apply(seat, {"type": "decline"})
    assert frozen(state) == before


def test_revealing_a_third_tile_cannot_be_taken_back():  # rulings L6, S3
    state = GAME.new_state(2, {"advanced": True}, 9)
    seat = state.current
    stack_before = len(state.stack)
    state.apply(seat, {"type": "reveal"})
    assert len(state.hand()) == 3 and len(state.stack) == stack_before - 1
    assert not state.undoable(seat)
    with pytest.raises(IllegalAction, match="topology.undo_reveal"):
        state.apply(seat, {"type": "undo"})
    after_reveal = frozen(state)
    state.apply(seat, next(a for a in state.legal_actions(seat) if a["type"] == "place"))
    assert state.undoable(seat)
    state.apply(seat, {"type": "undo"})
    assert frozen(state) == after_reveal
    with pytest.raises(IllegalAction, match="topology.already_chosen"):
        state.apply(seat, {"type": "turn_over", "tile": next(iter(state.board.tiles))})


def test_a_turn_over_can_be_taken_back():  # ruling S3: nothing hidden was revealed
    state, ids, _ = position(
        [((0, 0), 0, ((0, 3), (1, 2), (4, 5), (6, 9), (7, 8))), CORNER], hand=[LOOSE, LOOSE], advanced=True
    )
    start = frozen(state)
    anchor, orientation = state.board.tiles[ids[0]]
    state.apply(0, {"type": "turn_over", "tile": ids[0]})
    # the same two cells, the anchor now on the other one
    assert state.board.tiles[ids[0]] == (((1, 0), 3) if anchor == (0, 0) else ((0, 0), 0))
    assert {c for c, t in state.board.cells.items() if t == ids[0]} == {(0, 0), (1, 0)}
    assert state.decided() and state.undoable(0)
    state.apply(0, {"type": "undo"})
    assert frozen(state) == start
    assert not state.decided()


def test_a_ring_closed_by_the_turn_over_alone_does_not_score():  # ruling L6
    # Ends 4 and 5 of the start tile are joined; turned over, they become ends 9 and 0,
    # which face the corner tile's joined ends 2 and 1: a ring of two closes.
    state, ids, hand = position(
        [((0, 0), 0, ((0, 3), (1, 2), (4, 5), (6, 9), (7, 8))), CORNER], hand=[LOOSE, LOOSE], advanced=True
    )
    assert find_rings(state.board) == []
    state.apply(0, {"type": "turn_over", "tile": ids[0]})
    assert [r.value for r in find_rings(state.board)] == [2]
    lay_quietly(state, hand, QUIET)
    state.apply(0, {"type": "end_turn"})
    assert state.history[-1]["points"] == 0
    assert state.scores_ == [0, 0]


def test_a_ring_the_turn_over_opened_and_a_tile_closes_again_scores():  # ruling L6
    # The start tile's ends 0 and 9 are joined and close a ring of two with the corner tile
    # (scored in an earlier turn).  Turned over, the start tile joins end 0 to end 1 and end 2
    # to end 9 instead; a tile on (-1, 0)-(0, -1) joining its sides that face (0, 0) then
    # closes a ring of four: start tile, new tile, start tile again, corner tile.
    start = ((0, 0), 0, ((0, 9), (1, 2), (3, 8), (4, 7), (5, 6)))
    bridge = ((-1, 0), 1, ((0, 1), (2, 9), (3, 8), (4, 5), (6, 7)))
    state, ids, hand = position([start, CORNER], hand=[bridge[2], LOOSE], advanced=True, scores=[2, 0])
    assert [r.value for r in find_rings(state.board)] == [2]
    state.apply(0, {"type": "turn_over", "tile": ids[0]})
    assert find_rings(state.board) == []  # the turn-over opened it
    state.apply(0, place_showing(hand[0], bridge[2], bridge[0], bridge[1]))
    rings = find_rings(state.board)
    assert [r.value for r in rings] == [4]
    assert rings[0].tiles == {ids[0], ids[1], hand[0]}
    lay_quietly(state, hand[1:], QUIET[:1])
    state.apply(0, {"type": "end_turn"})
    assert state.history[-1]["points"] == 4
    assert state.scores_ == [6, 0]


def test_decline_is_offered_only_when_no_tile_is_left():  # site ruling beside L6
    state, _, hand = position([((0, 0), 0, LOOSE)], hand=[LOOSE], advanced=True, stack=0)
    actions = state.legal_actions(0)
    assert {"type": "decline"} in actions and {"type": "reveal"} not in actions
    with pytest.raises(IllegalAction, match="topology.stack_empty"):
        state.apply(0, {"type": "reveal"})
    state.apply(0, {"type": "decline"})
    lay_quietly(state, hand, QUIET[:1])
    state.apply(0, {"type": "end_turn"})
    assert state.is_over()


def test_the_plain_game_refuses_the_variant_moves():
    state = GAME.new_state(2, {}, 9)
    before = frozen(state)
    for action in [{"type": "reveal"}, {"type": "turn_over", "tile": 0}, {"type": "decline"}]:
        with pytest.raises(IllegalAction, match="topology.advanced_only"):
            state.apply(state.current, action)
    assert frozen(state) == before
