"""Who plays whom, in which seat: plain Python, no Django (docs/tournaments.md).

Entrants are numbered 0..n-1 (drawn at random when the tournament starts).  A table is a tuple of
entrant numbers in seat order (seat 0 first); who starts is then drawn by the game's own seeded
generator (ruling G0.1), so a seat decides the turn order around the table, not who begins.

- Two players a table: every pair meets once (or twice, `double`: once in each seat).  In a single
  round robin the pair (i, j), i < j, puts i in seat 0 when i + j is odd and j when it is even, so each
  entrant sits in seat 0 in half her games (one more or one fewer when her number of games is odd).
- k >= 3 players a table: the tables are the cyclic shifts, modulo n, of a few base groups containing 0
  (a "difference cover"): base group {0, b1, ..., b(k-1)} gives the n tables {i, i+b1, ..., i+b(k-1)}
  (mod n) for i = 0..n-1, seated in that order.  Every entrant then plays exactly k tables per base group
  and sits in each seat exactly once per base group; two entrants whose numbers differ by d (or n - d)
  meet once for each pair of places in a base group that differ by d.  The base groups are chosen
  (greedily, then the fewest) so that every difference 1..n//2 appears: everybody meets everybody at
  least once.  With n == k this is k games of the same group, each entrant once in every seat.
"""

from __future__ import annotations

from itertools import combinations

# Entrants a tournament may take: small enough that everybody's tables stay playable side by side.
MAX_ENTRANTS = 16


def pair_tables(n: int, *, double: bool = False) -> list[tuple[int, int]]:
    """Every pair of n entrants once (or twice, seats swapped); seats balanced as the module says."""
    tables = []
    for i, j in combinations(range(n), 2):
        first = (i, j) if (i + j) % 2 else (j, i)
        tables.append(first)
        if double:
            tables.append((first[1], first[0]))
    return tables


def _classes(group: tuple[int, ...], n: int) -> set[int]:
    """The differences (1..n//2) between the members of a base group, modulo n."""
    out = set()
    for a, b in combinations(group, 2):
        d = (b - a) % n
        out.add(min(d, n - d))
    return out


def base_groups(n: int, k: int) -> list[tuple[int, ...]]:
    """Base groups containing 0 whose differences cover 1..n//2 (see the module's docstring)."""
    if not 2 <= k <= n:
        raise ValueError(f"cannot seat {n} entrants at tables of {k}")
    needed = set(range(1, n // 2 + 1))
    candidates = [(0, *rest) for rest in combinations(range(1, n), k - 1)]
    chosen: list[tuple[int, ...]] = []
    if not needed:  # n == 1 cannot happen (k >= 2); n == 2 == k: one group
        return [tuple(range(k))]
    while needed:
        # The candidate covering the most missing differences; on a tie the first in lexicographic order.
        best = max(candidates, key=lambda g: len(_classes(g, n) & needed))
        chosen.append(best)
        needed -= _classes(best, n)
    return chosen


def group_tables(n: int, k: int) -> list[tuple[int, ...]]:
    """The tables of n entrants at tables of k >= 3 (cyclic shifts of the base groups)."""
    return [tuple((i + b) % n for b in group) for group in base_groups(n, k) for i in range(n)]


def tables_for(n: int, k: int, *, double: bool = False) -> list[tuple[int, ...]]:
    """All the tables of a round robin of n entrants at tables of k, in seat order."""
    if k == 2:
        return pair_tables(n, double=double)
    return group_tables(n, k)


def games_each(n: int, k: int, *, double: bool = False) -> int:
    """How many games each entrant plays (the same for everyone)."""
    if k == 2:
        return (n - 1) * (2 if double else 1)
    return k * len(base_groups(n, k))
