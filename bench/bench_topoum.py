"""Topoum speed: random full games per second (2, 3, 4 players) and the time to list legal choices.

Run: /work/venv/bin/python bench/bench_topoum.py [games per player count, default 200]
Prints figures only; nothing here is asserted.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import get_game  # noqa: E402

GAME = get_game("topoum")


def random_game(players: int, seed: int, options: dict, timings: list | None = None):
    """Play random legal decisions (never undo) to the end; return the number of decisions."""
    st = GAME.new_state(players, options, seed)
    rng = random.Random(seed)
    steps = 0
    while not st.is_over():
        seat = st.cur
        if timings is not None:
            st._legal = None
            t0 = time.perf_counter()
            actions = st.legal_actions(seat)
            timings.append(time.perf_counter() - t0)
        else:
            actions = st.legal_actions(seat)
        choices = [a for a in actions if a["type"] != "undo"]
        st.apply(seat, rng.choice(choices))
        steps += 1
    return steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    configs = [
        ("2 players, Recruits", 2, {}),
        ("3 players, Tacticians", 3, {"deck": "preset", "preset": "tacticians"}),
        ("4 players, random decks", 4, {"deck": "random"}),
        ("2 players, random decks + obstacles", 2, {"deck": "random", "obstacles": True}),
    ]
    for label, players, options in configs:
        durations, steps = [], []
        for seed in range(games):
            t0 = time.perf_counter()
            steps.append(random_game(players, seed, options))
            durations.append(time.perf_counter() - t0)
        total = sum(durations)
        print(f"{label:40s} {games / total:7.1f} games/s   median game {statistics.median(durations) * 1000:6.1f} ms"
              f"   median {statistics.median(steps):.0f} decisions")
    timings: list[float] = []
    for seed in range(max(10, games // 10)):
        random_game(2, seed, {"deck": "random"}, timings)
    timings.sort()
    print(f"legal_actions (2 players, random decks, uncached): median {statistics.median(timings) * 1e6:.0f} us, "
          f"90th percentile {timings[int(len(timings) * 0.9)] * 1e6:.0f} us, max {timings[-1] * 1e6:.0f} us")


if __name__ == "__main__":
    main()
