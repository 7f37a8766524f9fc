"""Expert's Topology turn planner (engine.topology.planner, decision 30, point 2): it builds rings over the turn's
tiles, weighs the rival's reply, keeps to its deadline and never reads the hidden stack order (ruling S2)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("engine.topology")

from test_bots_deadline import FakeClock  # noqa: E402
from test_bots_topology import COMBO_OPENING, best_turn, game, positions  # noqa: E402

from engine.bots import Budget, budget_for, choose  # noqa: E402
from engine.bots.base import Deadline  # noqa: E402
from engine.bots.hints import hints_for  # noqa: E402
from engine.bots.search import decide  # noqa: E402
from engine.topology import planner  # noqa: E402
from engine.topology.lines import turn_points  # noqa: E402

PLAN = Budget(search="plan", plans=8, iterations=16)  # no time cap: reproducible


def combo_position():
    g = game()
    state = g.new_state(2, {}, "combo:0")
    for action in COMBO_OPENING:
        state.apply(state.to_act()[0], action)
    return g, state, state.to_act()[0]


def test_expert_plans_topology_turns_and_strong_keeps_its_search():
    assert budget_for("expert", "topology").search == "plan"
    assert budget_for("strong", "topology").search == "halving"  # strong's calibration is published: unchanged


def test_the_planner_builds_a_ring_over_the_turn_where_greedy_takes_the_ring_in_front_of_it():
    # The combo opening (test_bots_topology): the best single placement closes a 2-point ring and the best turn
    # greedy's first placement allows makes 8.  The planner leads a line round with one tile for another of the
    # hand to close (it may close a small ring first elsewhere), and its whole turn makes more (14 when written).
    g, state, seat = combo_position()
    greedy = choose("greedy", g, state.view(seat), seat, random.Random(0), budget=budget_for("greedy", "topology"))
    greedy_turn = best_turn(state, seat, greedy)
    for seed in range(2):
        played = state.clone()
        before = played.scores()[seat]
        while played.current == seat:
            played.apply(seat, choose("expert", g, played.view(seat), seat, random.Random(seed), budget=PLAN))
        assert played.scores()[seat] - before > greedy_turn == 8


def test_the_planners_setups_are_closed_by_another_tile_of_the_hand():
    # Every ring-building placement it proposes is one that a second tile of the hand then closes, for the curves said.
    g = game()
    hints = hints_for(g)
    checked = 0
    for state in positions(30, seed=11, min_tiles=10):
        seat = state.current
        hand = state.hand()
        if len(hand) < 2:
            continue
        plan = planner.TurnPlanner(hints, state, seat, random.Random(0), Deadline(None))
        for value, tile, anchor, orientation, partner, spot in plan.setups(state, hand, partners_of=True)[:3]:
            after = state.clone()
            after.board.place(tile, anchor, orientation)
            after.steps.append({"type": "place", "tile": tile})
            closes = plan.closing(after, [partner], 50)
            assert any((t, a, o) == (partner, *spot) and gain >= value for gain, t, a, o in closes)
            checked += 1
    assert checked >= 5


def test_the_planner_keeps_to_its_deadline():
    g, state, seat = combo_position()
    clock = FakeClock(tick=0.01)  # every reading of the clock is a hundredth of a second later
    sample = g.determinize(state.view(seat), seat, random.Random(0))
    plan = planner.TurnPlanner(hints_for(g), sample, seat, random.Random(0), Deadline(0.5, clock))
    action = plan.run()
    assert action in state.legal_actions(seat)
    assert clock.now < 0.5 + 0.5  # stopped soon after the limit (each phase asks it), with an action
    unlimited = planner.TurnPlanner(hints_for(g), sample, seat, random.Random(0), Deadline(None))
    unlimited.run()
    assert plan.evaluated < unlimited.evaluated  # cut short, not finished by chance


def test_a_whole_decision_with_a_passed_deadline_still_plays_a_legal_placement():
    g, state, seat = combo_position()
    clock = FakeClock(tick=1.0)
    run = decide(g, state.view(seat), seat, random.Random(0), PLAN.with_(seconds=0.5, clock=clock))
    assert run.action in state.legal_actions(seat)


def test_the_planner_never_reads_the_stack_order(monkeypatch):
    # Ruling S2: samples of the same view differ only in the face-down order; the plan must not depend on it.
    for name, value in {"FIRST_CLOSES": 8, "FIRST_SETUPS": 4, "FINALS": 16, "HANDS": 6}.items():
        monkeypatch.setattr(planner, name, value)  # a smaller plan: the same code paths, sooner
    g = game()
    hints = hints_for(g)
    compared = 0
    for state in positions(6, seed=12, min_tiles=8):
        seat = state.current
        view = state.view(seat)
        chosen = set()
        for k in range(3):
            sample = g.determinize(view, seat, random.Random(100 + k))
            chosen.add(str(planner.TurnPlanner(hints, sample, seat, random.Random(7), Deadline(None)).run()))
        assert len(chosen) == 1
        compared += 1
    assert compared == 6


def test_the_planner_counts_what_the_rival_takes():
    # An end of turn that leaves the rival a ring to close is worth less than its points.
    g = game()
    hints = hints_for(g)
    for state in positions(20, seed=13, min_tiles=12):
        seat = state.current
        plan = planner.TurnPlanner(hints, state, seat, random.Random(0), Deadline(None))
        rival = plan.rival_state(state)
        pool = sorted(state.stack)
        hands = [pool[i : i + 3] for i in range(0, min(len(pool), 24) - 2, 3)]
        taken = [plan.reply(rival, hand) for hand in hands]
        if max(taken) == 0:
            continue
        node = planner.Node(state, turn_points(state.board, state.placed_now()), None, 0)
        own = hints.open_value(rival.board) * planner.OWN_SHARE / 3
        assert plan.weigh(node, hands) == pytest.approx(node.points - sum(taken) / len(hands) + own)
        return
    pytest.fail("no position where the rival could close a ring")


@pytest.mark.parametrize(
    "players, options",
    [(3, {}), (2, {"advanced": True})],
    ids=["three players", "advanced variant"],
)
def test_where_the_planner_does_not_apply_expert_searches_as_strong_does(players, options):
    # The planner plans a two-player turn of three tiles (ruling L5); with three players (two tiles a turn) and in
    # the advanced variant (ruling L6: a turn-over instead of a third tile) it declines, and the halving search
    # that the expert's budget keeps decides, within the rules.
    g = game()
    state = g.new_state(players, options, "fallback:0")
    seat = state.to_act()[0]
    while not (state.decided() and state.hand()):  # the turn's first steps reveal the tiles
        state.apply(seat, next(a for a in state.legal_actions(seat) if a["type"] == "reveal"))
    assert planner.plan(hints_for(g), state, seat, random.Random(0), Deadline(None)) is None
    run = decide(g, state.view(seat), seat, random.Random(0), PLAN)
    assert run.action in state.legal_actions(seat)
    assert run.playouts > 0  # searched, not planned
