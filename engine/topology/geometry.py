"""Where a placed tile's ends lie, and the exact inside test for rings (rulings L2, L3).

Cells and sides
    Cells are axial (q, r) as in engine.hexgrid; directions 0..5 run
    counter-clockwise from east: 0 E (1, 0), 1 NE (1, -1), 2 NW (0, -1),
    3 W (-1, 0), 4 SW (-1, 1), 5 SE (0, 1).  Side d of a cell is the edge it
    shares with neighbour(cell, d).  Drawn pointy-top with hexgrid.to_pixel
    (screen y grows downward), the midpoint of side d of cell c is halfway
    between to_pixel(c) and to_pixel(neighbour(c, d)); "counter-clockwise" is
    as seen on the screen.

A placed tile
    A placement is an anchor cell A and an orientation o in 0..5; the tile's
    second cell is B = neighbour(A, o), so side o of A and side (o + 3) % 6 of B
    are the tile's inner edge, which carries no line.  The 10 ends, numbered
    counter-clockwise round the outline:
        end i, i in 0..4:  side (o + 1 + i) % 6 of A
        end i, i in 5..9:  side (o + i - 1) % 6 of B
    End 0 is the side of A just after the inner edge, ends 0-4 go round A,
    ends 5-9 go round B, and end 9 is followed by end 0 again.  The six
    orientations turn the tile in steps of 60 degrees about A.  A half-turn in
    place maps end i to end (i + 5) % 10 and the placement (A, o) to
    (B, (o + 3) % 6).

Rings and inside
    Every edge between two covered cells carries exactly one crossing line.
    Drawing each curve as two straight segments, from its first end's edge
    midpoint to the midpoint of the tile's inner edge and on to its second
    end's midpoint, keeps it inside its tile (each hex is convex and the inner
    midpoint lies on both), so a ring drawn this way winds round any edge
    midpoint off the ring exactly as the true curve does.  The test works in
    doubled axial coordinates (2q, 2r), a linear image of the plane, so all
    points are integers and the even-odd count is exact.
"""

from __future__ import annotations

from functools import lru_cache

from engine.hexgrid import Hex, neighbour

Point = tuple[int, int]
End = tuple[Hex, int]  # (cell, side)


def second_cell(anchor: Hex, orientation: int) -> Hex:
    """The cell a tile placed at `anchor` with `orientation` covers besides the anchor."""
    return neighbour(anchor, orientation)


def end_position(anchor: Hex, orientation: int, end: int) -> End:
    """The (cell, side) of end `end` of a tile placed at (anchor, orientation)."""
    if end < 5:
        return anchor, (orientation + 1 + end) % 6
    return neighbour(anchor, orientation), (orientation + end - 1) % 6


@lru_cache(maxsize=65536)
def end_positions(anchor: Hex, orientation: int) -> tuple[End, ...]:
    """The (cell, side) of ends 0..9 of a tile placed at (anchor, orientation), remembered (rules and bots
    ask for the same few hundred placements again and again)."""
    return tuple(end_position(anchor, orientation, end) for end in range(10))


@lru_cache(maxsize=65536)
def facing_positions(anchor: Hex, orientation: int) -> tuple[End, ...]:
    """The (cell, side) that ends 0..9 of a tile placed at (anchor, orientation) face across their edges:
    where a neighbouring tile's end lies (Board.ends keys); remembered like end_positions."""
    return tuple((neighbour(cell, side), (side + 3) % 6) for cell, side in end_positions(anchor, orientation))


def turned_over(anchor: Hex, orientation: int) -> tuple[Hex, int]:
    """The placement showing the same tile after a half-turn in place."""
    return neighbour(anchor, orientation), (orientation + 3) % 6


def placed_curves(matching, anchor: Hex, orientation: int) -> dict:
    """Drawing data for one placed tile: its two cells and its 5 curves as pairs of (cell, side) ends.

    Cells travel as [q, r] lists: {"cells": [[q, r], [q, r]],
    "curves": [[[[q, r], side], [[q, r], side]], ...]} in the order of `matching`.
    """
    ends = end_positions(anchor, orientation)
    b = second_cell(anchor, orientation)
    return {
        "cells": [list(anchor), list(b)],
        "curves": [[[list(ends[i][0]), ends[i][1]], [list(ends[j][0]), ends[j][1]]] for i, j in matching],
    }


def edge_point(cell: Hex, side: int) -> Point:
    """Midpoint of side `side` of `cell`, in doubled axial coordinates."""
    other = neighbour(cell, side)
    return cell[0] + other[0], cell[1] + other[1]


def inner_point(anchor: Hex, orientation: int) -> Point:
    """Midpoint of a placed tile's inner edge, in doubled axial coordinates."""
    return edge_point(anchor, orientation)


@lru_cache(maxsize=65536)
def outline_points(anchor: Hex, orientation: int) -> tuple[Point, ...]:
    """The edge midpoints of ends 0..9 of a tile placed at (anchor, orientation), then its inner point (index
    10): what a ring's outline runs through, remembered like end_positions."""
    return tuple(edge_point(*end_position(anchor, orientation, end)) for end in range(10)) + (
        inner_point(anchor, orientation),
    )


def inside(point: Point, polygon: list[Point]) -> bool:
    """Even-odd test of `point` against a closed polygon, exact on integers.

    The half-open rule (a vertex counts for the edge that leaves upward) makes
    rays through vertices count once; `point` must not lie on the polygon.
    """
    x, y = point
    crossings = False
    n = len(polygon)
    x1, y1 = polygon[-1]
    for i in range(n):
        x2, y2 = polygon[i]
        if (y1 > y) != (y2 > y):
            # x-coordinate of the crossing compared without division: sign-safe form.
            lhs = (x - x1) * (y2 - y1)
            rhs = (x2 - x1) * (y - y1)
            if (lhs < rhs) == (y2 > y1):
                crossings = not crossings
        x1, y1 = x2, y2
    return crossings
