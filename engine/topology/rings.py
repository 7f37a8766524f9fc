"""Closed rings, which ring lies inside which, and what a turn scores (rulings L3, L4, L6)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .board import Board
from .geometry import Point, facing_positions, inner_point, inside, outline_points
from .tiles import design_of, partners


@dataclass
class Ring:
    """A closed cycle of curves: (tile, end, end) in walking order, and its outline for inside tests."""

    curves: list[tuple[int, int, int]]
    outline: list[Point]

    @property
    def value(self) -> int:
        """Points a ring is worth: one per curve (ruling L3)."""
        return len(self.curves)

    @cached_property
    def tiles(self) -> frozenset[int]:
        return frozenset(tile for tile, _, _ in self.curves)

    @cached_property
    def box(self) -> tuple[int, int, int, int]:
        """The outline's bounding box (least x, least y, greatest x, greatest y): most rings lie outside it."""
        xs = [x for x, _ in self.outline]
        ys = [y for _, y in self.outline]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, other: "Ring") -> bool:
        """True when `other` lies inside this ring (rings never cross, so one point decides)."""
        x, y = point = other.outline[0]
        x0, y0, x1, y1 = self.box
        return x0 < x < x1 and y0 < y < y1 and inside(point, self.outline)

    def contains_point(self, point: Point) -> bool:
        """True when `point` (an edge midpoint off this ring, doubled axial) lies inside it."""
        return inside(point, self.outline)

    def to_json(self) -> dict:
        return {"value": self.value, "curves": [list(c) for c in self.curves]}


Curve = tuple[int, int, int]  # (tile, end it enters by, end it leaves by)


def follow_line(ends, tiles, tile: int, start: int, seen: set | None = None) -> tuple[list[Curve], bool]:
    """Walk the line through end `start` of `tile`, leaving by the far end of its curve there.

    `ends` maps (cell, side) to the (tile, end) lying there and `tiles` a tile to its (anchor,
    orientation), as Board holds them (callers may pass a table with a tile added).  Returns the
    curves in walking order and whether the line closes into a ring.  Every (tile, end) walked is
    added to `seen`; the walk stops, open, on meeting one walked before, since a ring would have been
    walked whole (its start included) the first time.
    """
    table = partners()
    walked = set() if seen is None else seen
    first = (tile, start)
    curves = []
    current, entry = tile, start
    while True:
        exit_end = table[design_of(current)][entry]
        walked.add((current, entry))
        walked.add((current, exit_end))
        curves.append((current, entry, exit_end))
        joined = ends.get(facing_positions(*tiles[current])[exit_end])
        if joined is None:
            return curves, False
        if joined == first:
            return curves, True
        if joined in walked:
            return curves, False
        current, entry = joined


def rings_through(board: Board, tiles) -> list[Ring]:
    """The closed rings running through any of `tiles` (ids on the board), each once, in a stable order
    (by the tile, in the order given, and the end it is first met at)."""
    seen: set[tuple[int, int]] = set()
    rings = []
    for tile in tiles:
        for start in range(10):
            if (tile, start) in seen:
                continue
            curves, closed = follow_line(board.ends, board.tiles, tile, start, seen)
            if closed:
                rings.append(Ring(curves, ring_outline(curves, board.tiles)))
    return rings


def rings_around(board: Board, rings: list[Ring]) -> list[Ring]:
    """The closed rings through tiles lying in the bounding box of one of `rings` (these included), in
    find_rings' order: every ring inside one of them is among these (its outline runs through the centre
    of each of its tiles), found from the same tile and end as find_rings finds it, so scoring `rings`
    against these gives what scoring them against every ring on the table gives."""
    boxes = [ring.box for ring in rings]
    near = [
        tile
        for tile, (anchor, orientation) in board.tiles.items()
        if any(
            x0 <= x <= x1 and y0 <= y <= y1 for x, y in (inner_point(anchor, orientation),) for x0, y0, x1, y1 in boxes
        )
    ]
    return rings_through(board, near)


def find_rings(board: Board) -> list[Ring]:
    """Every closed ring on the table, in a stable order (by the tile and end it is first met at)."""
    return rings_through(board, board.tiles)


def ring_outline(curves: list[Curve], tiles: dict) -> list[Point]:
    """The ring drawn through edge midpoints and tile centres (geometry.py says why that is enough)."""
    outline = []
    for tile, entry, _ in curves:
        points = outline_points(*tiles[tile])
        outline.append(points[entry])
        outline.append(points[10])
    return outline


def enclosed(ring: Ring, rings: list[Ring]) -> list[Ring]:
    """The rings lying inside `ring` at any depth (Ring.contains on each, its box read once)."""
    x0, y0, x1, y1 = ring.box
    outline = ring.outline
    out = []
    for other in rings:
        if other is ring:
            continue
        point = other.outline[0]
        x, y = point
        if x0 < x < x1 and y0 < y < y1 and inside(point, outline):
            out.append(other)
    return out


def score_rings(rings: list[Ring], new_tiles: set[int]) -> tuple[int, list[dict]]:
    """Points for the rings closed this turn, and one line of detail per such ring (ruling L4).

    A ring counts as closed this turn when it runs through a tile placed this
    turn: placing only adds connections, so every other ring was already there
    at the start of the turn or right after the turn-over (ruling L6).  Each
    such ring scores its value plus the value of every ring inside it, closed
    earlier or this turn, so a ring closed and surrounded in one turn counts twice.
    """
    total, detail = 0, []
    for ring in rings:
        if ring.tiles.isdisjoint(new_tiles):
            continue
        inner = enclosed(ring, rings)
        points = ring.value + sum(r.value for r in inner)
        total += points
        detail.append({"value": ring.value, "inner": sorted((r.value for r in inner), reverse=True), "points": points})
    detail.sort(key=lambda d: -d["points"])
    return total, detail
