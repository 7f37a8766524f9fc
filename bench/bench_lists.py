"""How long the lists of games take with 1,000 and with 100,000 stored games (decision 16, point 4).

Fills a throwaway test database on PostgreSQL (bulk_create) with finished (and a few aborted) two-player tables
among 2,000 players, 360 tables in play or waiting, and one player, "me", who always sits at the same tables (300
finished, some of them left, 20 aborted, 8 running, 2 open) whatever the size: stored games grow, what is in play
does not, and her pages should cost the same at 100,000 games as at 1,000.  Then times each page in-process
(Django's test client, so no HTTP nor gunicorn: the site's own work), the
median of --samples requests after one to warm up, with its SQL query count (CaptureQueriesContext):

  profile (own)      /accounts/players/me/ as she sees it (statistics, her games in progress, finished games)
  profile (other)    the same page seen by another player (only the tables he may see)
  player API         GET /api/players/me/ (statistics, ratings, the first page of her finished games)
  player games API   GET /api/players/me/games/
  home (my games)    / logged in: the open tables and her games, those waiting for her first
  my tables API      GET /api/tables/mine/
  my finished API    GET /api/tables/mine/?finished=1
  finished API       GET /api/tables/?status=finished (every public finished table, newest first)

With --queries, lists each page's queries at the largest size; with --explain, runs EXPLAIN ANALYZE on each of
them and prints the plan of each page's slowest (by PostgreSQL's own execution time, which the load of the machine
disturbs less than the round trips the table above measures).

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_bench .venv/bin/python bench/bench_lists.py
    DEBUG=true DATABASE_URL=... .venv/bin/python bench/bench_lists.py --sizes 1000 20000 --explain
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
for scope in ("ANON", "USER", "MOVES"):  # the throttles run but never refuse the bench
    os.environ.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")

import django  # noqa: E402

django.setup()
logging.getLogger("topos.request").setLevel(logging.WARNING)  # a line per request: the table says it

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.finished_games import add_people, add_two_player_tables, settle  # noqa: E402
from bench.scratch_database import scratch_database  # noqa: E402

PLAYERS = 2000
MINE = {"finished": 300, "aborted": 20, "running": 8, "open": 2}
LIVE = {"running": 300, "open": 60}
PAGES = {
    "profile (own)": ("me", "/accounts/players/me/"),
    "profile (other)": ("other", "/accounts/players/me/"),
    "player API": ("me", "/api/players/me/"),
    "player games API": ("me", "/api/players/me/games/"),
    "home (my games)": ("me", "/"),
    "my tables API": ("me", "/api/tables/mine/"),
    "my finished API": ("me", "/api/tables/mine/?finished=1"),
    "finished API": ("me", "/api/tables/?status=finished"),
}


def plan_of(count: int, people: list[int], rng: random.Random, me: int | None = None) -> list[tuple[str, int, int]]:
    """`count` finished (19 in 20) or aborted two-player tables among `people`; with `me`, also her tables (MINE)
    and LIVE tables of others in play or waiting, which stay as many whatever the size."""
    from games.models import Game

    plan = [
        (Game.Status.FINISHED if rng.random() < 0.95 else Game.Status.ABORTED, rng.choice(people), rng.choice(people))
        for _ in range(count)
    ]
    if me is not None:
        plan += [(status, me, rng.choice(people)) for status, n in MINE.items() for _ in range(n)]
        plan += [(status, rng.choice(people), rng.choice(people)) for status, n in LIVE.items() for _ in range(n)]
    return [(status, a, b) for status, a, b in plan if a != b]


def measure(clients: dict[str, Client], samples: int) -> dict[str, tuple[float, int, list[dict], float]]:
    """Per page: the median milliseconds, the query count and the captured queries (of the last request), and the
    median of the milliseconds its queries took (as Django's cursor saw them)."""
    out = {}
    for label, (who, path) in PAGES.items():
        client = clients[who]
        assert client.get(path).status_code == 200, (label, path)  # warm up
        figures, sql = [], []
        for _ in range(samples):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(path)
                figures.append((time.perf_counter() - started) * 1000)
            sql.append(sum(float(q["time"]) for q in queries.captured_queries) * 1000)
            assert response.status_code == 200, (label, response.status_code)
        out[label] = (
            statistics.median(figures),
            len(queries.captured_queries),
            queries.captured_queries,
            statistics.median(sql),
        )
    return out


def explain(label: str, queries: list[dict]) -> None:
    """EXPLAIN ANALYZE of each of the page's queries; the plan of the one PostgreSQL took longest to run."""
    plans = []
    with connection.cursor() as cursor:
        for query in queries:
            if query["sql"].startswith("SELECT"):
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query["sql"])
                (plan,) = cursor.fetchone()
                plan = plan if isinstance(plan, list) else json.loads(plan)
                plans.append((plan[0]["Execution Time"], query["sql"]))
        took, sql = max(plans)
        print(
            f"\n{label}: its slowest query runs in {took:.2f} ms in PostgreSQL; all {len(plans)} in "
            f"{sum(p[0] for p in plans):.2f} ms"
        )
        cursor.execute("EXPLAIN ANALYZE " + sql)
        for (line,) in cursor.fetchall():
            print("    " + line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000], help="Stored games, growing.")
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE each page's slowest query.")
    parser.add_argument("--queries", action="store_true", help="Each page's queries (their ms and start).")
    args = parser.parse_args()
    with scratch_database("lists", "the indexes and plans are PostgreSQL's."):
        from accounts.models import User

        rng = random.Random(16)
        people = add_people(0, PLAYERS)
        me = User.objects.create(username="me", email="me@example.com", password="!")
        other = User.objects.create(username="other", email="other@example.com", password="!")
        clients = {"me": Client(), "other": Client()}
        clients["me"].force_login(me)
        clients["other"].force_login(other)
        results, stored = {}, 0
        for size in sorted(args.sizes):
            started = time.perf_counter()
            add_two_player_tables(plan_of(size - stored, people, rng, me.pk if stored == 0 else None), rng)
            settle()
            stored = size
            print(f"{size:,} games stored (filled in {time.perf_counter() - started:.0f} s)", flush=True)
            results[size] = measure(clients, args.samples)
        sizes = sorted(results)
        print(
            f"\nmedian ms of {args.samples} requests (queries of one; ms of them in SQL), 'me' at the same "
            f"{sum(MINE.values())} tables at every size"
        )
        print(f"{'page':<20}" + "".join(f"{f'{s:,} games':>28}" for s in sizes) + f"{'ratio':>8}")
        for label in PAGES:
            cells = "".join(
                f"{results[s][label][0]:>9.1f} ms {f'({results[s][label][1]} q, sql {results[s][label][3]:.0f})':>16}"
                for s in sizes
            )
            print(f"{label:<20}{cells}{results[sizes[-1]][label][0] / results[sizes[0]][label][0]:>8.2f}")
        if args.queries:
            for label in PAGES:
                print(f"\n{label}:")
                for query in results[sizes[-1]][label][2]:
                    print(f"  {float(query['time']) * 1000:5.1f} ms  {query['sql'][:150]}")
        if args.explain:
            for label in PAGES:
                explain(label, results[sizes[-1]][label][2])


if __name__ == "__main__":
    main()
