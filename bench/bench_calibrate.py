"""A rating for every bot level, per game and pace, on the site's own scale: plays the levels against each other
(bench/bench_bots.py), fits OpenSkill ratings to the outcomes with greedy as the anchor, and writes them to
ratings/bot_ratings.json, which the site reads (the new-table form, bot seats, the rules pages, the catalogue API).

    python bench/bench_calibrate.py --games 100 --jobs 2          # every pairing of every game and pace (hours)
    python bench/bench_calibrate.py --quick --out /tmp/bots.json  # a few minutes, a rough one elsewhere
    python bench/bench_calibrate.py --from results.json           # fit games already played (bench_bots --json)
    python bench/bench_calibrate.py --from ratings/calibration/games.jsonl.gz \
        --from ratings/calibration/topoum-expert-strong.jsonl.gz  # the published one (docs/bots.md), from its logs

The fit: OpenSkill's Plackett-Luce model (ratings/system.py, the model people are rated with), every level from
the prior, the games of one rating taken in a random order; repeated over shuffles and averaged, so that the order
of the games does not decide.  Then every level is moved by the same amount so that greedy's mu is the prior's
(25, where a newcomer starts): greedy is the anchor, the others are placed by how they fared against it and each
other.  The number shown is the site's (ratings.system.shown_value: mu - 3 sigma, scaled so a newcomer shows 1500),
read at the anchor's sigma for every level of the rating: a level measured in fewer games (expert, which meets
only strong) would otherwise show weaker than a level it beats, for its wider sigma alone.  Each level's own sigma
is kept beside it.
Bot ratings never mix with people's: tables with bots stay unrated (ruling S5); this is a yardstick only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.bench_bots import main as bench_bots_main  # noqa: E402
from bench.bench_bots import open_log, runs_from_log  # noqa: E402
from engine.bots import LEVELS  # noqa: E402
from ratings import system  # noqa: E402

OUT = os.path.join(ROOT, "ratings", "bot_ratings.json")
ANCHOR = "greedy"
SHUFFLES = 50


def rating_key(game: str, pace: str) -> str:
    """As ratings.keys.rating_key names it (a game rated per pace gets "-<pace>"), without Django."""
    return f"{game}-{pace}" if pace else game


def fit(games: list[tuple[str, str, float]], levels: list[str], seed: str) -> dict[str, dict]:
    """(a, b, a's outcome) per game -> level -> mu, sigma, shown rating (greedy anchored at the prior's mu, every
    level read at greedy's sigma)."""
    rng = random.Random(seed)
    mus: dict[str, list[float]] = {lvl: [] for lvl in levels}
    sigmas: dict[str, list[float]] = {lvl: [] for lvl in levels}
    for _ in range(SHUFFLES):
        order = games[:]
        rng.shuffle(order)
        now = {lvl: (system.MU, system.SIGMA) for lvl in levels}
        for a, b, outcome in order:
            ranks = [1, 1] if outcome == 0.5 else ([1, 2] if outcome == 1.0 else [2, 1])
            now[a], now[b] = system.rate([now[a], now[b]], ranks)
        for lvl in levels:
            mus[lvl].append(now[lvl][0])
            sigmas[lvl].append(now[lvl][1])
    mu = {lvl: statistics.fmean(v) for lvl, v in mus.items()}
    shift = system.MU - mu[ANCHOR] if ANCHOR in mu else 0.0
    sigma = {lvl: statistics.fmean(v) for lvl, v in sigmas.items()}
    shown_sigma = sigma[ANCHOR] if ANCHOR in sigma else min(sigma.values())
    fitted = {}
    for lvl in levels:
        m = mu[lvl] + shift
        fitted[lvl] = {"mu": round(m, 3), "sigma": round(sigma[lvl], 3), "rating": system.shown_value(m, shown_sigma)}
    return fitted


def calibrate(runs: list[dict], seed: str) -> dict:
    """The data file's content from bench_bots runs (each with its games' outcomes)."""
    by_key: dict[str, list[tuple[str, str, float]]] = {}
    pairings = []
    for run in runs:
        key = rating_key(run["game"], run.get("pace", ""))
        by_key.setdefault(key, []).extend((run["a"], run["b"], outcome) for outcome in run["outcomes"])
        pairings.append(
            {
                "key": key,
                "a": run["a"],
                "b": run["b"],
                "games": run["games"],
                "wins": run["wins"],
                "low": round(run["lo"], 3),
                "high": round(run["hi"], 3),
                "median_seconds": {lvl: round(t, 4) for lvl, t in run["median_s"].items()},
                "p95_seconds": {lvl: round(t, 4) for lvl, t in run["p95_s"].items()},
            }
        )
    ratings = {}
    for key, games in sorted(by_key.items()):
        levels = [lvl for lvl in LEVELS if any(lvl in (a, b) for a, b, _ in games)]
        counts = {lvl: sum(lvl in (a, b) for a, b, _ in games) for lvl in levels}
        ratings[key] = {lvl: {**values, "games": counts[lvl]} for lvl, values in fit(games, levels, seed).items()}
    return {"anchor": ANCHOR, "ratings": ratings, "pairings": pairings}


def played_in(source: str) -> dict:
    """The runs of a bench_bots --json file, or of a --log file (a JSON line a game)."""
    with open_log(source) as f:
        text = f.read()
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and "runs" in whole:
        return whole
    return {"runs": runs_from_log(source, pool_seeds=True)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--from", dest="source", action="append", help="fit the runs of bench_bots --json files instead (repeatable)"
    )
    p.add_argument("--out", default=OUT, help=f"where to write the ratings (default {os.path.relpath(OUT, ROOT)})")
    p.add_argument("--seed", default="calibrate")
    args, bench_args = p.parse_known_args(argv)
    if args.source:
        played = {"runs": [], "games": 0, "quick": False}
        for source in args.source:
            part = played_in(source)
            played["runs"] += part["runs"]
            played["quick"] = played["quick"] or part.get("quick", False)
    else:
        raw = os.path.join(tempfile.mkdtemp(prefix="calibrate-"), "games.json")  # every outcome, for --from
        bench_bots_main([*bench_args, "--json", raw])
        print(f"the games' outcomes: {raw}")
        with open(raw) as f:
            played = json.load(f)
    data = calibrate(played["runs"], args.seed)
    data.update(
        {
            "measured": datetime.date.today().isoformat(),
            "games_per_pairing": sorted({run["games"] for run in played["runs"]}),
            "quick": played.get("quick", False),
            "how": "python bench/bench_calibrate.py " + " ".join(bench_args or ["--from " + s for s in args.source]),
        }
    )
    with open(args.out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"\n{'rating':24} {'pairing':18} {'games':>5} {'wins':>6} {'95% Wilson':>15}")
    for pairing in data["pairings"]:
        print(
            f"{pairing['key']:24} {pairing['a'] + ' vs ' + pairing['b']:18} {pairing['games']:5d} "
            f"{pairing['wins']:6.1f} [{pairing['low']:.3f}, {pairing['high']:.3f}]"
        )
    print(f"\n{'rating':24} " + " ".join(f"{lvl:>8}" for lvl in LEVELS))
    for key, levels in data["ratings"].items():
        print(f"{key:24} " + " ".join(f"{levels.get(lvl, {}).get('rating', '-'):>8}" for lvl in LEVELS))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
