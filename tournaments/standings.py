"""Standings: points from each finished table's final ranking (ruling S1), then tie-breaks (docs/tournaments.md).

Plain Python over plain data, so the rules are tested on hand-made results.

Points at a table of k: a seat at place r scores k - r (first k - 1, last 0); seats sharing a place share
the points of the places they cover (two tied for first at a table of two: ½ each).  With two players:
a win 1, a draw ½, a loss 0.  A seat that left ranks after those still playing (ruling S1), so it scores
what that place scores.  An aborted table, or one still running, counts for nobody.

Order: points; then Sonneborn-Berger (for each opponent met at a finished table: the share of that
meeting she won - 1 placed ahead, ½ level, 0 behind - times that opponent's points); then the sum of her
own scores in the game's sense (Toppo: the fewest penalty points); then head-to-head among those still
level (the meetings between them only, scored the same way); then the earliest registration.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby


@dataclass
class SeatResult:
    user_id: int
    rank: int | None
    score: float | None


@dataclass
class TableResult:
    finished: bool  # False: running, open or aborted (counts for nobody)
    seats: list[SeatResult]


@dataclass
class EntrantKey:
    user_id: int
    order: tuple  # the registration order: (registered_at, entrant id)


@dataclass
class Standing:
    user_id: int
    points: float = 0.0
    played: int = 0
    wins: int = 0
    sonneborn_berger: float = 0.0
    score_sum: float = 0.0
    head_to_head: float = 0.0
    place: int = 0
    meetings: list = field(default_factory=list, repr=False)  # (opponent, share) per opponent per table


def table_points(seats: list[SeatResult]) -> dict[int, float]:
    """Points per user at one finished table (see the module's docstring)."""
    k = len(seats)
    out = {}
    for seat in seats:
        rank = seat.rank or k
        tied = sum(1 for s in seats if (s.rank or k) == rank)
        places = range(rank, rank + tied)
        out[seat.user_id] = sum(k - p for p in places) / tied
    return out


def _share(mine: int | None, theirs: int | None, k: int) -> float:
    mine, theirs = mine or k, theirs or k
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def standings(
    entrants: list[EntrantKey], tables: list[TableResult], *, higher_is_better: bool = True
) -> list[Standing]:
    """Every entrant's standing, best first, with `place` 1, 2, 3 ... (registration breaks the last ties)."""
    rows = {e.user_id: Standing(user_id=e.user_id) for e in entrants}
    order = {e.user_id: e.order for e in entrants}
    for table in tables:
        if not table.finished:
            continue
        k = len(table.seats)
        points = table_points(table.seats)
        for seat in table.seats:
            row = rows.get(seat.user_id)
            if row is None:
                continue
            row.points += points[seat.user_id]
            row.played += 1
            row.wins += seat.rank == 1
            row.score_sum += seat.score or 0
            row.meetings += [
                (other.user_id, _share(seat.rank, other.rank, k))
                for other in table.seats
                if other.user_id != seat.user_id
            ]
    for row in rows.values():
        row.sonneborn_berger = sum(share * rows[o].points for o, share in row.meetings if o in rows)
    sign = 1 if higher_is_better else -1

    def key(row: Standing):
        return (-row.points, -row.sonneborn_berger, -sign * row.score_sum)

    ranked: list[Standing] = []
    for _, level in groupby(sorted(rows.values(), key=key), key=key):
        level = list(level)
        ids = {r.user_id for r in level}
        for row in level:
            row.head_to_head = sum(share for o, share in row.meetings if o in ids) if len(level) > 1 else 0.0
        ranked += sorted(level, key=lambda r: (-r.head_to_head, order[r.user_id]))
    for place, row in enumerate(ranked, start=1):
        row.place = place
    return ranked
