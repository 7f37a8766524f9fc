"""Axial hex coordinates (q, r), shared by Topoum and Topology.

Directions are numbered 0..5 counter-clockwise starting east; direction d and
(d + 3) % 6 are opposite.  Cells are (q, r) tuples; in JSON they travel as [q, r].
"""

from __future__ import annotations

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

Hex = tuple[int, int]


def neighbour(cell: Hex, direction: int, steps: int = 1) -> Hex:
    dq, dr = DIRECTIONS[direction % 6]
    return (cell[0] + dq * steps, cell[1] + dr * steps)


def neighbours(cell: Hex) -> list[Hex]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction d with b = a + k * DIRECTIONS[d] for some k > 0, else None."""
    dq, dr = b[0] - a[0], b[1] - a[1]
    k = distance(a, b)
    if k == 0:
        return None
    for d, (sq, sr) in enumerate(DIRECTIONS):
        if dq == sq * k and dr == sr * k:
            return d
    return None


def hexagon(radius: int) -> list[Hex]:
    """All cells within `radius` of the centre (radius 6: 127 cells)."""
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
    ]


def to_pixel(cell: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex in pixels, for drawing boards as SVG."""
    q, r = cell
    return (size * 3**0.5 * (q + r / 2), size * 1.5 * r)
