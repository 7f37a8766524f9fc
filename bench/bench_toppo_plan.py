"""Correspondence Toppo's plan, measured where it plays: hands from the moment every deck card has been seen.

    python bench/bench_toppo_plan.py --positions 100                        # the plan as engine.toppo.planner sets it
    python bench/bench_toppo_plan.py --positions 100 --depth 3 --samples 6  # another setting of the same plan
    python bench/bench_toppo_plan.py --positions 100 --greedy               # greedy in the plan's seat: 0 by design

Two greedy bots play correspondence hands (two players, three cards) until every card of both decks has been seen
going under (engine.toppo.planner.known); from each such position the hand is played to its end twice, the plan in
seat 0 then in seat 1, greedy in the other.  It prints the plan's mean lead in cards at the hand's end (the rival's
penalty points minus its own), the share of hands it won, and its decision times without a time limit (the site's
limit cuts the samples, not the depth).  The same positions and seeds for every setting, so settings compare on
the same hands (decision 30, point 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots import choose_action  # noqa: E402
from engine.bots.hints import hints_for  # noqa: E402
from engine.core import get_game, make_rng  # noqa: E402
from engine.toppo import planner  # noqa: E402

GAME = get_game("toppo")
HINTS = hints_for(GAME)


def positions(count: int, seed: str) -> list:
    """States of greedy-against-greedy hands at the first claim once the decks are known."""
    out = []
    for i in range(count):
        state = GAME.new_state(2, {"pace": "correspondence"}, f"{seed}:{i}")
        k = 0
        while not planner.known(state):
            for s in sorted(state.to_act()):
                if s in state.to_act():
                    state.apply(s, choose_action("greedy", GAME, state.view(s), s, f"{seed}:{i}:{k}"))
                    k += 1
        out.append(state)
    return out


def planned(view: dict, seat: int, seed: str):
    """The plan's claim from the seat's own view (ruling S2); greedy's where the plan declines."""
    rng = make_rng(seed, 0)
    sample = GAME.determinize(view, seat, rng)
    action = planner.plan(HINTS, sample, seat, sample.legal_actions(seat), rng, None)
    return action if action is not None else choose_action("greedy", GAME, view, seat, seed)


def hand(state, seat: int, greedy_only: bool, seed: str, times: list[float]) -> int:
    """Play the hand to its end, the plan (or greedy) in `seat`; the lead in cards at its end."""
    state = state.clone()
    number, k = state.hand, 0
    while state.hand == number and state.phase == "play":
        for s in sorted(state.to_act()):
            if s not in state.to_act():
                continue
            if s == seat and not greedy_only:
                t0 = time.perf_counter()
                action = planned(state.view(s), s, f"{seed}:{k}")
                times.append(time.perf_counter() - t0)
            else:
                action = choose_action("greedy", GAME, state.view(s), s, f"{seed}:g{k}")
            state.apply(s, action)
            k += 1
    points = state.hand_points[-1]
    return points[1 - seat] - points[seat]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--depth", type=int, help="own choices followed in full (planner.MAX_DEPTH)")
    p.add_argument("--samples", type=int, help="deals of the hidden cards (planner.SAMPLES)")
    p.add_argument("--greedy", action="store_true", help="greedy in the plan's seat (a check: lead 0)")
    p.add_argument("--seed", default="snap", help="the positions' deals")
    args = p.parse_args()
    if args.depth:
        planner.MAX_DEPTH = args.depth
    if args.samples:
        planner.SAMPLES = args.samples
    leads, times = [], []
    for i, state in enumerate(positions(args.positions, args.seed)):
        for seat in (0, 1):
            leads.append(hand(state, seat, args.greedy, f"p{i}:{seat}", times))
    won = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in leads)
    label = "greedy" if args.greedy else f"plan depth {planner.MAX_DEPTH}, {planner.SAMPLES} samples"
    print(f"{label}: {len(leads)} hands, mean lead {statistics.mean(leads):+.2f} cards, won {won / len(leads):.3f}")
    if times:
        times.sort()
        print(
            f"decision s: median {times[len(times) // 2]:.4f}, p95 {times[int(len(times) * 0.95)]:.3f}, "
            f"max {times[-1]:.3f}"
        )


if __name__ == "__main__":
    main()
