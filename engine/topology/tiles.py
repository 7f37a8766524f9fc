"""The Topology tile set, computed rather than typed in (ruling L1).

A tile is a double hex with 10 outer edges; its ends are numbered 0..9
counter-clockwise round the outline (geometry.py says where each end lies).
A design is a non-crossing perfect matching of the 10 ends, stored as a tuple
of 5 pairs (i, j), i < j, sorted.  There are 42 such matchings (Catalan(5));
a half-turn maps end i to (i + 5) % 10 and the double hex onto itself, so a
matching and its half-turn are one design: 26 designs, two copies each, 52
tiles.  Tiles are one-sided, so a mirror image is a different design.

Tile ids are 0..51; tile t shows design t // 2.
"""

from __future__ import annotations

from functools import lru_cache

ENDS = 10
COPIES = 2

Matching = tuple[tuple[int, int], ...]


def _matchings(points: tuple[int, ...]) -> list[Matching]:
    """Every non-crossing perfect matching of `points`, taken in circular order."""
    if not points:
        return [()]
    first, out = points[0], []
    # Pairing the first point with the k-th leaves two arcs that must be matched
    # separately (a chord across would cross); each arc needs an even size.
    for k in range(1, len(points), 2):
        for inside in _matchings(points[1:k]):
            for outside in _matchings(points[k + 1 :]):
                out.append(tuple(sorted(((first, points[k]),) + inside + outside)))
    return out


def all_matchings() -> list[Matching]:
    """The 42 non-crossing matchings of the 10 ends, sorted."""
    return sorted(_matchings(tuple(range(ENDS))))


def half_turn(matching: Matching) -> Matching:
    """The same curves seen after turning the tile half a turn (end i becomes end i + 5)."""
    turned = []
    for i, j in matching:
        a, b = (i + 5) % ENDS, (j + 5) % ENDS
        turned.append((min(a, b), max(a, b)))
    return tuple(sorted(turned))


@lru_cache(maxsize=None)
def designs() -> tuple[Matching, ...]:
    """The 26 designs: one representative (the smaller of a matching and its half-turn) each."""
    return tuple(sorted({min(m, half_turn(m)) for m in all_matchings()}))


@lru_cache(maxsize=None)
def partners() -> tuple[tuple[int, ...], ...]:
    """Per design, the end each end is joined to (a lookup table for walking curves)."""
    table = []
    for matching in designs():
        partner = [0] * ENDS
        for i, j in matching:
            partner[i], partner[j] = j, i
        table.append(tuple(partner))
    return tuple(table)


@lru_cache(maxsize=None)
def symmetric() -> tuple[bool, ...]:
    """Per design, True when a half-turn leaves it unchanged."""
    return tuple(half_turn(m) == m for m in designs())


TILE_COUNT = len(designs()) * COPIES  # 52


def design_of(tile: int) -> int:
    """The design shown by tile id `tile`."""
    return tile // COPIES


def find_design(pairs) -> tuple[int, bool]:
    """The design showing a matching, and whether it shows it only after a half-turn (tools, tests)."""
    matching = tuple(sorted((min(i, j), max(i, j)) for i, j in pairs))
    for index, design in enumerate(designs()):
        if matching == design:
            return index, False
        if matching == half_turn(design):
            return index, True
    raise ValueError(f"{list(pairs)} is not a non-crossing matching of the ten ends.")
