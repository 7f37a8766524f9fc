"""Topology hints: what the turn in progress has earned, and which placements can close a ring.

A ring can close only through a tile placed now (ruling L4), and one tile closes a ring only
if some open line has both of its open ends facing the cells that tile covers; such
placements are "hot".  Every other placement scores nothing at once, so greedy need not
try them all, and playouts can stay cheap.  Reads the board through the Topology package's
public helpers; nothing here looks beyond the determinised state.
"""
from __future__ import annotations

import random

from engine.core import Action, State
from engine.hexgrid import DIRECTIONS, neighbour
from engine.topology.geometry import end_position, second_cell
from engine.topology.rings import find_rings, score_rings
from engine.topology.tiles import design_of, partners, symmetric

from .hints import END_TURN, Hints, register_hints

MAX_WALK = 400  # a line never has more curves than the 52 tiles hold; a guard against surprises


def _across(ends: dict, tiles: dict, tile: int, end: int):
    """(cell, side) where `end` of `tile` lies, and the (tile, end) joined to it there (None: open)."""
    anchor, orientation = tiles[tile]
    cell, side = end_position(anchor, orientation, end)
    return cell, side, ends.get((neighbour(cell, side), (side + 3) % 6))


def closes_ring(board, new_tiles: list[int]) -> bool:
    """True when some closed ring runs through one of `new_tiles`."""
    table, ends, tiles = partners(), board.ends, board.tiles
    for t in new_tiles:
        walked: set[int] = set()
        for start in range(10):
            if start in walked:
                continue
            cur_t, cur_e = t, start
            for _ in range(MAX_WALK):
                out = table[design_of(cur_t)][cur_e]
                if cur_t == t:
                    walked.update((cur_e, out))
                _, _, nxt = _across(ends, tiles, cur_t, out)
                if nxt is None:
                    break
                cur_t, cur_e = nxt
                if cur_t == t and cur_e == start:
                    return True
    return False


def open_lines(board) -> list[tuple[tuple, tuple]]:
    """For each open line, the two empty cells its open ends face."""
    table, ends, tiles, cells = partners(), board.ends, board.tiles, board.cells
    seen: set[tuple[int, int]] = set()
    lines = []
    for (cell, side), (tile, end) in ends.items():
        facing = neighbour(cell, side)
        if facing in cells or (tile, end) in seen:
            continue
        cur_t, cur_e = tile, end
        for _ in range(MAX_WALK):
            out = table[design_of(cur_t)][cur_e]
            seen.add((cur_t, cur_e))
            seen.add((cur_t, out))
            c, s, nxt = _across(ends, tiles, cur_t, out)
            if nxt is None:
                lines.append((facing, neighbour(c, s)))
                break
            cur_t, cur_e = nxt
    return lines


def hot_cells(board) -> tuple[set, set]:
    """Cells one tile must cover to close a ring: single cells, and adjacent pairs (frozensets)."""
    singles, pairs = set(), set()
    for a, b in open_lines(board):
        if a == b:
            singles.add(a)
        elif b in [neighbour(a, d) for d in range(6)]:
            pairs.add(frozenset((a, b)))
    return singles, pairs


def hot_spots(board) -> list[tuple[tuple, int]]:
    """Every (anchor, orientation) on empty cells that covers a hot single cell or a hot pair."""
    singles, pairs = hot_cells(board)
    cells = board.cells
    spots = set()
    for c in singles:
        for d in range(6):
            other = neighbour(c, d)
            if other not in cells:
                spots.add((c, d))
                spots.add((other, (d + 3) % 6))
    for pair in pairs:
        a, b = tuple(pair)
        d = DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
        spots.add((a, d))
        spots.add((b, (d + 3) % 6))
    return sorted(spots)


def place_action(tile: int, anchor: tuple, orientation: int) -> Action:
    """The action placing `tile` there, in the form the game accepts for symmetric designs too."""
    if orientation >= 3 and symmetric()[design_of(tile)]:
        anchor, orientation = second_cell(anchor, orientation), orientation - 3
    b = second_cell(anchor, orientation)
    return {"type": "place", "tile": tile, "cells": [[anchor[0], anchor[1]], [b[0], b[1]]],
            "orientation": orientation}


def is_hot(action: Action, singles: set, pairs: set) -> bool:
    a, b = (tuple(c) for c in action["cells"])
    return a in singles or b in singles or frozenset((a, b)) in pairs


@register_hints("topology")
class TopologyHints(Hints):
    """Provisional turn scores, hot placements first, a greedy-on-hot-spots playout policy."""

    def raw_scores(self, state: State) -> list[float]:
        scores = [float(s) for s in state.scores()]
        if state.current is not None:
            placed = state.placed_now()
            if placed and closes_ring(state.board, placed):
                points, _ = score_rings(find_rings(state.board), set(placed))
                scores[state.current] += points
        return scores

    def candidates(self, state, seat, actions, limit, rng):
        singles, pairs = hot_cells(state.board)
        other, hot, cold = [], [], []
        for a in actions:
            if a.get("type") != "place":
                other.append(a)
            elif is_hot(a, singles, pairs):
                hot.append(a)
            else:
                cold.append(a)
        rng.shuffle(hot)
        other.sort(key=self.tie_rank)  # end_turn first
        room = max(0, limit - len(other) - len(hot))
        return other + hot + (rng.sample(cold, room) if len(cold) > room else rng.sample(cold, len(cold)))

    def rollout_action(self, state, seat, rng: random.Random) -> Action | None:
        if not state.decided():
            return {"type": "reveal"} if state.stack else {"type": "decline"}
        hand = state.hand()
        if not hand:
            return {"type": END_TURN}
        base = self.utilities(state)[seat]
        best, best_gain = None, 0.0
        for anchor, orientation in hot_spots(state.board):
            for tile in hand:
                action = place_action(tile, anchor, orientation)
                trial = state.clone()
                trial.apply(seat, action)
                gain = self.utilities(trial)[seat] - base
                if gain > best_gain:
                    best, best_gain = action, gain
        if best is not None:
            return best
        anchor, orientation = rng.choice(state.board.placements())
        return place_action(rng.choice(hand), anchor, orientation)
