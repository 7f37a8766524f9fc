"""Rings, enclosure at any depth and turn scoring (rulings L3, L4)."""

from __future__ import annotations

from topology_positions import EXAMPLE_BEFORE, EXAMPLE_TURN, GAME, START, play_turn, position

from engine.core import make_rng
from engine.topology import rules
from engine.topology.rings import enclosed, find_rings, rings_through, score_rings

# Tiles are written as (anchor, orientation, pairs of ends); geometry.py numbers the ends.


def test_two_tiles_close_a_ring_of_two_round_a_corner():  # ruling L3
    # End 0 and end 9 of the start tile face cell (1, -1); a tile there joining the two
    # sides it shows them (its ends 1 and 2) closes a ring of two curves round the corner.
    state, ids, _ = position(
        [
            ((0, 0), 0, ((0, 9), (1, 8), (2, 7), (3, 6), (4, 5))),
            ((1, -1), 2, ((0, 3), (1, 2), (4, 9), (5, 8), (6, 7))),
        ]
    )
    rings = find_rings(state.board)
    assert [r.value for r in rings] == [2]
    assert rings[0].tiles == set(ids)


def test_the_rulebook_example_scores_16():  # ruling L4: 10 + 2 + 2 + 2
    state, _, hand = position(EXAMPLE_BEFORE, hand=[pairs for _, _, pairs in EXAMPLE_TURN])
    assert find_rings(state.board) == []
    entry = play_turn(state, hand, EXAMPLE_TURN)
    rings = find_rings(state.board)
    assert sorted(r.value for r in rings) == [2, 2, 10]
    big = next(r for r in rings if r.value == 10)
    small = [r for r in rings if r.value == 2]
    inner = [r for r in small if big.contains(r)]
    outer = [r for r in small if not big.contains(r)]
    assert len(inner) == 1 and len(outer) == 1
    assert not inner[0].contains(big) and not outer[0].contains(big)
    assert entry["points"] == 16
    assert state.scores_[0] == 16
    assert sorted((r["value"], r["inner"], r["points"]) for r in entry["rings"]) == [
        (2, [], 2),
        (2, [], 2),
        (10, [2], 12),
    ]


# Three rings one inside the other, 7 around 4 around 2; the last tile closes all three at once.
NESTED = [
    ((0, 0), 0, ((0, 3), (1, 2), (4, 5), (6, 7), (8, 9))),
    ((1, -1), 2, ((0, 1), (2, 9), (3, 4), (5, 8), (6, 7))),
    ((0, -1), 2, ((0, 7), (1, 6), (2, 3), (4, 5), (8, 9))),
    ((2, -1), 5, ((0, 3), (1, 2), (4, 9), (5, 8), (6, 7))),
    ((3, -1), 1, ((0, 1), (2, 9), (3, 6), (4, 5), (7, 8))),
]
NESTED_LAST = ((2, -2), 0, ((0, 1), (2, 7), (3, 6), (4, 5), (8, 9)))


def test_rings_nested_two_deep_closed_in_one_turn():  # ruling L4
    state, _, hand = position(NESTED, hand=[NESTED_LAST[2]])
    entry = play_turn(state, hand, [NESTED_LAST])
    rings = sorted(find_rings(state.board), key=lambda r: r.value)
    assert [r.value for r in rings] == [2, 4, 7]
    two, four, seven = rings
    assert seven.contains(four) and seven.contains(two) and four.contains(two)
    assert not two.contains(four) and not four.contains(seven)
    assert [r.value for r in enclosed(seven, rings)] == [2, 4] or [r.value for r in enclosed(seven, rings)] == [4, 2]
    # 7 + 4 + 2 for the outer ring, 4 + 2 for the middle one, 2 for the inner one
    assert entry["points"] == (7 + 4 + 2) + (4 + 2) + 2


def test_a_ring_scores_the_rings_closed_earlier_inside_it_at_any_depth():  # ruling L4
    # Same rings, but the tile at (0, -1) lies only on the outer ring: leave it for last,
    # so that the 4 and the 2 inside are closed before the turn.
    before = [t for t in NESTED if t[0] != (0, -1)] + [NESTED_LAST]
    last = next(t for t in NESTED if t[0] == (0, -1))
    state, _, hand = position(before, hand=[last[2]])
    assert sorted(r.value for r in find_rings(state.board)) == [2, 4]
    entry = play_turn(state, hand, [last])
    assert entry["points"] == 7 + 4 + 2
    assert entry["rings"] == [{"value": 7, "inner": [4, 2], "points": 13}]


def test_rings_already_closed_do_not_score_again():  # ruling L4: only rings closed this turn
    # Two of the example's tiles laid a turn earlier close the big ring and the one inside it;
    # the third tile, laid now, closes only the separate ring of two.
    earlier = [EXAMPLE_TURN[0], EXAMPLE_TURN[2]]
    state, _, hand = position(EXAMPLE_BEFORE + earlier, hand=[EXAMPLE_TURN[1][2]])
    assert sorted(r.value for r in find_rings(state.board)) == [2, 10]
    entry = play_turn(state, hand, [EXAMPLE_TURN[1]])
    assert sorted(r.value for r in find_rings(state.board)) == [2, 2, 10]
    assert entry["points"] == 2


def test_a_line_that_stays_open_scores_nothing():
    state, _, hand = position([START], hand=[START[2]])
    entry = play_turn(state, hand, [((2, 0), 0, START[2])])
    assert find_rings(state.board) == []
    assert entry["points"] == 0 and state.scores_ == [0, 0]


def test_inside_is_consistent_all_along_every_ring():
    """Rings never cross, so every point of one ring lies on the same side of another,
    and no two rings lie inside each other; checked on the rings of many random games."""
    from topology_positions import GAME

    from engine.core import make_rng

    checked = 0
    for seed in range(15):
        state = GAME.new_state(2, {}, seed)
        rng = make_rng("rings", seed)
        while not state.is_over():
            seat = state.current
            state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"]))
        rings = find_rings(state.board)
        for ring in rings:
            assert ring.value == len(ring.curves) >= 2
        for outer in rings:
            for other in rings:
                if other is outer:
                    continue
                sides = {outer.contains_point(p) for p in other.outline[::2]}  # its edge midpoints
                assert len(sides) == 1
                assert not (outer.contains(other) and other.contains(outer))
                checked += 1
    assert checked > 0


def test_a_turn_scores_what_scoring_against_every_ring_on_the_table_gives():  # ruling L4
    """rules.turn_score reads only the rings near the new ones (rings_around): at every confirmation of
    random games it must give the points and the detail, in order, that all the table's rings give."""
    checked = 0
    for players, options in [(2, {}), (3, {}), (2, {"advanced": True})]:
        for seed in range(8):
            state = GAME.new_state(players, options, seed)
            rng = make_rng("turn_score", seed)
            while not state.is_over():
                legal = [action for action in state.legal_actions(state.current) if action["type"] != "undo"]
                if legal == [{"type": "end_turn"}]:
                    placed = state.placed_now()
                    if rings_through(state.board, placed):
                        assert rules.turn_score(state) == score_rings(find_rings(state.board), set(placed))
                        checked += 1
                state.apply(state.current, rng.choice(legal))
    assert checked > 30


def test_a_remembered_turn_score_is_the_one_computed_and_the_callers_own():
    """rules.turn_score remembers its answer per table and placed tiles: over games whose tiles seek rings (the
    bots' playout policy), it answers every end of turn as a fresh count does, and a caller's change to the
    answer reaches no one else."""
    from engine.bots.hints import hints_for
    from engine.topology.rings import rings_around

    def counted(state):
        placed = state.placed_now()
        new = rings_through(state.board, placed)
        return score_rings(rings_around(state.board, new), set(placed)) if new else (0, [])

    hints = hints_for(GAME)
    scored = 0
    for seed in range(8):
        state = GAME.new_state(2, {}, f"remembered:{seed}")
        rng = make_rng(f"remembered:{seed}", 0)
        while not state.is_over():
            seat = state.to_act()[0]
            action = hints.rollout_action(state, seat, rng)
            if action["type"] == "end_turn":
                expected = counted(state)
                answer = rules.turn_score(state)
                assert answer == expected
                answer[1].append({"value": 99})  # the caller's own copy
                if answer[1][:-1]:
                    answer[1][0]["inner"].append(99)
                assert rules.turn_score(state) == expected
                scored += expected[0] > 0
            state.apply(seat, action)
    assert scored > 10  # rings were closed and scored, not only empty turns
