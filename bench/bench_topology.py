"""Topology engine speed: random full games per second, and the time to list legal actions.

    python bench/bench_topology.py                 # 200 games per configuration
    python bench/bench_topology.py --games 1000

For 2, 3 and 4 players (and the advanced 2-player variant) it plays random games to the end
(a random legal action each decision, never undo), then prints games per second, decisions per
game, the median and 95th percentile time of one `legal_actions` call, and the mean number of
actions listed when tiles are to be placed.  Figures, not assertions: tests never time anything.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import get_game, make_rng  # noqa: E402

CONFIGS = [(2, {}), (3, {}), (4, {}), (2, {"advanced": True})]


def run(players: int, options: dict, games: int) -> dict:
    """Play `games` random games; return the timings."""
    game = get_game("topology")
    list_times, sizes, decisions = [], [], 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(players, options, seed)
        rng = make_rng("bench", seed)
        while not state.is_over():
            seat = state.current
            t0 = time.perf_counter()
            actions = state.legal_actions(seat)
            list_times.append(time.perf_counter() - t0)
            if state.hand():
                sizes.append(len(actions))
            actions = [a for a in actions if a["type"] != "undo"]
            state.apply(seat, rng.choice(actions))
            decisions += 1
    elapsed = time.perf_counter() - start
    list_times.sort()
    return {
        "games_per_s": games / elapsed,
        "decisions": decisions / games,
        "median_ms": statistics.median(list_times) * 1000,
        "p95_ms": list_times[int(0.95 * (len(list_times) - 1))] * 1000,
        "actions": statistics.mean(sizes) if sizes else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'configuration':<22}{'games/s':>9}{'decisions':>11}{'legal median':>14}{'p95':>9}{'actions':>9}")
    for players, options in CONFIGS:
        label = f"{players} players" + (" advanced" if options.get("advanced") else "")
        r = run(players, options, args.games)
        print(f"{label:<22}{r['games_per_s']:>9.1f}{r['decisions']:>11.1f}"
              f"{r['median_ms']:>11.3f} ms{r['p95_ms']:>6.2f} ms{r['actions']:>9.0f}")


if __name__ == "__main__":
    main()
