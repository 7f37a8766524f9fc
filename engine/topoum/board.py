"""Board geometry of Topoum: cell indexes, neighbour tables, marked spaces, tile and feature codes."""

from __future__ import annotations

from engine.hexgrid import DIRECTIONS, hexagon

# Tile codes, one int per cell (ruling T4: every tile remembers its colour).
NO_TILE = -1
NEUTRAL = 0  # 0..3: neutral side up, of colour c
BARRACKS = 4  # 4..7: barracks side up, of colour c - 4
STANDALONE = 8  # an obstacle-variant tile or the dynamite: a square by itself (ruling T16, T17)

# Feature codes: what lies on a square besides the base tile and the moles.
NONE = 0
ROCK, PUDDLE, GAS, ICE = 1, 2, 3, 4
TURNIP, DYNAMITE, TRAP, FOOTPRINT = 5, 6, 7, 8
CRATE = 9  # 9..12: crate k = CRATE + k (ruling T8)

FEATURE_NAMES = {
    ROCK: "rock",
    PUDDLE: "puddle",
    GAS: "gas",
    ICE: "ice",
    TURNIP: "turnip",
    DYNAMITE: "dynamite",
    TRAP: "trap",
    FOOTPRINT: "footprint",
}
FEATURE_CODES = {name: code for code, name in FEATURE_NAMES.items()}
# A mole that enters one of these is eliminated (rulings T12, T16, T17).
DEADLY = frozenset({PUDDLE, GAS, TRAP, FOOTPRINT, DYNAMITE})

COLOURS = ("red", "blue", "yellow", "black")
DIRECTIONS_INDEX = {step: d for d, step in enumerate(DIRECTIONS)}

# Mole flags, kept per cell and travelling with the mole.
MOVABLE = 1  # may still take its "Move moles" step this turn (ruling T12)
FRESH = 2  # moved or placed this turn: its lines count as new (ruling T18)


class Geometry:
    """Everything about a hexagonal board of one radius that never changes."""

    __slots__ = ("radius", "cells", "index", "nb", "size", "centre", "x_spaces", "zones")

    def __init__(self, radius: int):
        self.radius = radius
        self.cells = hexagon(radius)
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        self.size = len(self.cells)
        self.nb = tuple(tuple(self.index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in self.cells)
        self.centre = self.index[(0, 0)]
        # ruling T2: X spaces at distance 4 along the six axes; farmer zones at distance 3.
        self.x_spaces = tuple(self.index[(4 * dq, 4 * dr)] for dq, dr in DIRECTIONS if (4 * dq, 4 * dr) in self.index)
        self.zones = tuple(self.index[c] for c in ((3, 0), (-3, 0), (0, 3), (0, -3)) if c in self.index)

    def hex(self, cell: int) -> list[int]:
        """The [q, r] of a cell index, for JSON."""
        q, r = self.cells[cell]
        return [q, r]

    def cell(self, hexlike) -> int:
        """The index of a [q, r] pair, -1 when off the board."""
        return self.index.get((hexlike[0], hexlike[1]), -1)

    def step_hex(self, cell: int, direction: int, steps: int = 1) -> list[int]:
        """[q, r] of the space `steps` away from `cell` in `direction`, even off the board."""
        q, r = self.cells[cell]
        dq, dr = DIRECTIONS[direction]
        return [q + dq * steps, r + dr * steps]

    def ray(self, cell: int, direction: int, steps: int) -> int:
        """The cell `steps` away from `cell` in `direction`, or -1 when that is off the board."""
        nb = self.nb
        for _ in range(steps):
            cell = nb[cell][direction]
            if cell < 0:
                return -1
        return cell


_GEOMETRIES: dict[int, Geometry] = {}


def geometry(radius: int) -> Geometry:
    """The cached geometry of a board of this radius."""
    geo = _GEOMETRIES.get(radius)
    if geo is None:
        geo = _GEOMETRIES[radius] = Geometry(radius)
    return geo


def components(cells, neighbours) -> list[list[int]]:
    """Connected parts of a set of cells under hex adjacency, each sorted."""
    left = set(cells)
    parts = []
    while left:
        start = left.pop()
        part = [start]
        stack = [start]
        while stack:
            c = stack.pop()
            for j in neighbours[c]:
                if j in left:
                    left.remove(j)
                    part.append(j)
                    stack.append(j)
        part.sort()
        parts.append(part)
    parts.sort()
    return parts


def cells_of(values: list, value) -> list[int]:
    """The indexes where `values` holds `value`, in order (e.g. a seat's moles: a few, found by C-level scans)."""
    count = values.count(value)
    if not count:
        return []
    find = values.index
    x = find(value)
    out = [x]
    for _ in range(count - 1):
        x = find(value, x + 1)
        out.append(x)
    return out


def at(geo: Geometry, cell: int) -> list[int]:
    """A cell as [q, r] for log entries (the site writes it as "(q,r)")."""
    q, r = geo.cells[cell]
    return [q, r]


def ev(code: str, **params) -> dict:
    """One log event as data: "topoum.<code>" and its facts; the site words it (decision 13)."""
    return {"code": f"topoum.{code}", **params}
