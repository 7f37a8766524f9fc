"""Topoum speed: random full games per second (2, 3, 4 players), the time to list legal choices,
to clone a position, to load one and draw its views (what every web request reading a table pays),
and how many strong-bot playouts fit in 2 seconds.

Run: .venv/bin/python bench/bench_topoum.py [games per player count, default 200] [--cpu] [--checked] [--no-bots]
Prints figures only; nothing here is asserted.  Random games take their actions from the legal list
and apply them with `apply_legal` (what bots and the move service do), or `apply` when asked to
check them (`--checked`).
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


CHECKED = "--checked" in sys.argv
# --cpu: time the random games in CPU seconds of this process (a loaded machine), else wall-clock seconds.
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def random_game(players: int, seed: int, options: dict, timings: list | None = None):
    """Play random legal decisions (never undo) to the end; return the number of decisions."""
    st = GAME.new_state(players, options, seed)
    apply = st.apply if CHECKED or not hasattr(st, "apply_legal") else st.apply_legal
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
        apply(seat, rng.choice(choices))
        steps += 1
    return steps


def mid_game(seed: int, decisions: int = 40):
    """A 2-player position some turns into a random game."""
    st = GAME.new_state(2, {"deck": "random"}, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if st.is_over():
            break
        seat = st.cur
        st.apply(seat, rng.choice([a for a in st.legal_actions(seat) if a["type"] != "undo"]))
    return st


def clone_time() -> float:
    """Median seconds to clone a mid-game position."""
    timings = []
    for seed in range(20):
        st = mid_game(seed)
        for _ in range(50):
            t0 = time.perf_counter()
            st.clone()
            timings.append(time.perf_counter() - t0)
    return statistics.median(timings)


def read_costs() -> tuple[float, float, float]:
    """Median seconds, over mid-game positions, of what a web request reading a table pays: decoding the
    stored state (`GAME.load`, i.e. from_json, snapshot of the turn's start included), a seat's view,
    and the spectators' view."""
    decode, seat_view, public = [], [], []
    for seed in range(20):
        st = mid_game(seed)
        data = st.to_json()
        for _ in range(20):
            t0 = time.perf_counter()
            loaded = GAME.load(data)
            t1 = time.perf_counter()
            loaded.view(loaded.cur)
            t2 = time.perf_counter()
            loaded.view(None)
            t3 = time.perf_counter()
            decode.append(t1 - t0)
            seat_view.append(t2 - t1)
            public.append(t3 - t2)
    return statistics.median(decode), statistics.median(seat_view), statistics.median(public)


def strong_playouts(seconds: float = 2.0) -> list[int]:
    """Playouts the strong bot's search makes in `seconds` from a few mid-game positions."""
    from engine.bots import budget_for
    from engine.bots.search import HalvingSearch

    counts = []
    for seed in range(3):
        st = mid_game(seed)
        seat = st.cur
        search = HalvingSearch(
            GAME,
            st.view(seat),
            seat,
            random.Random(seed),
            budget_for("strong", "topoum", seconds=seconds, iterations=None),
        )
        search.run()
        counts.append(search.playouts)
    return counts


def main() -> None:
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    games = int(numbers[0]) if numbers else 200
    configs = [
        ("2 players, Recruits", 2, {}),
        ("3 players, Tacticians", 3, {"deck": "preset", "preset": "tacticians"}),
        ("4 players, random decks", 4, {"deck": "random"}),
        ("2 players, random decks + obstacles", 2, {"deck": "random", "obstacles": True}),
    ]
    for label, players, options in configs:
        durations, steps = [], []
        for seed in range(games):
            t0 = CLOCK()
            steps.append(random_game(players, seed, options))
            durations.append(CLOCK() - t0)
        total = sum(durations)
        print(
            f"{label:40s} {games / total:7.1f} games/s   median game {statistics.median(durations) * 1000:6.1f} ms"
            f"   median {statistics.median(steps):.0f} decisions"
        )
    timings: list[float] = []
    for seed in range(max(10, games // 10)):
        random_game(2, seed, {"deck": "random"}, timings)
    timings.sort()
    print(
        f"legal_actions (2 players, random decks, uncached): median {statistics.median(timings) * 1e6:.0f} us, "
        f"90th percentile {timings[int(len(timings) * 0.9)] * 1e6:.0f} us, max {timings[-1] * 1e6:.0f} us"
    )
    print(f"clone (2 players, mid-game): median {clone_time() * 1e6:.1f} us")
    decode, seat_view, public = read_costs()
    print(
        f"per table read (2 players, mid-game): load (from_json) median {decode * 1e6:.0f} us, "
        f"seat view {seat_view * 1e6:.0f} us, spectator view {public * 1e6:.0f} us"
    )
    if "--no-bots" not in sys.argv:
        print(f"strong bot playouts in 2 s (3 mid-game positions): {strong_playouts()}")


if __name__ == "__main__":
    main()
