"""The pairing scheme (tournaments.pairings, docs/tournaments.md): everybody meets everybody, everybody plays
as many games as everybody else, and seats are shared out evenly."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairings import MAX_ENTRANTS, games_each, pair_tables, tables_for


@pytest.mark.parametrize("n", range(2, MAX_ENTRANTS + 1))
def test_two_player_round_robin_pairs_everyone_once_with_seat_zero_shared(n):
    tables = pair_tables(n)
    assert Counter(frozenset(t) for t in tables) == Counter({frozenset(p): 1 for p in combinations(range(n), 2)})
    first = Counter(t[0] for t in tables)
    for e in range(n):
        # n - 1 games each; seat 0 in half of them, give or take one
        assert abs(2 * first[e] - (n - 1)) <= 1
    assert games_each(n, 2) == n - 1


@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_double_round_robin_meets_twice_once_in_each_seat(n):
    tables = pair_tables(n, double=True)
    assert Counter(tables) == Counter({(a, b): 1 for a in range(n) for b in range(n) if a != b})
    assert games_each(n, 2, double=True) == 2 * (n - 1)


@pytest.mark.parametrize("k", [3, 4, 5, 8])
@pytest.mark.parametrize("n", range(3, MAX_ENTRANTS + 1))
def test_groups_meet_everyone_play_equally_and_rotate_seats(n, k):
    if n < k:
        pytest.skip("fewer entrants than a table's seats")
    tables = tables_for(n, k)
    assert all(len(set(t)) == k and all(0 <= e < n for e in t) for t in tables)
    met = {frozenset(p) for t in tables for p in combinations(t, 2)}
    assert met == {frozenset(p) for p in combinations(range(n), 2)}  # everybody meets everybody at least once
    played = Counter(e for t in tables for e in t)
    assert set(played.values()) == {games_each(n, k)}
    seats = Counter((e, s) for t in tables for s, e in enumerate(t))
    assert len(set(seats.values())) == 1 and len(seats) == n * k  # every entrant in every seat equally often


def test_group_sizes_stay_small():
    """Four entrants at tables of three: four tables (every trio once), three games each."""
    assert sorted(tuple(sorted(t)) for t in tables_for(4, 3)) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert len(tables_for(7, 3)) == 7  # the Fano plane: every pair exactly once
    assert len(tables_for(8, 4)) == 8 and games_each(8, 4) == 4
