"""Leaderboard and profile query times with 1,000 and with 100,000 rated players (decision 11, ruling S5).

Seeds rated players straight into a throwaway test database (bulk_create: users and their Rating rows, random
OpenSkill numbers), first 1,000, then up to 100,000 in the same key, and times after each:
  first page   the top 50 of the leaderboard (ratings.selectors.leaderboard)
  deep page    the 50 rows after the middle player and after the one 50 places from the bottom (keyset cursors)
  profile      one player's ratings (ratings.selectors.ratings_of_user), a random player each time
  seats        the ratings beside the names of a four-player table (ratings.selectors.prefetch_seat_ratings)
Each figure is the best (and the median) of many runs, in milliseconds, through the code the pages and the API use.

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_ratings .venv/bin/python bench/bench_ratings.py
    DEBUG=true .venv/bin/python bench/bench_ratings.py                 # SQLite
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

from bench.scratch_database import scratch_database  # noqa: E402

KEY = "topology"
BATCH = 5000


def seed(upto: int, already: int, rng: random.Random) -> None:
    """Rated players number `already` .. `upto` - 1: a user each and her rating in KEY."""
    from django.utils import timezone

    from accounts.models import User
    from ratings.models import Rating
    from ratings.system import shown_value

    now = timezone.now()
    for start in range(already, upto, BATCH):
        stop = min(upto, start + BATCH)
        users = User.objects.bulk_create(
            [User(username=f"bench{i:06d}", email=f"bench{i}@example.com") for i in range(start, stop)]
        )
        rows = []
        for user in users:
            mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
            rows.append(
                Rating(
                    user=user,
                    key=KEY,
                    mu=mu,
                    sigma=sigma,
                    value=shown_value(mu, sigma),
                    games=rng.randint(1, 300),
                    updated_at=now,
                )
            )
        Rating.objects.bulk_create(rows)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE ratings_rating")
            cursor.execute("VACUUM ANALYZE accounts_user")


def timed_ms(work, runs: int) -> tuple[float, float]:
    """The best and the median of `runs` timings: on a busy machine the best is the query's own cost, the
    median adds whatever else the machine was doing meanwhile."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times)


def cursor_at(place: int):
    """The cursor of the row at `place` (1 = top): found once, outside the timing."""
    from ratings.models import Rating
    from ratings.selectors import Cursor

    row = Rating.objects.filter(key=KEY).order_by("-value", "user_id").values_list("value", "user_id")[place - 1]
    return Cursor(row[0], row[1], place)


def measure(players: int, runs: int, rng: random.Random) -> dict[str, float]:
    from accounts.models import User
    from games.models import Game, Seat
    from ratings.selectors import leaderboard, prefetch_seat_ratings, ratings_of_user

    middle, bottom = cursor_at(players // 2), cursor_at(players - 50)
    ids = list(User.objects.filter(username__startswith="bench").values_list("id", flat=True))
    owner = User.objects.get(pk=ids[0])
    game = Game.objects.create(kind=KEY, players=4, created_by=owner, turn_seconds=86400)
    for index, user_id in enumerate(rng.sample(ids, 4)):
        Seat.objects.create(game=game, index=index, user_id=user_id)
    table = Game.objects.prefetch_related("seats").get(pk=game.pk)
    figures = {
        "first page": timed_ms(lambda: leaderboard(KEY), runs),
        "deep page (after the middle)": timed_ms(lambda: leaderboard(KEY, after=middle), runs),
        "deep page (50 from the bottom)": timed_ms(lambda: leaderboard(KEY, after=bottom), runs),
        "page before the middle": timed_ms(lambda: leaderboard(KEY, before=middle), runs),
        "profile (one player's ratings)": timed_ms(lambda: ratings_of_user(User(pk=rng.choice(ids))), runs),
        "seats (a table's four ratings)": timed_ms(lambda: prefetch_seat_ratings([table]), runs),
    }
    assert len(leaderboard(KEY, after=middle).rows) == 50
    game.delete()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with scratch_database("ratings"):
        rng = random.Random(5)
        results = {}
        for players, already in ((args.small, 0), (args.large, args.small)):
            start = time.perf_counter()
            seed(players, already, rng)
            print(f"{connection.vendor}: {players:,} rated players seeded in {time.perf_counter() - start:.1f} s")
            results[players] = measure(players, args.runs, rng)
        small, large = results[args.small], results[args.large]
        width = max(len(name) for name in small)
        print(f"\nms, best and median of {args.runs} runs; ratio of the bests ({args.large:,} / {args.small:,})")
        print(f"{'':<{width}}  {args.small:>15,}  {args.large:>15,}  ratio")
        for name in small:
            (a, a_med), (b, b_med) = small[name], large[name]
            print(f"{name:<{width}}  {a:6.2f} ({a_med:6.2f})  {b:6.2f} ({b_med:6.2f})  {b / a:5.2f}")


if __name__ == "__main__":
    main()
