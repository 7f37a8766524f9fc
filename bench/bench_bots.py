"""Bot against bot: win rates with 95% Wilson intervals, and time per move, for every registered game.

    python bench/bench_bots.py                       # greedy vs random and strong vs greedy, 2 players
    python bench/bench_bots.py --games 100 --jobs 8 --iterations 400 --seconds 5
    python bench/bench_bots.py --game topology --pairs strong:greedy --options '{"advanced": true}'

Seats alternate between games (game i: the first bot sits in seat i % 2).  A draw counts half
a win.  Simultaneous decisions (Toppo) are taken in a random order, as arrival order would be
at a table where both bots react equally fast (the live reaction delay is not simulated); at
correspondence pace that order decides nothing, as rounds resolve in priority order (ruling P4).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots import budget_for, choose  # noqa: E402
from engine.bots.base import utilities  # noqa: E402
from engine.core import all_games, make_rng  # noqa: E402

MAX_DECISIONS = 100_000


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (draws counted as half wins)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(args: tuple) -> dict:
    """One game between levels a and b; a sits in seat `index % 2`. Returns a's result and timings."""
    name, players, options, a, b, index, overrides, seed_base = args
    game = all_games()[name]
    opts = game.validate_options(players, options)
    state = game.new_state(players, opts, f"{seed_base}:{index}")
    a_seat = index % players
    levels = {s: (a if s == a_seat else b) for s in range(players)}
    budgets = {lvl: budget_for(lvl, name, **overrides.get(lvl, {})) for lvl in {a, b}}
    rng = make_rng(f"bench-order:{seed_base}:{index}", 0)
    bot_rngs = {s: make_rng(f"bench-bot:{seed_base}:{index}:{s}", 0) for s in range(players)}
    spent = {a: 0.0, b: 0.0} if a != b else {a: 0.0}
    moves = {lvl: 0 for lvl in spent}
    for _ in range(MAX_DECISIONS):
        actors = state.to_act()
        if not actors:
            break
        # Simultaneous seats (Toppo) act in a random order; a bot that has nothing worth doing
        # now (choose returns None) lets the next one act.
        order = list(actors) if len(actors) == 1 else rng.sample(actors, len(actors))
        for seat in order:
            level = levels[seat]
            t0 = time.perf_counter()
            action = choose(level, game, state.view(seat), seat, bot_rngs[seat], budget=budgets[level])
            spent[level] += time.perf_counter() - t0
            moves[level] += 1
            if action is not None:
                state.apply(seat, action)
                break
        else:
            raise RuntimeError(f"{name} game {index}: every seat to act waits, so the game cannot go on")
    else:
        raise RuntimeError(f"{name} game {index} did not end")
    ranks = {r.seat: r.rank for r in state.results()}
    mine = ranks[a_seat]
    best_other = min(r for s, r in ranks.items() if s != a_seat)
    outcome = 1.0 if mine < best_other else (0.5 if mine == best_other else 0.0)
    utils = utilities(game, state)  # scores turned so that more is better (Toppo counts penalties)
    return {"outcome": outcome, "spent": spent, "moves": moves,
            "margin": utils[a_seat] - max(s for i, s in enumerate(utils) if i != a_seat)}


def run_pair(name: str, players: int, options: dict, a: str, b: str, games: int, jobs: int,
             overrides: dict, seed_base: str) -> dict:
    tasks = [(name, players, options, a, b, i, overrides, seed_base) for i in range(games)]
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(play_one, tasks))
    else:
        results = [play_one(t) for t in tasks]
    wall = time.perf_counter() - t0
    wins = sum(r["outcome"] for r in results)
    lo, hi = wilson(wins, games)
    per_move = {}
    for lvl in {a, b}:
        spent = sum(r["spent"].get(lvl, 0.0) for r in results)
        moves = sum(r["moves"].get(lvl, 0) for r in results)
        per_move[lvl] = (spent / moves if moves else 0.0, moves)
    margin = sum(r["margin"] for r in results) / games
    return {"game": name, "a": a, "b": b, "games": games, "wins": wins, "rate": wins / games,
            "lo": lo, "hi": hi, "per_move": per_move, "wall": wall, "margin": margin}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=40, help="games per pairing and game (default 40)")
    p.add_argument("--pairs", default="greedy:random,strong:greedy", help="a:b pairings, comma separated")
    p.add_argument("--game", action="append", help="only this game (repeatable); default every registered one")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--options", default="{}", help="table options as JSON, e.g. '{\"pace\": \"live\"}'")
    p.add_argument("--iterations", type=int, help="strong bot: playouts per decision")
    p.add_argument("--seconds", type=float, help="strong bot: time cap per decision")
    p.add_argument("--candidates", type=int, help="greedy and strong: actions examined per decision")
    p.add_argument("--budget", default="{}", help='extra Budget fields per level as JSON: {"strong": {"horizon": 3}}')
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--seed", default="bench")
    args = p.parse_args(argv)

    overrides: dict[str, dict] = {k: dict(v) for k, v in json.loads(args.budget).items()}
    strong = overrides.setdefault("strong", {})
    if args.iterations is not None:
        strong["iterations"] = args.iterations
    if args.seconds is not None:
        strong["seconds"] = args.seconds
    if args.candidates is not None:
        for lvl in ("greedy", "strong"):
            overrides.setdefault(lvl, {})["max_candidates"] = args.candidates
    options = json.loads(args.options)
    names = args.game or sorted(all_games())
    pairs = [tuple(x.split(":")) for x in args.pairs.split(",") if x]
    print(f"{'game':10} {'pairing':16} {'games':>5} {'win rate':>8} {'95% CI':>15} {'margin':>7} "
          f"{'s/move (a)':>11} {'s/move (b)':>11} {'wall s':>7}")
    for name in names:
        for a, b in pairs:
            r = run_pair(name, args.players, options, a, b, args.games, args.jobs, overrides, args.seed)
            ta, tb = r["per_move"][a][0], r["per_move"][b][0]
            print(f"{name:10} {a + ' vs ' + b:16} {r['games']:5d} {r['rate']:8.3f} "
                  f"[{r['lo']:.3f}, {r['hi']:.3f}] {r['margin']:7.1f} {ta:11.4f} {tb:11.4f} {r['wall']:7.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
