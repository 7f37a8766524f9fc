"""Topology's open lines: what a placement closes, read without placing it, and where rings can close.

A ring can close only through a tile placed now (ruling L4), and one tile closes a ring only
if some open line has both of its open ends facing the cells that tile covers; such
placements are "hot".  The bots' hints (engine/topology/hints.py) and expert's turn planner
(engine/topology/planner.py) both read the table through these; nothing here looks beyond
the state it is given.  Tables met again (a playout's next decision, every candidate's turn)
are remembered: rings and open lines per table.
"""

from __future__ import annotations

import random
from functools import lru_cache

from engine.core import Action
from engine.hexgrid import DIRECTIONS, neighbour
from engine.topology.geometry import end_position, end_positions, facing_positions, second_cell
from engine.topology.rings import Curve, Ring, find_rings, follow_line, ring_outline, rings_through, score_rings
from engine.topology.tiles import design_of, partners, symmetric


def adjacent(cell: tuple, other: tuple) -> bool:
    """True when the two cells share an edge."""
    return (other[0] - cell[0], other[1] - cell[1]) in DIRECTIONS


def virtual_rings(board, tile: int, anchor: tuple, orientation: int) -> list[list[Curve]]:
    """The rings (as curve lists) that placing `tile` at (anchor, orientation) would close, without placing it.

    Walks as rings.follow_line would on the table with the tile added, reading the tile's own ends apart
    (nothing is copied)."""
    own = end_index(anchor, orientation)
    own_facing = facing_positions(anchor, orientation)
    ends, tiles = board.ends, board.tiles
    table = partners()
    mine = table[design_of(tile)]
    seen: set[tuple[int, int]] = set()
    rings = []
    for start in range(10):
        if (tile, start) in seen:
            continue
        first = (tile, start)
        curves = []
        current, entry = first
        while True:
            if current == tile:
                exit_end = mine[entry]
                facing = own_facing[exit_end]
            else:
                exit_end = table[design_of(current)][entry]
                facing = facing_positions(*tiles[current])[exit_end]
            seen.add((current, entry))
            seen.add((current, exit_end))
            curves.append((current, entry, exit_end))
            end = own.get(facing)
            joined = ends.get(facing) if end is None else (tile, end)
            if joined is None or joined in seen and joined != first:
                break
            if joined == first:
                rings.append(curves)
                break
            current, entry = joined
    return rings


@lru_cache(maxsize=65536)
def end_index(anchor: tuple, orientation: int) -> dict[tuple, int]:
    """(cell, side) -> end of a tile placed at (anchor, orientation) (read-only: remembered)."""
    return {pos: end for end, pos in enumerate(end_positions(anchor, orientation))}


_RINGS: dict[frozenset, list[Ring]] = {}
MEMO_LIMIT = 4096


def board_key(board, extra: tuple | None = None) -> frozenset:
    items = list(board.tiles.items())
    if extra is not None:
        items.append(extra)
    return frozenset(items)


def rings_on(board) -> list[Ring]:
    """Every closed ring on the table, remembered per table (placing tiles in playouts seeds it)."""
    key = board_key(board)
    rings = _RINGS.get(key)
    if rings is None:
        rings = find_rings(board)
        remember_rings(key, rings)
    return rings


def remember_rings(key: frozenset, rings: list[Ring]) -> None:
    if len(_RINGS) >= MEMO_LIMIT:
        _RINGS.clear()
    _RINGS[key] = rings


_LINES: dict[frozenset, "LineIndex"] = {}


def line_index(board) -> "LineIndex":
    """The open lines of the table, remembered per table; a table one tile larger than a remembered
    one (the next decision of a playout) is derived from it by that tile alone."""
    key = board_key(board)
    index = _LINES.get(key)
    if index is None:
        if board.tiles:
            last, placement = next(reversed(board.tiles.items()))
            before = _LINES.get(key - {(last, placement)})
            if before is not None:
                index = before.with_tile(last, *placement)
        if index is None:
            index = LineIndex(board)
        if len(_LINES) >= MEMO_LIMIT:
            _LINES.clear()
        _LINES[key] = index
    return index


def turn_points(board, placed: list[int]) -> int:
    """What the turn would score if it ended now (ruling L4), by the game's own score_rings."""
    if not rings_through(board, placed):
        return 0
    points, _ = score_rings(rings_on(board), set(placed))
    return points


class Trial:
    """Gains of placements tried on one position without placing them (ruling L4 scoring)."""

    def __init__(self, state):
        self.board = state.board
        self.placed = set(state.placed_now())
        self.rings = rings_on(self.board)
        self.points, _ = score_rings(self.rings, self.placed) if self.placed else (0, None)
        self.lines = line_index(self.board)
        self._links: dict[tuple, dict] = {}  # (anchor, orientation) -> its links: every tile of the hand asks

    def links(self, anchor: tuple, orientation: int) -> dict[int, tuple[int, int]]:
        """LineIndex.links of the placement, read once for every tile of the hand."""
        link = self._links.get((anchor, orientation))
        if link is None:
            link = self._links[anchor, orientation] = self.lines.links(anchor, orientation)
        return link

    def quick(self, tile: int, anchor: tuple, orientation: int) -> int:
        """Curves of the rings the placement closes (a lower bound of its gain; 0 exactly when it closes none)."""
        return self.lines.closed_value(tile, anchor, orientation, self.links(anchor, orientation))

    def gain(self, tile: int, anchor: tuple, orientation: int) -> tuple[int, list[Ring] | None]:
        """Points the turn gains by the placement, and the rings on the table after it (None: unchanged)."""
        if not self.quick(tile, anchor, orientation):
            return 0, None
        closed = virtual_rings(self.board, tile, anchor, orientation)
        if not closed:
            return 0, None
        tiles = dict(self.board.tiles)
        tiles[tile] = (anchor, orientation)
        after = self.rings + [Ring(c, ring_outline(c, tiles)) for c in closed]
        points, _ = score_rings(after, self.placed | {tile})
        return points - self.points, after


def open_line_ends(board) -> list[tuple[tuple, tuple, int]]:
    """For each open line: the (cell, side) keys its two open ends face, and its number of curves."""
    ends, tiles, cells = board.ends, board.tiles, board.cells
    seen: set[tuple[int, int]] = set()
    lines = []
    for (cell, side), (tile, end) in ends.items():
        facing = neighbour(cell, side)
        if facing in cells or (tile, end) in seen:
            continue
        # Walked from an open end, the line ends at its other open end (a ring has no open end).
        curves, _ = follow_line(ends, tiles, tile, end, seen)
        last_tile, _, last_end = curves[-1]
        far_cell, far_side = end_position(*tiles[last_tile], last_end)
        lines.append(((facing, (side + 3) % 6), (neighbour(far_cell, far_side), (far_side + 3) % 6), len(curves)))
    return lines


def open_lines(board) -> list[tuple[tuple, tuple]]:
    """For each open line, the two empty cells its open ends face."""
    return [(a[0], b[0]) for a, b, _ in open_line_ends(board)]


class LineIndex:
    """Open lines by the edge their open ends face, to find rings a placement closes in a few lookups."""

    def __init__(self, board=None):
        self.other: dict[tuple, tuple[tuple, int]] = {}  # never changed once built: with_tile makes a new one
        self._near: tuple[dict, dict] | None = None  # see near(), built when first asked
        self._hot_links: list | None = None  # see hot_links(), built when first asked
        for a, b, count in open_line_ends(board) if board is not None else ():
            self.other[a] = (b, count)
            self.other[b] = (a, count)

    def near(self) -> tuple[dict, dict]:
        """The lines one tile could close, each once as (end key, end key, curves): those whose two open
        ends face one cell, by that cell, and those facing two adjacent cells, by the (smaller, larger) pair.

        Only these can link two ends of a tile (both its cells are empty), so links() reads these few."""
        near = self._near
        if near is None:
            by_cell: dict[tuple, list] = {}
            by_pair: dict[tuple, list] = {}
            for a, (b, count) in self.other.items():
                if a < b:  # each line is listed from both of its ends
                    cell, far = a[0], b[0]
                    if cell == far:
                        by_cell.setdefault(cell, []).append((a, b, count))
                    elif adjacent(cell, far):
                        by_pair.setdefault((cell, far) if cell < far else (far, cell), []).append((a, b, count))
            near = self._near = (by_cell, by_pair)
        return near

    def with_tile(self, tile: int, anchor: tuple, orientation: int) -> "LineIndex":
        """The open lines once `tile` lies at (anchor, orientation): the lines it joins become one, a ring
        it closes goes, and an end of it facing an empty cell starts a line."""
        link = self.links(anchor, orientation)
        other = dict(self.other)
        beyond: dict[int, tuple[tuple, int]] = {}  # end not linked -> (open end key its line reaches, curves)
        for end, (cell, side) in enumerate(end_positions(anchor, orientation)):
            line = other.pop((cell, side), None)
            if end in link:
                continue
            beyond[end] = line if line is not None else ((neighbour(cell, side), (side + 3) % 6), 0)
        mine = partners()[design_of(tile)]
        done: set[int] = set()
        for start, (first_key, count) in beyond.items():
            if start in done:
                continue
            end = start
            while True:  # along the tile's curve, then across a line back to the tile, until a loose end
                done.add(end)
                end = mine[end]
                done.add(end)
                count += 1
                if end in beyond:
                    last_key, last_count = beyond[end]
                    count += last_count
                    break
                end, between = link[end]
                count += between
            other[first_key] = (last_key, count)
            other[last_key] = (first_key, count)
        index = LineIndex()
        index.other = other
        return index

    def links(self, anchor: tuple, orientation: int) -> dict[int, tuple[int, int]]:
        """For a tile placed there: end -> (end of the same tile an open line leads back to, its curves)."""
        by_cell, by_pair = self.near()
        second = second_cell(anchor, orientation)
        link: dict[int, tuple[int, int]] = {}
        lines = [
            by_cell.get(anchor),
            by_cell.get(second),
            by_pair.get((anchor, second) if anchor < second else (second, anchor)),
        ]
        if lines == [None, None, None]:
            return link
        where = end_index(anchor, orientation)
        for found in lines:
            for a, b, count in found or ():
                i, j = where.get(a), where.get(b)
                if i is not None and j is not None:
                    link[i] = (j, count)
                    link[j] = (i, count)
        return link

    def closed_value(self, tile: int, anchor: tuple, orientation: int, link: dict | None = None) -> int:
        """Total curves of the rings the placement closes, inner rings not counted (0: closes none)."""
        if link is None:
            link = self.links(anchor, orientation)
        if not link:
            return 0
        mine = partners()[design_of(tile)]
        if len(link) == 2:  # one line, as mostly: it closes a ring when the tile's own curve joins its ends
            end, (other, count) = next(iter(link.items()))
            return count + 1 if mine[end] == other else 0
        total, used = 0, set()
        for start in link:
            if start in used:
                continue
            value, e = 0, start
            for _ in range(12):
                # Across a line to another end of the new tile, then along the tile's own curve.
                nxt = link.get(e)
                if nxt is None:
                    value = 0
                    break
                used.add(e)
                e, count = nxt
                used.add(e)
                value += count + 1
                e = mine[e]
                if e == start:
                    break
            else:
                value = 0
            if e == start and value:
                total += value
        return total

    def hot_links(self, board) -> list[tuple[tuple, int, dict]]:
        """(anchor, orientation, links) of every hot spot (hot_spots' order) whose links are not empty:
        the placements a tile may close a ring by.  Remembered: an index belongs to one table (`board`),
        and playouts meet the same tables again (each candidate's turn, on every sample)."""
        found = self._hot_links
        if found is None:
            links = self.links
            found = self._hot_links = [
                (anchor, orientation, link)
                for anchor, orientation in hot_spots(board, self)
                if (link := links(anchor, orientation))
            ]
        return found

    def hot(self) -> tuple[set, set]:
        """Cells one tile must cover to close a ring: single cells, and adjacent pairs (frozensets)."""
        by_cell, by_pair = self.near()
        return set(by_cell), {frozenset(pair) for pair in by_pair}


def hot_cells(board) -> tuple[set, set]:
    """Cells one tile must cover to close a ring: single cells, and adjacent pairs (frozensets)."""
    return line_index(board).hot()


def hot_spots(board, index: LineIndex | None = None) -> list[tuple[tuple, int]]:
    """Every (anchor, orientation) on empty cells that covers a hot single cell or a hot pair.

    Orientations 0..5 are all listed; for a design a half-turn keeps, callers fold 3..5 onto 0..2.
    """
    singles, pairs = (index or line_index(board)).hot()
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


RANDOM_SPOT_TRIES = 64


def random_spot(board, rng: random.Random) -> tuple[tuple, int]:
    """A placement (anchor, orientation) on two empty cells touching the table, drawn without listing them
    all: an empty neighbour of a random placed tile's cell, then a random empty neighbour of that one.
    (Spots on crowded edges come up less often than in a uniform draw; a playout need not mind.)"""
    placed, cells = list(board.tiles.values()), board.cells
    for _ in range(RANDOM_SPOT_TRIES):
        anchor, orientation = rng.choice(placed)
        cell = anchor if rng.random() < 0.5 else second_cell(anchor, orientation)
        start = neighbour(cell, rng.randrange(6))
        if start in cells:
            continue
        direction = rng.randrange(6)
        if neighbour(start, direction) not in cells:
            return start, direction
    return rng.choice(board.placements())  # a crowded table: list them


def place_action(tile: int, anchor: tuple, orientation: int) -> Action:
    """The action placing `tile` there, in the form the game accepts for symmetric designs too."""
    if orientation >= 3 and symmetric()[design_of(tile)]:
        anchor, orientation = second_cell(anchor, orientation), orientation - 3
    b = second_cell(anchor, orientation)
    return {"type": "place", "tile": tile, "cells": [[anchor[0], anchor[1]], [b[0], b[1]]], "orientation": orientation}


def is_hot(action: Action, singles: set, pairs: set) -> bool:
    (qa, ra), (qb, rb) = action["cells"]
    a, b = (qa, ra), (qb, rb)
    return a in singles or b in singles or frozenset((a, b)) in pairs
