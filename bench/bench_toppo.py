"""Toppo speed: random full matches per second and the median time to list a seat's legal actions.

Run: /work/venv/bin/python bench/bench_toppo.py [--seconds 3]
A random player picks a seat among to_act() and one of its listed actions, as the
conformance test does; it prints matches/s, decisions per match and the listing time
for 2, 4 and 8 players at both paces (3 hands each, the default).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import get_game, make_rng  # noqa: E402


def one_match(game, players: int, pace: str, seed: int, listing: list[float]) -> int:
    """Play a random match to the end; return its number of decisions."""
    state = game.new_state(players, {"pace": pace}, seed)
    rng = make_rng(f"bench-{seed}", 0)
    steps = 0
    while True:
        seats = state.to_act()
        if not seats:
            return steps
        seat = rng.choice(seats)
        t0 = time.perf_counter()
        actions = state.legal_actions(seat)
        listing.append(time.perf_counter() - t0)
        state.apply(seat, rng.choice(actions))
        steps += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent per configuration")
    args = parser.parse_args()
    game = get_game("toppo")
    print(
        f"{'players':>7} {'pace':>14} {'matches/s':>10} {'decisions/match (median, max)':>30} "
        f"{'legal_actions median':>21}"
    )
    for players in (2, 4, 8):
        for pace in ("live", "correspondence"):
            listing: list[float] = []
            lengths: list[int] = []
            start = time.perf_counter()
            seed = 0
            while time.perf_counter() - start < args.seconds:
                lengths.append(one_match(game, players, pace, seed, listing))
                seed += 1
            elapsed = time.perf_counter() - start
            print(
                f"{players:>7} {pace:>14} {len(lengths) / elapsed:>10.1f} "
                f"{statistics.median(lengths):>22.0f}, {max(lengths):>6} "
                f"{statistics.median(listing) * 1e6:>18.1f} us"
            )


if __name__ == "__main__":
    main()
