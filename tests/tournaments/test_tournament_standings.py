"""Standings from hand-made finished tables (tournaments.standings): points by place (ruling S1's ranking),
Sonneborn-Berger, the games' own scores, head-to-head, then the registration order."""

from __future__ import annotations

from tournaments.standings import EntrantKey, SeatResult, TableResult, standings, table_points


def _entrants(*ids):
    return [EntrantKey(user_id=i, order=(n, i)) for n, i in enumerate(ids)]


def _game(*seats, finished=True):
    return TableResult(finished=finished, seats=[SeatResult(user_id=u, rank=r, score=s) for u, r, s in seats])


def _order(rows):
    return [r.user_id for r in rows]


def test_points_by_place_with_ties_shared():
    assert table_points([SeatResult(1, 1, 10), SeatResult(2, 2, 5)]) == {1: 1, 2: 0}
    assert table_points([SeatResult(1, 1, 7), SeatResult(2, 1, 7)]) == {1: 0.5, 2: 0.5}  # a draw
    assert table_points([SeatResult(1, 1, 0), SeatResult(2, 2, 0), SeatResult(3, 3, 0), SeatResult(4, 4, 0)]) == {
        1: 3,
        2: 2,
        3: 1,
        4: 0,
    }
    # Two share second place at a table of four: (2 + 1) / 2 each.
    assert table_points([SeatResult(1, 1, 0), SeatResult(2, 2, 0), SeatResult(3, 2, 0), SeatResult(4, 4, 0)]) == {
        1: 3,
        2: 1.5,
        3: 1.5,
        4: 0,
    }


def test_points_first_then_unfinished_and_aborted_tables_count_for_nobody():
    rows = standings(
        _entrants(1, 2, 3),
        [
            _game((1, 1, 30), (2, 2, 20)),
            _game((2, 1, 30), (3, 2, 10)),
            _game((1, 1, 30), (3, 2, 10), finished=False),  # running or aborted
        ],
    )
    assert _order(rows) == [1, 2, 3]
    assert [(r.points, r.played, r.wins) for r in rows] == [(1, 1, 1), (1, 2, 1), (0, 1, 0)]
    assert [r.place for r in rows] == [1, 2, 3]


def test_sonneborn_berger_breaks_a_tie_on_points():
    # 1 beat 2, 2 beat 3, 3 beat 1, and 4 lost to 1 and 2 but beat 3: 1 and 2 have 2 points each.
    rows = standings(
        _entrants(1, 2, 3, 4),
        [
            _game((1, 1, 0), (2, 2, 0)),
            _game((2, 1, 0), (3, 2, 0)),
            _game((3, 1, 0), (1, 2, 0)),
            _game((1, 1, 0), (4, 2, 0)),
            _game((2, 1, 0), (4, 2, 0)),
            _game((4, 1, 0), (3, 2, 0)),
        ],
    )
    by_id = {r.user_id: r for r in rows}
    assert by_id[1].points == by_id[2].points == 2
    # 1 beat 2 (2 points) and 4 (1 point): 3; 2 beat 3 (1) and 4 (1): 2.
    assert (by_id[1].sonneborn_berger, by_id[2].sonneborn_berger) == (3, 2)
    assert _order(rows)[:2] == [1, 2]


def test_scores_break_a_tie_after_sonneborn_berger_and_follow_the_games_sense():
    tables = [_game((1, 1, 40), (2, 2, 10)), _game((2, 1, 30), (1, 2, 25))]
    # Equal points (1 each) and Sonneborn-Berger (1 each); 1 scored 65, 2 scored 40.
    assert _order(standings(_entrants(2, 1), tables)) == [1, 2]
    # Toppo's scores are penalties: fewer is better.
    assert _order(standings(_entrants(1, 2), tables, higher_is_better=False)) == [2, 1]


def test_head_to_head_then_registration_break_the_last_ties():
    # 1 and 2 drew each other and scored the same: only the registration order is left.
    drawn = [_game((1, 1, 5), (2, 1, 5))]
    assert _order(standings(_entrants(2, 1), drawn)) == [2, 1]
    assert _order(standings(_entrants(1, 2), drawn)) == [1, 2]
    # Five entrants (0 registered first): 0 and 3 end level on points (2½) and Sonneborn-Berger (4½) and scored
    # nothing of their own; 3 beat 0, so head-to-head puts 3 first although 0 registered earlier.
    results = {
        (0, 1): 1,
        (0, 2): 1,
        (0, 3): 0,
        (0, 4): None,
        (1, 2): 1,
        (1, 3): None,
        (1, 4): None,
        (2, 3): 1,
        (2, 4): 1,
        (3, 4): 1,
    }  # 1: the first won, 0: the second, None: a draw
    tables = [
        _game((a, 1 if won in (1, None) else 2, 0), (b, 1 if won in (0, None) else 2, 0))
        for (a, b), won in results.items()
    ]
    rows = standings(_entrants(0, 1, 2, 3, 4), tables)
    assert [(r.user_id, r.points, r.sonneborn_berger, r.head_to_head) for r in rows[:2]] == [
        (3, 2.5, 4.5, 1),
        (0, 2.5, 4.5, 0),
    ]
    # At tables of three, all level to the last tie-break: the earlier registration.
    tables = [_game((2, 1, 0), (1, 2, 0), (3, 3, 0)), _game((1, 1, 0), (2, 2, 0), (3, 3, 0))]
    rows = standings(_entrants(1, 2, 3), tables)
    assert [r.points for r in rows][:2] == [3, 3] and rows[0].head_to_head == rows[1].head_to_head == 1
    assert _order(rows) == [1, 2, 3]  # all level: the earlier registration


def test_a_seat_that_left_scores_its_place():
    """Ruling S1: the seat that left ranks after those still playing; its place decides its points."""
    rows = standings(_entrants(1, 2), [_game((1, 2, None), (2, 1, None))])
    assert _order(rows) == [2, 1] and rows[0].points == 1 and rows[1].points == 0
