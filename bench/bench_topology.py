"""Topology engine speed: random full games, and the time of legal_actions, view, clone and a bot playout.

    python bench/bench_topology.py                 # 100 games per configuration
    python bench/bench_topology.py --games 500

For 2, 3 and 4 players (and the advanced 2-player variant) it plays random games to the end
(a random legal action each decision, applied with the checked `apply`, never undo), then prints
the milliseconds of one whole game (legal_actions and apply only), decisions per game, the median
time of one `legal_actions`, `view` (for the seat to move) and `clone` call, of `from_json` (what every
web request reading a table pays to decode the stored JSON) and of `from_json` then `view` (a request
that draws the table), and the mean number of actions listed when tiles are to be placed.  Then the
milliseconds of one whole 2-player game played by the bots' playout policy (engine/topology/hints.py
rollout_action), as searches run them.
Times are CPU seconds of this process (time.process_time): the machine is shared and noisy.
Figures, not assertions: tests never time anything.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import get_game, make_rng  # noqa: E402
from engine.topology.hints import TopologyHints  # noqa: E402
from engine.topology.state import TopologyState  # noqa: E402

CONFIGS = [(2, {}), (3, {}), (4, {}), (2, {"advanced": True})]


def run(players: int, options: dict, games: int) -> dict:
    """Play `games` random games; return the timings."""
    game = get_game("topology")
    clock = time.process_time
    list_times, view_times, clone_times, sizes, decisions, game_time = [], [], [], [], 0, 0.0
    load_times, load_view_times = [], []
    for seed in range(games):
        state = game.new_state(players, options, seed)
        rng = make_rng("bench", seed)
        while not state.is_over():
            seat = state.current
            started = clock()
            actions = state.legal_actions(seat)
            listed = clock()
            action = rng.choice([a for a in actions if a["type"] != "undo"])
            chosen = clock()
            state.apply(seat, action)
            applied = clock()
            list_times.append(listed - started)
            game_time += (listed - started) + (applied - chosen)
            if state.hand():
                sizes.append(len(actions))
            if decisions % 4 == 0:  # a sample: these are not part of a game's time
                started = clock()
                state.view(state.current)
                viewed = clock()
                state.clone()
                view_times.append(viewed - started)
                clone_times.append(clock() - viewed)
                stored = state.to_json()
                started = clock()
                TopologyState.from_json(stored)
                loaded = clock()
                TopologyState.from_json(stored).view(state.current)
                load_times.append(loaded - started)
                load_view_times.append(clock() - loaded)
            decisions += 1
    return {
        "game_ms": game_time / games * 1000,
        "decisions": decisions / games,
        "legal_ms": statistics.median(list_times) * 1000,
        "view_ms": statistics.median(view_times) * 1000,
        "clone_ms": statistics.median(clone_times) * 1000,
        "load_ms": statistics.median(load_times) * 1000,
        "load_view_ms": statistics.median(load_view_times) * 1000,
        "actions": statistics.mean(sizes) if sizes else 0.0,
    }


def playout_ms(games: int) -> float:
    """Milliseconds of one whole 2-player game played by the bots' playout policy."""
    game = get_game("topology")
    hints = TopologyHints(game)
    started = time.process_time()
    for seed in range(games):
        state = game.new_state(2, {}, seed)
        rng = make_rng("playout", seed)
        while not state.is_over():
            seat = state.current
            state.apply(seat, hints.rollout_action(state, seat, rng))
        hints.raw_scores(state)
    return (time.process_time() - started) / games * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(
        f"{'configuration':<22}{'game':>10}{'decisions':>11}{'legal':>10}{'view':>10}{'clone':>10}"
        f"{'from_json':>11}{'+ view':>10}{'actions':>9}"
    )
    for players, options in CONFIGS:
        label = f"{players} players" + (" advanced" if options.get("advanced") else "")
        r = run(players, options, args.games)
        print(
            f"{label:<22}{r['game_ms']:>7.1f} ms{r['decisions']:>11.1f}{r['legal_ms']:>7.3f} ms"
            f"{r['view_ms']:>7.3f} ms{r['clone_ms']:>7.3f} ms{r['load_ms']:>8.3f} ms{r['load_view_ms']:>7.3f} ms"
            f"{r['actions']:>9.0f}"
        )
    print(f"{'2 players, playout':<22}{playout_ms(max(1, args.games // 5)):>7.1f} ms")


if __name__ == "__main__":
    main()
