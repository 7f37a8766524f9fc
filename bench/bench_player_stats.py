"""How long a player's page takes to read (games.selectors.player_stats): her statistics, her finished games, their
count.

Fills a throwaway test database on PostgreSQL with players who each sat at a few finished two-player
tables (random games, some private, some aborted, some left), plus one prolific player at thousands of
tables; measures with 1,000 players, then grows the same database to 100,000 and measures again.
  stats  her summary rows (PlayerGameStats, one per game, built here from the seats as the migration does);
  list   the first page of her finished games (20) that another player may see, with every seat;
  count  how many of them there are (the page's pagination).
Prints the median and the slowest of many random players and the prolific player's figures, with the server's
JIT setting and without JIT (a prolific player's queries pass jit_above_cost, and compiling costs more than
running them), then the plan of her statistics query.

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_bench .venv/bin/python bench/bench_player_stats.py
    DEBUG=true DATABASE_URL=... .venv/bin/python bench/bench_player_stats.py --sizes 1000 20000 --games-each 4
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from bench.finished_games import add_people, add_two_player_tables, settle  # noqa: E402
from bench.scratch_database import scratch_database  # noqa: E402


def add_players(start: int, stop: int, games_each: int, rng: random.Random, prolific=None, prolific_games=0):
    """Players start..stop-1, then tables of two among them (and the prolific player), finished (9 in 10) or
    aborted."""
    from games.models import Game

    ids = add_people(start, stop)
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range((stop - start) * games_each // 2)]
    if prolific is not None:
        pairs += [(prolific.pk, rng.choice(ids)) for _ in range(prolific_games)]
    plan = [(Game.Status.ABORTED if rng.random() < 0.1 else Game.Status.FINISHED, a, b) for a, b in pairs if a != b]
    add_two_player_tables(plan, rng)
    settle()  # her statistics are her summaries (decision 16), kept as games end


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def measure(label: str, people: list, viewer, samples: int) -> None:
    from games.selectors import player_stats

    def page(person):
        return [
            player_stats.game_result(g, person)
            for g in player_stats.games_of(player_stats.recent_games(person, viewer)[:20])
        ]

    for name, fn in (
        ("stats", player_stats.game_stats),
        ("list ", page),
        ("count", lambda p: player_stats.recent_games(p, viewer).count()),
    ):
        figures = [timed(lambda: fn(p)) for p in people[:samples]]
        print(f"  {label} {name}: median {statistics.median(figures):6.2f} ms, slowest {max(figures):6.2f} ms")


def report(size: int, prolific, viewer, rng: random.Random, samples: int) -> None:
    from accounts.models import User
    from games.models import Seat

    players = list(User.objects.filter(username__startswith="p").order_by("?")[:samples])
    seats = Seat.objects.count()
    print(
        f"{size:,} players, {seats:,} seats; {samples} random players, then 'prolific' "
        f"({Seat.objects.filter(user=prolific).count():,} tables), seen by another player"
    )
    from games.selectors import player_stats

    for person in players[:5]:  # warm the caches and the connection
        player_stats.game_stats(person)
    # PostgreSQL compiles a query whose estimated cost passes jit_above_cost (a prolific player's do): shown with
    # the server's setting, then without JIT.
    for jit in ("default", "off"):
        with connection.cursor() as cursor:
            cursor.execute("RESET jit" if jit == "default" else "SET jit = off")
        print(f"  jit {jit}:")
        measure("random  ", players, viewer, samples)
        measure("prolific", [prolific] * samples, viewer, samples)
    with connection.cursor() as cursor:
        cursor.execute("RESET jit")


def plan(prolific) -> None:
    from django.test.utils import CaptureQueriesContext

    from games.selectors import player_stats

    with CaptureQueriesContext(connection) as queries:
        player_stats.game_stats(prolific)
    (query,) = queries.captured_queries
    print("  plan of the prolific player's statistics:")
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + query["sql"])
        for (line,) in cursor.fetchall():
            print("    " + line)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--games-each", type=int, default=6, help="Tables per player (two seats each).")
    parser.add_argument("--prolific", type=int, default=3000, help="Tables of the prolific player.")
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--keep", action="store_true", help="Keep the filled database (to try plans by hand).")
    args = parser.parse_args()
    with scratch_database("player_stats", "the index and the plan are PostgreSQL's.", keep=args.keep):
        from accounts.models import User

        rng = random.Random(5)
        prolific = User.objects.create(username="prolific", email="prolific@example.com", password="!")
        viewer = User.objects.create(username="viewer", email="viewer@example.com", password="!")
        done = 0
        for size in sorted(args.sizes):
            started = time.perf_counter()
            add_players(done, size, args.games_each, rng, prolific if done == 0 else None, args.prolific)
            print(f"(filled in {time.perf_counter() - started:.0f} s)")
            done = size
            report(size, prolific, viewer, rng, args.samples)
        plan(prolific)


if __name__ == "__main__":
    main()
