"""Bot against bot: one table of every pairing, every game and pace, with win rates, 95% Wilson intervals and
decision times, from one command.

    python bench/bench_bots.py --quick               # a few minutes: 6 games a pairing, strong thinks less
    python bench/bench_bots.py --games 100 --jobs 2  # the full run, every level as the site plays it
    python bench/bench_bots.py --game toppo --pace correspondence --pairs strong:greedy --games 100
    python bench/bench_bots.py --game topology --pairs strong:greedy --options '{"advanced": true}'
    python bench/bench_bots.py --speed --seconds 2          # strong playouts per 2 s decision, per game
    python bench/bench_bots.py --speed --seconds 2 --cpu    # the same counted in CPU seconds (a loaded machine)
    python bench/bench_bots.py --quick --json results.json  # also every game's outcome (bench/bench_calibrate.py)
    python bench/bench_bots.py --game topoum --pairs expert:strong --games 100 --log games.jsonl  # a line per game
    python bench/bench_bots.py --game topoum --pairs expert:strong --games 100 --log games.jsonl --resume

The table has a row per game, pace (a game played at several paces, such as Toppo, gets a row for each) and
pairing "a vs b": games, a's wins (a draw counts half), a's win rate and its 95% Wilson interval, and the median
and 95th percentile of each side's decision time in seconds (a strong decision's `seconds` cap all of it,
ranking included).  Pairings default to every pair of levels, the stronger first.  --quick plays 6 games a
pairing and gives strong a budget of 48 playouts and 1 s (a smoke measure: the published figures come from a full
run, see docs/bots.md).  --speed plays no match: it takes positions a few greedy decisions into games and times
one strong decision on each, with `--seconds` (default 2) and no playout count.

Every level thinks as the site lets it (engine.bots.levels: thinking_seconds per level and pace): by
correspondence a bot plays its whole turn in one go within its turn's limit, as games.services.bots does, and the
times are per turn; live, each decision within its limit.  --no-limits: one decision at a time with the level's
budget alone (how strong the search can be, not how strong the site's bot is).

--log appends a JSON line for every game as it ends (its deal, seats, outcome, margin and decision times), so that
a long run that stops early still counts what it played; --resume skips the deals the log already holds for the
same game, pace, pairing, seed, limits and budgets, and the table then counts them all.  bench/bench_calibrate.py --from
reads such a log as well as a --json file.

Seats alternate between games (game i: the first bot sits in seat i % players).  At a live table (Toppo) the seats
are paced as on the site (LiveTable): each decision comes after the level's reaction time, drawn for each decision,
and the time the bot thought; actions are applied in that order (ruling P3), so a level that reacts faster acts
more often, as it does against a person.  With --no-limits, and by correspondence, simultaneous decisions are taken
in a random order, as arrival order would be where both react equally fast (by correspondence that order decides
nothing: rounds resolve in priority order, ruling P4).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots import LEVELS, budget_for, choose, play_turn, reaction_delay, thinking_seconds  # noqa: E402
from engine.bots.base import Budget, utilities  # noqa: E402
from engine.bots.search import decide  # noqa: E402
from engine.core import Game, State, all_games, make_rng  # noqa: E402

MAX_DECISIONS = 100_000
WAITS_IN_A_ROW = 1_000  # a live table whose seats only wait this long is stuck


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
    name, players, options, a, b, index, overrides, seed_base, as_site = args
    game = all_games()[name]
    pace = options.get(game.pace_option or "", "") or "correspondence"
    opts = game.validate_options(players, options)
    state = game.new_state(players, opts, f"{seed_base}:{index}")
    a_seat = index % players
    levels = {s: (a if s == a_seat else b) for s in range(players)}
    budgets = {lvl: budget_for(lvl, name, **overrides.get(lvl, {})) for lvl in {a, b}}
    limits = {lvl: thinking_seconds(lvl, pace) if as_site else None for lvl in {a, b}}
    if pace == "live":  # the site caps each live decision (games.services.bots._think)
        budgets = {lvl: budgets[lvl].with_(seconds=limits[lvl]) if limits[lvl] else budgets[lvl] for lvl in budgets}
    rng = make_rng(f"bench-order:{seed_base}:{index}", 0)
    bot_rngs = {s: make_rng(f"bench-bot:{seed_base}:{index}:{s}", 0) for s in range(players)}
    spent = {a: 0.0, b: 0.0} if a != b else {a: 0.0}
    times: dict[str, list[float]] = {lvl: [] for lvl in spent}
    moves = {lvl: 0 for lvl in spent}
    longest = {lvl: 0.0 for lvl in spent}
    playouts = {lvl: 0 for lvl in spent}
    table = LiveTable(levels, f"bench-live:{seed_base}:{index}") if as_site and pace == "live" else None
    waiting = 0
    for _ in range(MAX_DECISIONS):
        actors = state.to_act()
        if not actors:
            break
        if table is not None:
            order = [table.next_seat(actors)]  # a seat that waits is asked again when its next task comes due
        else:
            # Simultaneous seats (Toppo) act in a random order; a bot that has nothing worth doing
            # now (choose returns None) lets the next one act.
            order = list(actors) if len(actors) == 1 else rng.sample(actors, len(actors))
        for seat in order:
            level = levels[seat]
            t0 = time.perf_counter()
            if as_site and pace == "correspondence":
                # As the site does by correspondence: the whole turn in one go, within the level's turn limit.
                turn = f"{seed_base}:{index}:{moves[level]}"
                applied = play_turn(level, game, state, seat, turn, budget=budgets[level], turn_seconds=limits[level])
                action, done = (applied[-1] if applied else None), 0
            else:
                action, done = decision(level, game, state, seat, bot_rngs[seat], budgets[level])
                if action is not None:
                    state.apply(seat, action)
            took = time.perf_counter() - t0
            spent[level] += took
            times[level].append(took)
            longest[level] = max(longest[level], took)
            playouts[level] += done
            moves[level] += 1
            if table is not None:
                table.decided(seat, took)
                waiting = 0 if action is not None else waiting + 1
                if waiting > WAITS_IN_A_ROW:
                    raise RuntimeError(f"{name} game {index}: every seat to act waits, so the game cannot go on")
                break
            if action is not None:
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
    return {
        "outcome": outcome,
        "a_seat": a_seat,
        "times": times,
        "spent": spent,
        "moves": moves,
        "longest": longest,
        "playouts": playouts,
        "margin": utils[a_seat] - max(s for i, s in enumerate(utils) if i != a_seat),
    }


class LiveTable:
    """Who acts next at a live table as the site paces its bots (games.services.bots): each seat's task comes due
    after its level's reaction time (engine.bots.levels `delay_seconds`, drawn for each decision), it thinks on the
    position as it then is, and its action is applied (ruling P3: arrival order); then its next decision comes due
    after the time it thought and a new reaction time.  The others' tasks stay due when they were, so a level that
    reacts faster acts more often, as it does against a person, and a slower one still acts."""

    def __init__(self, levels: dict[int, str], seed: str):
        self.levels, self.seed = levels, seed
        self.clock = 0.0
        self.due: dict[int, float] = {}
        self.drawn = 0

    def reaction(self, seat: int) -> float:
        """The site's own draw of the level's reaction time (engine.bots.reaction_delay), one seed per decision."""
        self.drawn += 1
        return reaction_delay(self.levels[seat], f"{self.seed}:{self.drawn}")

    def next_seat(self, actors: list[int]) -> int:
        """The seat whose task comes due first among those that may act (one newly able to act reacts from now)."""
        for seat in actors:
            if self.due.get(seat, -1.0) < self.clock:
                self.due[seat] = self.clock + self.reaction(seat)
        seat = min(actors, key=lambda s: (self.due[s], s))
        self.clock = self.due[seat]
        return seat

    def decided(self, seat: int, took: float) -> None:
        self.clock += took
        self.due[seat] = self.clock + self.reaction(seat)


def run_pair(
    name: str,
    players: int,
    options: dict,
    a: str,
    b: str,
    games: int,
    jobs: int,
    overrides: dict,
    seed_base: str,
    as_site: bool = True,
    log: str | None = None,
    resume: bool = False,
) -> dict:
    where = {"game": name, "pace": options.get("pace", ""), "a": a, "b": b, "seed": seed_base, "site": as_site}
    if any(overrides.values()):  # budgets other than the levels' own are another bot: never mixed with them
        where["budgets"] = overrides
    done = logged_games(log, where) if log and resume else {}
    tasks = [(name, players, options, a, b, i, overrides, seed_base, as_site) for i in range(games) if i not in done]
    t0 = time.perf_counter()
    results = [done[i] for i in sorted(done) if i < games]
    with ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else _InProcess() as pool:
        for task, result in zip(tasks, pool.map(play_one, tasks)):
            results.append(result)
            if log:
                with open_log(log, "a") as out:
                    out.write(log_line({**where, "index": task[5], "players": players, **result}))
    run = summary(name, a, b, results)
    run["wall"] = time.perf_counter() - t0
    return run


def summary(name: str, a: str, b: str, results: list[dict]) -> dict:
    """One pairing's row from its games' results (as play_one returns them, or as a --log holds them)."""
    games = len(results)
    wins = sum(r["outcome"] for r in results)
    lo, hi = wilson(wins, games)
    per_move, longest, playouts = {}, {}, {}
    for lvl in {a, b}:
        spent = sum(r["spent"].get(lvl, 0.0) for r in results)
        moves = sum(r["moves"].get(lvl, 0) for r in results)
        per_move[lvl] = (spent / moves if moves else 0.0, moves)
        longest[lvl] = max(r["longest"].get(lvl, 0.0) for r in results)
        playouts[lvl] = sum(r["playouts"].get(lvl, 0) for r in results) / moves if moves else 0.0
    margin = sum(r["margin"] for r in results) / games
    times = {lvl: sorted(t for r in results for t in r["times"].get(lvl, [])) for lvl in {a, b}}
    return {
        "pace": results[0].get("pace", "") if results else "",
        "outcomes": [r["outcome"] for r in results],
        "median_s": {lvl: statistics.median(t) if t else 0.0 for lvl, t in times.items()},
        "p95_s": {lvl: percentile(t, 0.95) for lvl, t in times.items()},
        "game": name,
        "a": a,
        "b": b,
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "lo": lo,
        "hi": hi,
        "per_move": per_move,
        "longest": longest,
        "playouts": playouts,
        "margin": margin,
    }


def open_log(path: str, mode: str = "r"):
    """A --log file as text, gzip-compressed when its name ends in .gz (appending adds a gzip member)."""
    return gzip.open(path, mode + "t") if path.endswith(".gz") else open(path, mode)


def log_line(entry: dict) -> str:
    """One game as a --log line: compact, decision times to the millisecond."""
    entry = {**entry, "times": {lvl: [round(t, 3) for t in ts] for lvl, ts in entry["times"].items()}}
    return json.dumps(entry, separators=(",", ":")) + "\n"


def log_entries(log: str):
    """Every game a --log file holds, in the order they were logged."""
    with open_log(log) as f:
        for line in f:
            yield json.loads(line)


def log_key(entry: dict) -> tuple:
    """What makes games one run: game, pace, pairing, seed, limits and budgets (a logged game, or a run's `where`)."""
    budgets = json.dumps(entry.get("budgets", {}), sort_keys=True)
    return entry["game"], entry["pace"], entry["a"], entry["b"], entry["seed"], entry["site"], budgets


def runs_from_log(log: str, pool_seeds: bool = False) -> list[dict]:
    """A --log file's games as one run per log_key (a deal played twice counts once).  `pool_seeds`: runs that
    differ only in their seed are one run (a calibration counts a pairing once, however many runs played it)."""
    groups: dict[tuple, dict[tuple, dict]] = {}
    for entry in log_entries(log):
        name, pace, a, b, seed, site, budgets = log_key(entry)
        key = (name, pace, a, b, None if pool_seeds else seed, site, budgets)
        groups.setdefault(key, {})[entry["seed"], entry["index"]] = entry
    runs = []
    for (name, pace, a, b, _, site, budgets), games in groups.items():
        run = summary(name, a, b, [games[k] for k in sorted(games)])
        seeds = sorted({seed for seed, _ in games})
        run.update({"pace": pace, "seed": "+".join(seeds), "site": site, "budgets": json.loads(budgets)})
        runs.append(run)
    return runs


class _InProcess:
    """One game after another in this process, with a pool's map (results as each game ends)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def map(fn, tasks):
        return (fn(t) for t in tasks)


def logged_games(log: str, where: dict) -> dict[int, dict]:
    """The games a --log file already holds for the run `where` describes (the same log_key), by deal index."""
    if not os.path.exists(log):
        return {}
    key = log_key(where)
    return {entry["index"]: entry for entry in log_entries(log) if log_key(entry) == key}


def percentile(ordered: list[float], q: float) -> float:
    """The q-quantile of sorted values (nearest rank); 0 for none."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def all_pairs(level_names: list[str]) -> list[tuple[str, str]]:
    """Every pair of levels, the stronger first (levels are listed weakest first)."""
    return [(level_names[j], level_names[i]) for j in range(len(level_names)) for i in range(j)][::-1]


def game_paces(game: Game, wanted: str | None) -> list[dict]:
    """The options of each pace the game is played at (one empty dict for a game of one pace)."""
    if not game.pace_option or len(game.paces) < 2:
        return [{}]
    return [{game.pace_option: pace} for pace in game.paces if wanted in (None, pace)]


HEADING = (
    f"{'game':10} {'pace':14} {'pairing':18} {'games':>5} {'wins':>6} {'rate':>6} {'95% Wilson':>15} "
    f"{'median s a':>10} {'p95 s a':>8} {'median s b':>10} {'p95 s b':>8}"
)


def row(r: dict) -> str:
    a, b = r["a"], r["b"]
    return (
        f"{r['game']:10} {r['pace'] or '-':14} {a + ' vs ' + b:18} {r['games']:5d} {r['wins']:6.1f} "
        f"{r['rate']:6.3f} [{r['lo']:.3f}, {r['hi']:.3f}] {r['median_s'][a]:10.3f} {r['p95_s'][a]:8.3f} "
        f"{r['median_s'][b]:10.3f} {r['p95_s'][b]:8.3f}"
    )


QUICK_GAMES = 6
QUICK_STRONG = {"iterations": 48, "seconds": 1.0}


def run_all(
    names: list[str],
    pairs,
    games: int,
    jobs: int,
    overrides: dict,
    seed: str,
    options: dict,
    pace,
    players=2,
    as_site: bool = True,
    log: str | None = None,
    resume: bool = False,
) -> list[dict]:
    """Every pairing on every game and pace; each row printed as soon as it is measured."""
    print(HEADING, flush=True)
    runs = []
    for name in names:
        game = all_games()[name]
        for pace_options in game_paces(game, pace):
            for a, b in pairs:
                run = run_pair(
                    name, players, {**options, **pace_options}, a, b, games, jobs, overrides, seed, as_site, log, resume
                )
                run["pace"] = next(iter(pace_options.values()), "")
                runs.append(run)
                print(row(run), flush=True)
    return runs


def decision(level: str, game: Game, state: State, seat: int, rng, budget: Budget) -> tuple[dict | None, int]:
    """One decision of `level` for `seat` from its view, and the playouts it took (0 but for searching levels)."""
    if LEVELS[level]["budget"].get("search"):
        run = decide(game, state.view(seat), seat, rng, budget)
        return run.action, run.playouts
    return choose(level, game, state.view(seat), seat, rng, budget=budget), 0


def greedy_positions(
    game: Game,
    count: int,
    seed: str,
    *,
    label: str = "speed",
    tries: int = 20,
    plies=(4, 30),
    keep=None,
    options: dict | None = None,
) -> list[tuple[State, int]]:
    """`count` positions a seeded random number of greedy decisions (`plies`, from-to) into 2-player games, with the
    seat to act; `keep(state, seat, k)`: whether the k-th game's position is one wanted (all are, without it);
    `options`: the tables' (e.g. Toppo's live pace; the game's defaults without them)."""
    found = []
    for k in range(tries * count):
        if len(found) == count:
            break
        rng = make_rng(f"{label}:{seed}:{k}", 1)
        state = game.new_state(2, game.validate_options(2, options or {}), f"{label}:{seed}:{k}")
        for _ in range(rng.randrange(*plies)):
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            action = choose("greedy", game, state.view(seat), seat, rng)
            if action is not None:
                state.apply(seat, action)
        if state.is_over():
            continue
        seat = state.to_act()[0]
        if keep is None or keep(state, seat, k):
            found.append((state, seat))
    return found


def speed_positions(game: Game, count: int, seed: str) -> list[tuple[State, int]]:
    """`count` positions where a strong bot has to search: a random number of greedy decisions into games."""
    return greedy_positions(game, count, seed)


def speed(names: list[str], seconds: float, positions: int, cpu: bool, overrides: dict, seed: str) -> None:
    """Playouts one strong decision of `seconds` takes, and how long it really takes, per game."""
    print(
        f"{'game':10} {'clock':5} {'cap s':>5} {'positions':>9} {'playouts (median, min-max)':>27} "
        f"{'decision s (median, max)':>25}"
    )
    for name in names:
        game = all_games()[name]
        budget = budget_for("strong", name, **{**overrides, "seconds": seconds}).with_(iterations=None)
        if cpu:
            budget = budget.with_(clock=time.process_time)
        counts, times = [], []
        for i, (state, seat) in enumerate(speed_positions(game, positions * 3, seed)):
            if len(counts) == positions:
                break
            t0 = time.perf_counter()
            run = decide(game, state.view(seat), seat, make_rng(f"speed-bot:{seed}:{i}", 0), budget)
            if run.playouts:  # a forced or single choice is no search
                counts.append(run.playouts)
                times.append(time.perf_counter() - t0)
        if not counts:
            print(f"{name:10} no position needed a search")
            continue
        print(
            f"{name:10} {'cpu' if cpu else 'wall':5} {seconds:5.1f} {len(counts):9d} "
            f"{statistics.median(counts):12.0f} ({min(counts)}-{max(counts)}) "
            f"{statistics.median(times):16.2f} {max(times):8.2f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, help=f"games per pairing, game and pace (default 40; --quick {QUICK_GAMES})")
    p.add_argument("--quick", action="store_true", help="a few minutes: few games, strong with a small budget")
    p.add_argument("--pairs", help="a:b pairings, comma separated (default: every pair of levels)")
    p.add_argument("--game", action="append", help="only this game (repeatable); default every registered one")
    p.add_argument("--pace", help="only this pace, for games played at several")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--options", default="{}", help="table options as JSON, e.g. '{\"advanced\": true}'")
    p.add_argument("--iterations", type=int, help="strong bot: playouts per decision")
    p.add_argument("--seconds", type=float, help="strong bot: time cap per decision")
    p.add_argument("--candidates", type=int, help="greedy and strong: actions examined per decision")
    p.add_argument("--budget", default="{}", help='extra Budget fields per level as JSON: {"strong": {"horizon": 3}}')
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--seed", default="bench")
    p.add_argument("--json", help="also write every run, with each game's outcome, to this file")
    p.add_argument(
        "--no-limits",
        action="store_true",
        help="one decision at a time with the budget alone, not the site's thinking limits per level and pace",
    )
    p.add_argument("--log", help="append a JSON line for every game as it ends to this file")
    p.add_argument("--resume", action="store_true", help="with --log: skip the deals the log already holds")
    p.add_argument("--speed", action="store_true", help="time strong decisions instead of playing matches")
    p.add_argument("--positions", type=int, default=5, help="--speed: positions per game (default 5)")
    p.add_argument("--cpu", action="store_true", help="--speed: count the cap in CPU seconds of this process")
    args = p.parse_args(argv)

    overrides: dict[str, dict] = {k: dict(v) for k, v in json.loads(args.budget).items()}
    strong = overrides.setdefault("strong", {})
    if args.quick:
        strong.update(QUICK_STRONG)
    if args.iterations is not None:
        strong["iterations"] = args.iterations
    if args.seconds is not None:
        strong["seconds"] = args.seconds
    if args.candidates is not None:
        for lvl in ("greedy", "strong"):
            overrides.setdefault(lvl, {})["max_candidates"] = args.candidates
    names = args.game or sorted(all_games())
    if args.speed:
        speed(names, args.seconds or 2.0, args.positions, args.cpu, strong, args.seed)
        return
    pairs = [tuple(x.split(":")) for x in args.pairs.split(",") if x] if args.pairs else all_pairs(list(LEVELS))
    games = args.games or (QUICK_GAMES if args.quick else 40)
    runs = run_all(
        names,
        pairs,
        games,
        args.jobs,
        overrides,
        args.seed,
        json.loads(args.options),
        args.pace,
        args.players,
        as_site=not args.no_limits,
        log=args.log,
        resume=args.resume,
    )
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"games": games, "quick": args.quick, "budgets": overrides, "runs": runs}, out, indent=1)


if __name__ == "__main__":
    main()
