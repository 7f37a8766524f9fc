"""The table of placed tiles: which cells are covered, where placements fit (ruling L2)."""
from __future__ import annotations

from engine.hexgrid import DIRECTIONS, Hex

from .geometry import end_positions, second_cell, turned_over
from .tiles import design_of, symmetric


class Board:
    """Placed tiles on the unbounded hex grid, with lookups kept in step."""

    __slots__ = ("tiles", "cells", "ends", "_frontier", "_spots")

    def __init__(self) -> None:
        self.tiles: dict[int, tuple[Hex, int]] = {}  # tile id -> (anchor, orientation), in placement order
        self.cells: dict[Hex, int] = {}  # covered cell -> tile id
        self.ends: dict[tuple[Hex, int], tuple[int, int]] = {}  # (cell, side) -> (tile id, end)
        self._frontier: set[Hex] | None = None
        self._spots: list | None = None  # placements, cached until the cells change

    # --- changes --------------------------------------------------------------------
    def place(self, tile: int, anchor: Hex, orientation: int) -> None:
        """Put `tile` on (anchor, orientation); the caller has checked that it fits."""
        self.tiles[tile] = (anchor, orientation)
        self.cells[anchor] = tile
        self.cells[second_cell(anchor, orientation)] = tile
        self._index_ends(tile)
        self._frontier = self._spots = None

    def remove(self, tile: int) -> None:
        """Take `tile` back off the table (undo)."""
        anchor, orientation = self.tiles.pop(tile)
        for key in end_positions(anchor, orientation):
            del self.ends[key]
        del self.cells[anchor]
        del self.cells[second_cell(anchor, orientation)]
        self._frontier = self._spots = None

    def turn_over(self, tile: int) -> None:
        """Turn `tile` half a turn in place (ruling L6); a self-symmetric design stays as it is."""
        if symmetric()[design_of(tile)]:
            return
        anchor, orientation = self.tiles[tile]
        self.tiles[tile] = turned_over(anchor, orientation)
        self._index_ends(tile)

    def _index_ends(self, tile: int) -> None:
        anchor, orientation = self.tiles[tile]
        for end, key in enumerate(end_positions(anchor, orientation)):
            self.ends[key] = (tile, end)

    # --- where tiles fit ----------------------------------------------------------------
    def frontier(self) -> set[Hex]:
        """Empty cells sharing an edge with a covered cell."""
        if self._frontier is None:
            cells = self.cells
            self._frontier = {
                (q + dq, r + dr)
                for (q, r) in cells
                for dq, dr in DIRECTIONS
                if (q + dq, r + dr) not in cells
            }
        return self._frontier

    def touches(self, anchor: Hex, orientation: int) -> bool:
        """True when a tile at (anchor, orientation) would share an edge with a placed tile."""
        frontier = self.frontier()
        return anchor in frontier or second_cell(anchor, orientation) in frontier

    def placements(self) -> list[tuple[Hex, int]]:
        """Every (anchor, orientation) covering two empty cells and touching the table."""
        return [(anchor, orientation) for anchor, orientation, _ in self.spots()]

    def spots(self) -> list[tuple[Hex, int, Hex]]:
        """Every (anchor, orientation, second cell) covering two empty cells and touching the table.

        The order is stable (by frontier cell, then direction) so that a loaded
        state lists its moves exactly as the original did.
        """
        if self._spots is None:
            cells = self.cells
            frontier = self.frontier()
            spots = []
            for cell in sorted(frontier):
                q, r = cell
                for d, (dq, dr) in enumerate(DIRECTIONS):
                    other = (q + dq, r + dr)
                    if other in cells or (other in frontier and other < cell):
                        continue  # covered, or this pair was listed from its smaller cell
                    spots.append((cell, d, other))
                    spots.append((other, (d + 3) % 6, cell))
            self._spots = spots
        return self._spots

    # --- storage -------------------------------------------------------------------------
    def to_json(self) -> list[list[int]]:
        return [[tile, anchor[0], anchor[1], orientation] for tile, (anchor, orientation) in self.tiles.items()]

    @classmethod
    def from_json(cls, data: list) -> "Board":
        board = cls()
        for tile, q, r, orientation in data:
            board.place(tile, (q, r), orientation)
        return board

    def copy(self) -> "Board":
        other = Board()
        other.tiles = dict(self.tiles)
        other.cells = dict(self.cells)
        other.ends = dict(self.ends)
        other._frontier = None if self._frontier is None else set(self._frontier)
        other._spots = self._spots  # never changed in place, only replaced
        return other
