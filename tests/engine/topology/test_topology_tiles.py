"""The tile set and the placement geometry (rulings L1, L2)."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.hexgrid import neighbour
from engine.topology.geometry import end_positions, inside, placed_curves, turned_over
from engine.topology.tiles import (
    TILE_COUNT,
    all_matchings,
    design_of,
    designs,
    find_design,
    half_turn,
    partners,
    symmetric,
)


def crosses(p, q) -> bool:
    """Two chords between points on a circle cross when exactly one end of q lies strictly inside p."""
    a, b = sorted(p)
    return (a < q[0] < b) != (a < q[1] < b)


def test_there_are_42_non_crossing_perfect_matchings_of_ten_ends():  # ruling L1
    matchings = all_matchings()
    assert len(matchings) == 42  # Catalan(5)
    assert len(set(matchings)) == 42
    for m in matchings:
        assert sorted(e for pair in m for e in pair) == list(range(10))
        assert not any(crosses(p, q) for p, q in combinations(m, 2))


def test_a_brute_force_count_agrees():
    """Every way of pairing 10 points, filtered for crossings, leaves the same 42."""

    def pairings(points):
        if not points:
            yield ()
            return
        first, rest = points[0], points[1:]
        for i, other in enumerate(rest):
            for tail in pairings(rest[:i] + rest[i + 1 :]):
                yield ((first, other),) + tail

    plain = {
        tuple(sorted(m)) for m in pairings(tuple(range(10))) if not any(crosses(p, q) for p, q in combinations(m, 2))
    }
    assert plain == set(all_matchings())


def test_26_designs_in_two_copies_make_52_tiles():  # ruling L1 and the rulebook's components
    assert len(designs()) == 26
    assert TILE_COUNT == 52
    counts = [sum(1 for t in range(TILE_COUNT) if design_of(t) == d) for d in range(26)]
    assert counts == [2] * 26


def test_no_design_is_a_half_turn_of_another():
    shown = [d for d in designs()] + [half_turn(d) for d in designs()]
    for i, j in combinations(range(26), 2):
        assert designs()[j] not in (designs()[i], half_turn(designs()[i]))
    # between them, the designs and their half-turns show every matching exactly once per orbit
    assert set(shown) == set(all_matchings())


def test_each_matching_belongs_to_exactly_one_design():
    for m in all_matchings():
        owners = [i for i, d in enumerate(designs()) if m in (d, half_turn(d))]
        assert len(owners) == 1
    # an orbit of size one is a design a half-turn keeps; 2 * 26 - 42 of them
    assert sum(symmetric()) == 10


def test_mirror_images_stay_separate_designs():
    """Tiles are one-sided: the mirror image of some design is a different design."""

    def mirror(m):  # reflect the outline across the line through ends 2 and 7: end i -> (4 - i) mod 10
        return tuple(sorted(tuple(sorted(((4 - i) % 10, (4 - j) % 10))) for i, j in m))

    differ = [d for d in designs() if find_design(mirror(d))[0] != designs().index(d)]
    assert differ


def test_partner_tables_are_involutions():
    for table in partners():
        assert all(table[table[e]] == e and table[e] != e for e in range(10))


@pytest.mark.parametrize("orientation", range(6))
def test_ends_go_counter_clockwise_round_the_outline(orientation):  # ruling L2, geometry docstring
    anchor = (2, -1)
    b = neighbour(anchor, orientation)
    ends = end_positions(anchor, orientation)
    assert len(set(ends)) == 10
    assert [cell for cell, _ in ends] == [anchor] * 5 + [b] * 5
    # the inner edge carries no end
    assert (anchor, orientation) not in ends and (b, (orientation + 3) % 6) not in ends
    # within a cell the sides follow each other counter-clockwise
    for i in list(range(4)) + list(range(5, 9)):
        assert ends[i + 1][1] == (ends[i][1] + 1) % 6
    # end 4 and end 5 meet at the inner edge's corner: both face the same outside cell
    assert neighbour(*ends[4]) == neighbour(*ends[5])
    assert neighbour(*ends[9]) == neighbour(*ends[0])


@pytest.mark.parametrize("orientation", range(6))
def test_a_half_turn_moves_every_end_five_places(orientation):
    anchor = (0, 0)
    turned = end_positions(*turned_over(anchor, orientation))
    original = end_positions(anchor, orientation)
    assert [turned[i] for i in range(10)] == [original[(i + 5) % 10] for i in range(10)]


def test_drawing_data_names_cells_and_sides():
    pairs = ((0, 1), (2, 9), (3, 8), (4, 7), (5, 6))
    drawing = placed_curves(pairs, (0, 0), 0)
    assert drawing["cells"] == [[0, 0], [1, 0]]
    # end 0 is side 1 of the anchor, end 1 side 2: the first curve joins those two sides
    assert drawing["curves"][0] == [[[0, 0], 1], [[0, 0], 2]]
    # end 5 and end 6 are sides 4 and 5 of the second cell
    assert drawing["curves"][4] == [[[1, 0], 4], [[1, 0], 5]]


def test_point_in_polygon_counts_crossings_exactly():
    square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    assert inside((2, 2), square)
    assert not inside((5, 2), square)
    assert not inside((-1, 2), square)
    # a ray through a vertex is counted once
    diamond = [(2, 0), (4, 2), (2, 4), (0, 2)]
    assert inside((1, 2), diamond)
    assert not inside((-3, 2), diamond)
    assert not inside((5, 2), diamond)
