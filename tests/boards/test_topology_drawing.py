"""The Topology drawing: curves end on the right edge midpoints and never cross (rulings L1, L3)."""

import itertools
import math
import re

import pytest

from boards.topology import presenter as topo
from engine.hexgrid import neighbour
from engine.topology.geometry import end_position, placed_curves
from engine.topology.tiles import all_matchings, designs


def path_points(d: str, samples: int = 24) -> list[tuple[float, float]]:
    """Points along an SVG path made of one M and one C command."""
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    assert len(nums) == 8, d
    (x0, y0, x1, y1, x2, y2, x3, y3) = nums
    pts = []
    for k in range(samples + 1):
        t = k / samples
        u = 1 - t
        pts.append(
            (
                u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3,
            )
        )
    return pts


def segments_cross(a, b, c, d) -> bool:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def polylines_cross(p, q) -> bool:
    return any(segments_cross(p[i], p[i + 1], q[j], q[j + 1]) for i in range(len(p) - 1) for j in range(len(q) - 1))


@pytest.mark.parametrize("orientation", [0, 1, 4])
def test_every_curve_ends_on_the_midpoints_of_its_two_edges(orientation):
    anchor = (2, -1)
    for design in designs():
        drawing = topo.tile_drawing(design, anchor, orientation)
        ends = placed_curves(design, anchor, orientation)["curves"]
        for curve, (e1, e2) in zip(drawing["curves"], ends):
            pts = path_points(curve["d"])
            for point, (cell, side) in ((pts[0], e1), (pts[-1], e2)):
                mid = topo.side_mid(cell, side)
                assert math.dist(point, mid) < 0.2


def test_the_curves_of_every_pairing_never_cross():
    # ruling L1: every non-crossing pairing is a tile (up to a half-turn); each must be drawn without crossings.
    for matching in all_matchings():
        curves = [path_points(topo.curve_path((0, 0), 0, i, j)) for i, j in matching]
        for p, q in itertools.combinations(curves, 2):
            assert not polylines_cross(p, q), matching


def test_a_tile_outline_leaves_out_the_inner_edge():
    outline = topo.outline_path([[0, 0], [1, 0]])
    assert outline.count("M") == 10  # ten outer sides of a double hex


def test_the_two_hexes_of_a_placed_tile_are_its_two_cells():
    drawing = topo.tile_drawing(designs()[3], (1, 1), 2)
    assert drawing["hexes"] == [topo.hex_points((1, 1)), topo.hex_points(neighbour((1, 1), 2))]
    assert end_position((1, 1), 2, 0)[0] == (1, 1)
