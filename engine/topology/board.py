"""The table of placed tiles: which cells are covered, where placements fit (ruling L2).

Where tiles fit is kept up to date as tiles come and go (decision 16): each frontier cell (an empty
cell sharing an edge with a covered one) holds the placements listed from it, and a placement or
removal recomputes only the frontier cells near the two cells it changed.  The order of the
placements is the one a from-scratch enumeration gives (by frontier cell, then direction), so a
loaded state lists its moves exactly as the original did.

A loaded board has no frontier until placements are first asked for (most web requests only draw
the table, and a turn's start that the others see only removes tiles): it is then built in one
pass, and kept up to date from there on.
"""

from __future__ import annotations

from bisect import bisect_left

from engine.hexgrid import DIRECTIONS, Hex

from .geometry import end_positions, second_cell, turned_over
from .tiles import design_of, symmetric

Spot = tuple[Hex, int, Hex]  # (anchor, orientation, second cell) of a placement on two empty cells


class CellFits:
    """The placements listed from one frontier cell, and the place actions they make, per tile.

    Never changed once built (the actions are added lazily, always the same ones), so boards and their
    clones share them; a board replaces a cell's CellFits when that cell's neighbourhood changes.
    """

    __slots__ = ("spots", "offers", "actions")

    def __init__(self, spots: tuple[Spot, ...]) -> None:
        self.spots = spots
        self.offers: tuple[list, list] | None = None  # (orientation, cells) per placement: all, and 0..2 only
        self.actions: dict[int, list[dict]] = {}  # tile -> its place actions here, built when first asked

    def offered(self) -> tuple[list, list]:
        """(orientation, cells) per placement: all, and those in orientations 0..2 (for designs a half-turn
        keeps); one cells list per placement, shared by every tile's action (read-only)."""
        offers = self.offers
        if offers is None:
            every = [(orientation, [list(anchor), list(other)]) for anchor, orientation, other in self.spots]
            offers = self.offers = (every, [offer for offer in every if offer[0] < 3])
        return offers


class Board:
    """Placed tiles on the unbounded hex grid, with lookups kept in step."""

    __slots__ = ("tiles", "cells", "ends", "_frontier", "_fits", "_order", "_keys", "_fits_shared")

    def __init__(self) -> None:
        self.tiles: dict[int, tuple[Hex, int]] = {}  # tile id -> (anchor, orientation), in placement order
        self.cells: dict[Hex, int] = {}  # covered cell -> tile id
        self.ends: dict[tuple[Hex, int], tuple[int, int]] = {}  # (cell, side) -> (tile id, end)
        # Empty cells sharing an edge with a covered cell, and the placements listed from each;
        # None until placements are first asked for (_built), then kept up to date.
        self._frontier: set[Hex] | None = set()
        self._fits: dict[Hex, CellFits] | None = {}
        # The frontier's cells sorted, and their fits in that order: built when first asked, then kept in
        # step by _refit (never changed in place, only replaced, so copies share them).
        self._keys: list[Hex] | None = None
        self._order: list[CellFits] | None = None
        self._fits_shared = False  # _frontier and _fits still shared with a copy: copied before a change

    # --- changes --------------------------------------------------------------------
    def place(self, tile: int, anchor: Hex, orientation: int) -> None:
        """Put `tile` on (anchor, orientation); the caller has checked that it fits."""
        self.tiles[tile] = (anchor, orientation)
        second = second_cell(anchor, orientation)
        self.cells[anchor] = tile
        self.cells[second] = tile
        self._index_ends(tile)
        if self._fits is not None:
            self._refit(anchor, second)

    def remove(self, tile: int) -> None:
        """Take `tile` back off the table (undo)."""
        anchor, orientation = self.tiles.pop(tile)
        for key in end_positions(anchor, orientation):
            del self.ends[key]
        second = second_cell(anchor, orientation)
        del self.cells[anchor]
        del self.cells[second]
        if self._fits is not None:
            self._refit(anchor, second)

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
    def _built(self) -> dict[Hex, CellFits]:
        """The fits of every frontier cell, built in one pass the first time they are asked for."""
        fits = self._fits
        if fits is None:
            cells = self.cells
            self._frontier = frontier = {
                (q + dq, r + dr) for q, r in cells for dq, dr in DIRECTIONS if (q + dq, r + dr) not in cells
            }
            spots_from = self._spots_from
            self._fits = fits = {cell: CellFits(spots_from(cell)) for cell in frontier}
            self._order, self._keys, self._fits_shared = None, None, False
        return fits

    def forget_fits(self) -> None:
        """Stop keeping where tiles fit, for a copy that will not list placements (a bot's playout): a
        placement then costs only its lookups; asking for placements later builds them in one pass."""
        self._frontier = self._fits = None
        self._keys = self._order = None
        self._fits_shared = False

    def prepare(self) -> None:
        """Build where tiles fit now: a board whose copies will all list placements builds it once for all."""
        self._built()

    def _refit(self, *changed: Hex) -> None:
        """Bring the frontier up to date after `changed` cells were covered or emptied.

        Only the changed cells and their neighbours can join or leave the frontier.  The placements
        listed from a frontier cell depend on which neighbours are covered, and on which smaller
        neighbours are on the frontier (a pair is listed from its smaller cell), so only those cells
        are listed again.
        """
        if self._fits_shared:  # most clones are looked at, not played on: copy the frontier only now
            self._frontier, self._fits, self._fits_shared = set(self._frontier), dict(self._fits), False
        cells, frontier, fits = self.cells, self._frontier, self._fits
        keys, order = self._keys, self._order
        if order is not None:  # kept in step below, on copies (another board may share them)
            keys, order = list(keys), list(order)
        around = set(changed)
        for q, r in changed:
            around.update((q + dq, r + dr) for dq, dr in DIRECTIONS)
        moved = [
            cell
            for cell in around  # covered or emptied, or joined or left the frontier
            if cell in changed or (cell not in cells and self._borders_table(cell)) != (cell in frontier)
        ]
        for cell in moved:
            if cell not in cells and self._borders_table(cell):
                frontier.add(cell)
            else:
                frontier.discard(cell)
                if fits.pop(cell, None) is not None and order is not None:
                    at = bisect_left(keys, cell)
                    del keys[at], order[at]
        relist = set()
        for cell in moved:
            if cell in frontier:
                relist.add(cell)
            q, r = cell
            for dq, dr in DIRECTIONS:
                other = (q + dq, r + dr)
                if other in frontier and (cell in changed or cell < other):
                    relist.add(other)
        for cell in relist:
            spots = self._spots_from(cell)
            old = fits.get(cell)
            if old is not None and old.spots == spots:
                continue  # unchanged: keep its actions
            here = fits[cell] = CellFits(spots)
            if order is not None:
                at = bisect_left(keys, cell)
                if old is None:
                    keys.insert(at, cell)
                    order.insert(at, here)
                else:
                    order[at] = here
        self._keys, self._order = keys, order

    def _borders_table(self, cell: Hex) -> bool:
        q, r = cell
        cells = self.cells
        for dq, dr in DIRECTIONS:
            if (q + dq, r + dr) in cells:
                return True
        return False

    def _spots_from(self, cell: Hex) -> tuple[Spot, ...]:
        """The placements on `cell` and an empty neighbour, each pair of frontier cells from its smaller cell."""
        q, r = cell
        cells, frontier = self.cells, self._frontier
        spots = []
        for direction, (dq, dr) in enumerate(DIRECTIONS):
            other = (q + dq, r + dr)
            if other in cells or (other < cell and other in frontier):
                continue  # covered, or this pair is listed from its smaller cell
            spots.append((cell, direction, other))
            spots.append((other, (direction + 3) % 6, cell))
        return tuple(spots)

    def _ordered(self) -> list[CellFits]:
        """The fits of the frontier cells, in cell order."""
        order = self._order
        if order is None:
            fits = self._built()
            keys = self._keys = sorted(fits)
            order = self._order = [fits[cell] for cell in keys]
        return order

    def touches(self, anchor: Hex, orientation: int) -> bool:
        """True when a tile at (anchor, orientation) would share an edge with a placed tile.

        That is, one of its cells is an empty cell next to a covered one (read from the frontier once built).
        """
        second = second_cell(anchor, orientation)
        frontier = self._frontier
        if frontier is not None and self._fits is not None:
            return anchor in frontier or second in frontier
        cells = self.cells
        return (anchor not in cells and self._borders_table(anchor)) or (
            second not in cells and self._borders_table(second)
        )

    def placements(self) -> list[tuple[Hex, int]]:
        """Every (anchor, orientation) covering two empty cells and touching the table."""
        return [(anchor, orientation) for anchor, orientation, _ in self.spots()]

    def spots(self) -> list[Spot]:
        """Every (anchor, orientation, second cell) covering two empty cells and touching the table.

        The order is stable (by frontier cell, then direction): see the module's docstring.
        """
        return [spot for here in self._ordered() for spot in here.spots]

    def place_actions(self, tile: int) -> list[dict]:
        """The place actions of `tile`, in the order of spots() (read-only: they are shared).

        A design a half-turn keeps is offered in orientations 0..2 only.  The actions of each frontier
        cell are kept with it, so a placement rebuilds only those of the few cells it changed.
        """
        folded = symmetric()[design_of(tile)]
        actions: list[dict] = []
        for here in self._ordered():
            block = here.actions.get(tile)
            if block is None:
                block = here.actions[tile] = [
                    {"type": "place", "tile": tile, "cells": cells, "orientation": orientation}
                    for orientation, cells in (here.offers or here.offered())[folded]
                ]
            actions += block
        return actions

    # --- storage -------------------------------------------------------------------------
    def to_json(self) -> list[list[int]]:
        return [[tile, anchor[0], anchor[1], orientation] for tile, (anchor, orientation) in self.tiles.items()]

    @classmethod
    def from_json(cls, data: list) -> "Board":
        board = cls()
        for tile, q, r, orientation in data:
            anchor = (q, r)
            board.tiles[tile] = (anchor, orientation)
            board.cells[anchor] = board.cells[second_cell(anchor, orientation)] = tile
            board._index_ends(tile)
        board._frontier = board._fits = None  # built when placements are first asked for (_built)
        return board

    def copy(self) -> "Board":
        other = Board()
        other.tiles = dict(self.tiles)
        other.cells = dict(self.cells)
        other.ends = dict(self.ends)
        other._frontier, other._fits = self._frontier, self._fits  # copied by whichever changes first
        other._fits_shared = self._fits_shared = True
        other._keys, other._order = self._keys, self._order  # never changed in place, only replaced
        return other
