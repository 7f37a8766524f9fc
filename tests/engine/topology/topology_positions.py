"""Helpers for the Topology tests: positions laid out tile by tile, tiles named by their curves."""

from __future__ import annotations

import engine.topology  # noqa: F401  (registers the game)
from engine.core import get_game, make_rng
from engine.hexgrid import neighbour
from engine.topology.board import Board
from engine.topology.geometry import turned_over
from engine.topology.state import TopologyState
from engine.topology.tiles import COPIES, TILE_COUNT, design_of, find_design, symmetric

GAME = get_game("topology")


class Tiles:
    """Hands out tile ids for designs named by their pairs of ends, at most two copies of each."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, pairs) -> tuple[int, bool]:
        """A free tile showing `pairs`, and whether it must lie turned half-way to show them so."""
        design, turned = find_design(pairs)
        for tile in range(design * COPIES, design * COPIES + COPIES):
            if tile not in self.used:
                self.used.add(tile)
                return tile, turned
        raise AssertionError(f"both copies of the design with {pairs} are taken")

    def place(self, board: Board, anchor, orientation: int, pairs) -> int:
        """Put a tile showing `pairs` (in ends numbered from this anchor and orientation) on the board."""
        tile, turned = self.take(pairs)
        if turned:  # the stored design shows these pairs after a half-turn: anchor on the other cell
            anchor, orientation = turned_over(anchor, orientation)
        board.place(tile, tuple(anchor), orientation)
        return tile


def position(
    tiles,
    *,
    hand=(),
    players: int = 2,
    advanced: bool = False,
    current: int = 0,
    stack: int | None = None,
    scores=None,
    turn: int = 1,
    last_turn=None,
    start_player: int = 0,
):
    """A state with `tiles` [(anchor, orientation, pairs)] on the table and `hand` [pairs] revealed to `current`.

    `stack` face-down tiles (default: every tile not used) wait, in a fixed order.
    Returns (state, ids of the table tiles, ids of the hand tiles).
    """
    deal = Tiles()
    board = Board()
    ids = [deal.place(board, anchor, orientation, pairs) for anchor, orientation, pairs in tiles]
    hand_ids = [deal.take(pairs)[0] for pairs in hand]
    rest = [t for t in range(TILE_COUNT) if t not in deal.used]
    rest = rest if stack is None else rest[:stack]
    state = TopologyState(
        players=players,
        advanced=advanced,
        seed="test-seed",
        stack=rest,
        start_player=start_player,
        board=board,
        current=current,
        turn=turn,
        revealed=hand_ids,
        steps=[],
        scores=list(scores or [0] * players),
        last_turn=list(last_turn or [None] * players),
        history=[],
    )
    return state, ids, hand_ids


def place(tile: int, anchor, orientation: int) -> dict:
    """The place action for `tile` at (anchor, orientation), as legal_actions lists it."""
    b = neighbour(tuple(anchor), orientation)
    return {"type": "place", "tile": tile, "cells": [list(anchor), list(b)], "orientation": orientation}


def place_showing(tile: int, pairs, anchor, orientation: int) -> dict:
    """The place action that puts `tile` down so that it shows `pairs` numbered from (anchor, orientation)."""
    design, turned = find_design(pairs)
    assert design == design_of(tile), "that tile shows other curves"
    if turned or (orientation >= 3 and symmetric()[design]):
        anchor, orientation = turned_over(tuple(anchor), orientation)
    return place(tile, anchor, orientation)


def play_turn(state, hand_ids, placements):
    """Place the hand tiles as given (anchor, orientation, pairs), then end the turn; return its score entry."""
    seat = state.current
    for tile, (anchor, orientation, pairs) in zip(hand_ids, placements):
        action = place_showing(tile, pairs, anchor, orientation)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
    state.apply(seat, {"type": "end_turn"})
    return state.history[-1]


START = ((0, 0), 0, ((0, 1), (2, 3), (4, 9), (5, 8), (6, 7)))

# The rulebook's example (10 + 2 + 2 + 2 = 16): before the turn, four tiles lie on the table.
EXAMPLE_BEFORE = [
    START,
    ((0, -1), 1, ((0, 7), (1, 2), (3, 6), (4, 5), (8, 9))),
    ((-1, 1), 3, ((0, 9), (1, 2), (3, 8), (4, 5), (6, 7))),
    ((-3, 0), 0, ((0, 3), (1, 2), (4, 5), (6, 7), (8, 9))),
]
# ... and the player places these three.
EXAMPLE_TURN = [
    ((-1, 0), 2, ((0, 5), (1, 2), (3, 4), (6, 9), (7, 8))),
    ((-2, -1), 1, ((0, 3), (1, 2), (4, 5), (6, 9), (7, 8))),
    ((-3, 2), 2, ((0, 1), (2, 3), (4, 7), (5, 6), (8, 9))),
]


def random_game(players: int, options: dict, seed: int, stream: str = "incremental"):
    """A seeded random game, undo taken now and then; yields each state before its decision, then the end."""
    state = GAME.new_state(players, options, seed)
    rng = make_rng(stream, seed)
    while not state.is_over():
        yield state
        legal = state.legal_actions(state.current)
        undo = [action for action in legal if action["type"] == "undo"]
        others = [action for action in legal if action["type"] != "undo"]
        state.apply(state.current, undo[0] if undo and rng.random() < 0.2 else rng.choice(others))
    yield state
