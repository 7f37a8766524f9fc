"""Correspondence Toppo's ceiling: strong against an oracle that sees the whole true state (decision 30, point 2).

    python bench/bench_toppo_ceiling.py --matches 100                      # the oracle as set below, 100 matches
    python bench/bench_toppo_ceiling.py --matches 100 --log ceiling.jsonl  # a line per match; --resume goes on
    python bench/bench_toppo_ceiling.py --matches 20 --rollouts 4 --depth 1  # a cheaper oracle
    python bench/bench_toppo_ceiling.py --matches 40 --sees no-claim         # strong's sealed claim guessed
    python bench/bench_toppo_ceiling.py --matches 40 --sees view             # no cheating: the same search, fair
    python bench/bench_toppo_ceiling.py --matches 40 --start known           # strong plays it until decks are known

Point 2 asks for an expert that beats strong in at least 65 % of correspondence matches.  This measures what no fair
bot can exceed: an oracle that CHEATS (here only, never in engine/ or games/) plays strong.  It is given the true state,
not its view: every deck card, the stack's order, the covered display cards, the seed of every later shuffle, and
strong's sealed claim of the round (strong always claims first here, which decides nothing else: rounds resolve in
their priority order, ruling P4).  At each claim it tries every claim of a different effect (engine.toppo.planner.
claims; the display size too, when it chooses) on that true state and follows the hand to its end with both seats
playing the playout policy (planner.Plan.follow: strong's next claims guessed by the policy, the rest of the hand
exactly what the deal holds), its own next `--depth - 1` choices tried in full; `--rollouts` tie draws of the
policy, the same for every claim (common numbers); it takes the best summed lead, a won match counting planner.WIN
more, as strong's own plan counts it.  Votes: it agrees at once and proposes as the bots do (hints.forced_action).
To tell where its edge comes from: `--sees no-claim` guesses strong's sealed claim with the policy (as strong's plan
guesses its rival's), `--sees view` gives it its own view only (a sample of it for every rollout, game.determinize:
a fair bot), and `--start known` lets strong play the oracle's seat until every deck card has been seen.

Matches are played as bench/bench_bots.py plays them by correspondence: the same table options (two players, three
hands), the same deals (`--seed` and the match index), the oracle in seat `index % 2` (seats alternate), strong by
`engine.bots.play_turn` within the site's limit for its turns (engine.bots.levels.thinking_seconds) with the same
turn seeds.  It prints a line per match, then: matches, the oracle's wins (a draw counts half) with the 95 % Wilson
interval, hands won (likewise), the mean lead in cards per hand (strong's penalty points minus the oracle's), the
oracle's share as the first and the second seat, and the CPU seconds each side spent per match.  If the oracle's
lower bound does not clear 55 %, no fair bot (one that sees only its own view, ruling S2) can reach point 2 here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_bots import open_log, wilson  # noqa: E402
from engine.bots import budget_for, play_turn, thinking_seconds  # noqa: E402
from engine.bots.hints import hints_for  # noqa: E402
from engine.core import get_game, make_rng  # noqa: E402
from engine.toppo import planner  # noqa: E402
from engine.toppo.rules import CORRESPONDENCE  # noqa: E402

GAME = get_game("toppo")
HINTS = hints_for(GAME)
OPTIONS = {"pace": CORRESPONDENCE}  # bench_bots' correspondence row: two players, the default three hands
RIVAL = "strong"
ROLLOUTS = 8  # tie draws of the policy each claim is followed on
DEPTH = 4  # the oracle's own choices tried in full, this one included
# What the oracle is given: "all" the true state; "no-claim" the same with strong's sealed claim guessed by the
# policy; "view" only its own view, sampled (game.determinize, the claim guessed): the same search, played fair.
SEES = ("all", "no-claim", "view")


class Oracle(planner.Plan):
    """Strong's plan turned into a cheat: followed on the true state itself, never on a sample of the seat's view."""

    def __init__(
        self, state, seat: int, rng: random.Random, rollouts: int = ROLLOUTS, depth: int = DEPTH, sees: str = "all"
    ):
        super().__init__(HINTS, state, seat, rng, None, depth=depth, samples=rollouts)
        self.sees = sees

    def choose(self, actions: list) -> dict | None:
        state, seat = self.state, self.seat
        forced = HINTS.forced_action(state, seat, actions, self.rng)
        if forced is not None:
            return forced
        options = planner.claims(HINTS, state, seat, actions)
        if len(options) < 2:
            return options[0] if options else None
        return self.weigh([(a,) for a in options], self.depth)[0]

    def sample(self, k: int):
        """The true state each time (the rival's real sealed claim in it, the real stack and seed): only the policy's
        tie draws differ from one rollout to the next.  Less with `sees` (SEES)."""
        if self.sees == "view":
            s = GAME.determinize(self.state.view(self.seat), self.seat, self.base)
        else:
            s = self.state.clone()
        if self.sees != "all":
            planner.guess_claims(HINTS, s, self.seat)
        return s, self.base.getrandbits(64)


def oracle_action(state, seat: int, seed: str, rollouts=ROLLOUTS, depth=DEPTH, sees="all") -> dict | None:
    """The oracle's decision for `seat` on the true `state`."""
    return Oracle(state, seat, make_rng(seed, 0), rollouts, depth, sees).choose(state.legal_actions(seat))


def play_match(index: int, seed: str, limits: bool = True, start: str = "deal", **oracle) -> dict:
    """One match of the oracle (seat index % 2) against strong, on bench_bots' deal for `index`.  `start`: "deal",
    the oracle plays from the deal on; "known", strong plays the oracle's seat too until every deck card has been
    seen (planner.known), so only what the oracle gains after the first pass counts.  `oracle`: oracle_action's
    settings."""
    state = GAME.new_state(2, GAME.validate_options(2, OPTIONS), f"{seed}:{index}")
    oracle_seat = index % 2
    rival_seat = 1 - oracle_seat
    budget = budget_for(RIVAL, GAME.name)
    limit = thinking_seconds(RIVAL, CORRESPONDENCE) if limits else None
    spent = {"oracle": 0.0, RIVAL: 0.0}
    moves = {"oracle": 0, RIVAL: 0}
    for _ in range(100_000):
        actors = state.to_act()
        if not actors:
            break
        applied = []
        if rival_seat in actors:  # strong claims first: its sealed claim is in the state the oracle is given
            t0 = time.process_time()
            turn = f"{seed}:{index}:{moves[RIVAL]}"
            applied = play_turn(RIVAL, GAME, state, rival_seat, turn, budget=budget, turn_seconds=limit)
            spent[RIVAL] += time.process_time() - t0
            moves[RIVAL] += 1
        if not applied and oracle_seat in actors:
            t0 = time.process_time()
            turn = f"oracle:{seed}:{index}:{moves['oracle']}"
            if start == "known" and not (state.phase == "play" and planner.known(state)):
                played = play_turn(RIVAL, GAME, state, oracle_seat, turn, budget=budget, turn_seconds=limit)
            else:
                action = oracle_action(state, oracle_seat, turn, **oracle)
                if action is not None:
                    state.apply(oracle_seat, action)
                played = [action] if action is not None else []
            spent["oracle"] += time.process_time() - t0
            moves["oracle"] += 1
            if not played:
                raise RuntimeError(f"match {index}: the oracle has nothing to do")
        elif not applied:
            raise RuntimeError(f"match {index}: every seat to act waits")
    else:
        raise RuntimeError(f"match {index} did not end")
    totals = state.totals
    won = 1.0 if totals[oracle_seat] < totals[rival_seat] else 0.5 if totals[oracle_seat] == totals[rival_seat] else 0.0
    return {
        "index": index,
        "oracle_seat": oracle_seat,
        "outcome": won,
        "leads": [p[rival_seat] - p[oracle_seat] for p in state.hand_points],
        "spent": spent,
        "moves": moves,
    }


def report(results: list[dict]) -> list[str]:
    """The summary lines of a run's matches."""
    n = len(results)
    wins = sum(r["outcome"] for r in results)
    lo, hi = wilson(wins, n)
    leads = [d for r in results for d in r["leads"]]
    hands = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in leads)
    hlo, hhi = wilson(hands, len(leads))
    lines = [
        f"matches {n}, oracle wins {wins:g} ({wins / n:.3f}), 95% Wilson [{lo:.3f}, {hi:.3f}]",
        f"hands {len(leads)}, oracle won {hands:g} ({hands / len(leads):.3f}, [{hlo:.3f}, {hhi:.3f}]), "
        f"mean lead {statistics.mean(leads):+.2f} cards a hand (sd {statistics.pstdev(leads):.1f})",
    ]
    for seat in (0, 1):
        mine = [r["outcome"] for r in results if r["oracle_seat"] == seat]
        if mine:
            lines.append(f"oracle in seat {seat}: {sum(mine):g} of {len(mine)}")
    for side in ("oracle", RIVAL):
        cpu = [r["spent"][side] for r in results]
        per = sum(cpu) / max(1, sum(r["moves"][side] for r in results))
        lines.append(f"{side}: CPU s a match median {statistics.median(cpu):.1f}, max {max(cpu):.1f}; {per:.3f} a turn")
    return lines


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seed", default="ceiling", help="the deals (bench_bots' --seed: the same index, the same deal)")
    p.add_argument("--rollouts", type=int, default=ROLLOUTS, help=f"policy tie draws per claim (default {ROLLOUTS})")
    p.add_argument("--depth", type=int, default=DEPTH, help=f"own choices tried in full (default {DEPTH})")
    p.add_argument("--sees", choices=SEES, default="all", help="what the oracle is given (default all: it cheats)")
    p.add_argument(
        "--start",
        choices=("deal", "known"),
        default="deal",
        help="known: strong plays the oracle's seat until every deck card has been seen (default deal)",
    )
    p.add_argument("--no-limits", action="store_true", help="strong without the site's turn limit (its budget alone)")
    p.add_argument("--log", help="append a JSON line for every match as it ends")
    p.add_argument("--resume", action="store_true", help="with --log: count the matches it holds for these settings")
    args = p.parse_args(argv)
    where = {
        "seed": args.seed,
        "rollouts": args.rollouts,
        "depth": args.depth,
        "site": not args.no_limits,
        "sees": args.sees,
        "start": args.start,
    }
    defaults = {"sees": "all", "start": "deal"}  # settings logged before these options existed
    done: dict[int, dict] = {}
    if args.log and args.resume and os.path.exists(args.log):
        with open_log(args.log) as f:
            for line in f:
                entry = json.loads(line)
                if all(entry.get(k, defaults.get(k)) == v for k, v in where.items()):
                    done[entry["index"]] = entry
    results = [done[i] for i in sorted(done) if i < args.matches]
    for i in range(args.matches):
        if i in done:
            continue
        t0 = time.perf_counter()
        oracle = {"rollouts": args.rollouts, "depth": args.depth, "sees": args.sees}
        r = play_match(i, args.seed, not args.no_limits, args.start, **oracle)
        r["wall"] = round(time.perf_counter() - t0, 1)
        results.append(r)
        if args.log:
            with open_log(args.log, "a") as out:
                out.write(json.dumps({**where, **r}, separators=(",", ":")) + "\n")
        result = {1.0: "won", 0.5: "drew", 0.0: "lost"}[r["outcome"]]
        cpu = f"CPU s oracle {r['spent']['oracle']:.1f} strong {r['spent'][RIVAL]:.1f}"
        print(
            f"match {i}: oracle seat {r['oracle_seat']}, {result}, leads {r['leads']}, {cpu}, wall {r['wall']}",
            flush=True,
        )
    for line in report(results):
        print(line)


if __name__ == "__main__":
    main()
