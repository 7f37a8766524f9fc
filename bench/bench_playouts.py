"""Playouts per second of the searching bot levels, per game and level, on fixed positions and seeds.

    nice -n 15 .venv/bin/python bench/bench_playouts.py                       # topoum, topology, toppo
    nice -n 15 .venv/bin/python bench/bench_playouts.py --game topoum --level expert --runs 5
    nice -n 15 .venv/bin/python bench/bench_playouts.py --decisions out.json  # also every chosen action
    nice -n 15 .venv/bin/python bench/bench_playouts.py --game topology --profile 30  # cProfile one decision
    nice -n 15 .venv/bin/python bench/bench_playouts.py --games 2 --seed same        # whole games, digests
    nice -n 15 .venv/bin/python bench/bench_playouts.py --game toppo --pace live     # Toppo's live table

Each game gets `--positions` positions a few greedy decisions into 2-player games (seeded, so every run and every
commit gets the same ones, as in bench_bots.py --speed) where the seat to act has to search.  Every level decides
on each of them `--runs` times with its own budget and no time cap (its playout count alone, so a decision is
reproducible: same position, seed and budget, same action), from the seat's view, as the site asks.  The table
gives, per game and level, the playouts of all positions over the sum of each position's median decision time
(playouts/s in CPU seconds of this process, which a machine shared with other jobs disturbs less than the wall
clock; --wall for the wall clock), and the median and slowest decision; what the games remember between
decisions (MEMOS) is forgotten before each one.  The last column is a digest of
the chosen actions: two commits that decide the same print the same digest (--decisions writes them all).
--games N plays whole games instead (strong with 64 playouts against expert with 128, no time cap) and prints a digest
of every action played per game.  Nothing here is asserted; run it alone at `nice -n 15` on a quiet machine.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_bots import greedy_positions  # noqa: E402
from engine.bots import budget_for  # noqa: E402
from engine.bots.search import decide  # noqa: E402
from engine.core import Game, State, canonical, get_game, make_rng  # noqa: E402

GAMES = ("topoum", "topology", "toppo")
LEVELS = ("strong", "expert")


def positions(game: Game, count: int, seed: str, options: dict | None = None) -> list[tuple[State, int]]:
    """`count` positions where strong has to search: a seeded number of greedy decisions into games (with the
    tables' `options`)."""

    def searched(state: State, seat: int, k: int) -> bool:  # a forced or planned choice is no search
        probe = decide(game, state.view(seat), seat, make_rng(f"probe:{seed}:{k}", 0), budget_for("strong", game.name))
        return bool(probe.playouts)

    return greedy_positions(
        game, count, seed, label="playouts", tries=40, plies=(6, 40), keep=searched, options=options
    )


CLOCK = time.process_time
# What a game's engine and hints remember between decisions (tables met in playouts): emptied before every timed
# decision, so that a position decided again is timed as the first time (a site's worker meets new tables too).
MEMOS = {
    "engine.topology.lines": ("_RINGS", "_LINES"),
    "engine.topology.hints": ("_CHOICES",),
    "engine.topology.rules": ("_SCORED",),
    "engine.toppo.cards": ("_top_orders", "_match_choices"),
}


def forget() -> None:
    for module, names in MEMOS.items():
        for name in names:
            memo = getattr(sys.modules.get(module), name, None)
            if memo is not None:
                getattr(memo, "cache_clear", getattr(memo, "clear", None))()


def one(game: Game, state: State, seat: int, level: str, i: int, seed: str):
    """One decision of `level`: (seconds, playouts, canonical action)."""
    budget = budget_for(level, game.name).with_(seconds=None)
    view = state.view(seat)
    forget()
    t0 = CLOCK()
    run = decide(game, view, seat, make_rng(f"playouts-bot:{seed}:{i}", 0), budget)
    took = CLOCK() - t0
    return took, run.playouts, canonical(run.action) if run.action is not None else "null"


def table_options(game: Game, pace: str | None) -> dict:
    """The tables' options: the pace asked for where the game has paces (Toppo), else the game's defaults."""
    return {game.pace_option: pace} if pace and game.pace_option else {}


def whole_games(names: list[str], count: int, seed: str, pace: str | None = None) -> None:
    """`count` whole 2-player games a game, strong (64 playouts) against expert (128), neither with a time cap: the
    actions played, the final scores and a digest of every action (the same on two commits that decide the same)."""
    print(f"{'game':9} {'deal':>4} {'actions':>7} {'scores':>14} {'digest':>12}", flush=True)
    for name in names:
        game = get_game(name)
        budgets = {
            0: budget_for("strong", name, iterations=64).with_(seconds=None),
            1: budget_for("expert", name, iterations=128).with_(seconds=None),
        }
        for i in range(count):
            state = game.new_state(2, game.validate_options(2, table_options(game, pace)), f"{seed}:{i}")
            rngs = {s: make_rng(f"{seed}-bot:{i}:{s}", 0) for s in budgets}
            order = make_rng(f"{seed}-order:{i}", 0)
            digest, played = hashlib.sha256(), 0
            while state.to_act():
                actors = state.to_act()
                for seat in actors if len(actors) == 1 else order.sample(actors, len(actors)):
                    run = decide(game, state.view(seat), seat, rngs[seat], budgets[seat])
                    if run.action is not None:
                        state.apply(seat, run.action)
                        digest.update(canonical(run.action).encode())
                        played += 1
                        break
                else:
                    raise RuntimeError(f"{name} deal {i}: every seat to act waits")
            scores = "/".join(f"{s:g}" for s in state.scores())
            print(f"{name:9} {i:4d} {played:7d} {scores:>14} {digest.hexdigest()[:12]:>12}", flush=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", action="append", help=f"only this game (repeatable; default {', '.join(GAMES)})")
    p.add_argument("--level", action="append", help=f"only this level (repeatable; default {', '.join(LEVELS)})")
    p.add_argument("--positions", type=int, default=4, help="positions per game (default 4)")
    p.add_argument("--runs", type=int, default=3, help="decisions per position and level; the median counts")
    p.add_argument("--seed", default="pps")
    p.add_argument("--decisions", help="write every chosen action to this JSON file")
    p.add_argument("--profile", type=int, metavar="N", help="cProfile the first expert decision of each game, top N")
    p.add_argument("--wall", action="store_true", help="time decisions by the wall clock, not CPU seconds")
    p.add_argument("--games", type=int, metavar="N", help="instead: N whole games a game, strong vs expert, digests")
    p.add_argument("--pace", help="the tables' pace where a game has paces (Toppo: live or correspondence)")
    args = p.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    names = args.game or list(GAMES)
    levels = args.level or list(LEVELS)
    if args.games:
        whole_games(names, args.games, args.seed, args.pace)
        return
    chosen: dict[str, dict[str, list[str]]] = {}
    print(
        f"{'game':9} {'level':7} {'positions':>9} {'playouts':>9} {'playouts/s':>10} "
        f"{'median s':>8} {'max s':>7} {'decisions':>10}",
        flush=True,
    )
    for name in names:
        game = get_game(name)
        found = positions(game, args.positions, args.seed, table_options(game, args.pace))
        if args.profile:
            state, seat = found[0]
            prof = cProfile.Profile()
            prof.enable()
            one(game, state, seat, levels[-1], 0, args.seed)
            prof.disable()
            print(f"--- {name}, {levels[-1]}, position 0")
            pstats.Stats(prof).sort_stats("tottime").print_stats(args.profile)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(args.profile)
            continue
        for level in levels:
            medians, counts, actions = [], [], []
            for i, (state, seat) in enumerate(found):
                runs = [one(game, state, seat, level, i, args.seed) for _ in range(args.runs)]
                if len({r[2] for r in runs}) != 1 or len({r[1] for r in runs}) != 1:
                    print(f"{name} {level} position {i}: the same decision differed between runs", file=sys.stderr)
                medians.append(statistics.median(r[0] for r in runs))
                counts.append(runs[0][1])
                actions.append(runs[0][2])
            chosen.setdefault(name, {})[level] = actions
            digest = hashlib.sha256("\n".join(actions).encode()).hexdigest()[:10]
            print(
                f"{name:9} {level:7} {len(found):9d} {sum(counts):9d} {sum(counts) / sum(medians):10.0f} "
                f"{statistics.median(medians):8.2f} {max(medians):7.2f} {digest:>10}",
                flush=True,
            )
    if args.decisions:
        with open(args.decisions, "w") as out:
            json.dump(chosen, out, indent=1)


if __name__ == "__main__":
    main()
