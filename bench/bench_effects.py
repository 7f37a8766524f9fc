"""What the worker spends on one move's after-effects (`games.tasks.game_effects`), in-process (decision 16).

Plays turns through the move service at two- and four-seat tables of Topology (turns of several decisions, so
most decisions change nobody's turn), Topoum and Toppo by correspondence, on a throwaway PostgreSQL database, and
runs the effects task by hand after every decision that sent one, as the worker would (a decision still private to its
player sends none: ruling S3).  For each kind of decision (one inside a turn, one that passes the turn) prints how
many were made and how many tasks they sent, the median CPU time of the task (time.process_time, which the load
of a shared machine disturbs less than the clock), its median wall time, its SQL statements
(CaptureQueriesContext) and how long its transaction held the game (wall time from the game's lock to the cursor's
update: the embedded site's one writer waits that long, docs/embedded.md); then, per table, the worker's CPU per
decision: all its tasks' CPU over the decisions.  The players keep the default email choices (at once); the emails
themselves are their own task, not run here (sending it is counted).  Its cache is its own and starts empty (turn
labels are computed, not found from an earlier run).

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_bench .venv/bin/python bench/bench_effects.py
    DEBUG=true DATABASE_URL=... .venv/bin/python bench/bench_effects.py --turns 40 --queries  # and its statements
    DEBUG=true DATABASE_URL=... .venv/bin/python bench/bench_effects.py --games toppo --profile toppo  # cProfile it
    DEBUG=true .venv/bin/python bench/bench_effects.py --sqlite  # the embedded default's SQLite file
"""

from __future__ import annotations

import argparse
import atexit
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("TOPOS_BROKER_DIR", tempfile.mkdtemp(prefix="topos-bench-effects-"))  # sends go nowhere
# A cache of its own, empty: the scratch database numbers its games from 1 again, so turn labels cached by an
# earlier run (keyed by table, version and seat) would be found without being computed.
if "TOPOS_CACHE_DIR" not in os.environ:
    os.environ["TOPOS_CACHE_DIR"] = tempfile.mkdtemp(prefix="topos-bench-effects-cache-")
    atexit.register(shutil.rmtree, os.environ["TOPOS_CACHE_DIR"], ignore_errors=True)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.scratch_database import scratch_database  # noqa: E402

SCENARIOS = (("topology", 2), ("topology", 4), ("topoum", 2), ("topoum", 4), ("toppo", 2), ("toppo", 4))


def _pick(kind: str, state, seat: int) -> dict:
    """A plain decision: never an undo; in Toppo a claim that ends the hand or takes the display when it can."""
    actions = [a for a in state.legal_actions(seat) if a["type"] != "undo" and not a["type"].endswith("_replace")]
    for wanted in ("toppo", "top", "match"):
        for action in actions:
            if action["type"] == wanted:
                return action
    return actions[0]


def _table(kind: str, people: list):
    from games import services
    from games.models import Game

    options = {"hands": 20} if kind == "toppo" else {}
    game = services.game_create(user=people[0], kind=kind, players=len(people), options=options)
    for user in people[1:]:
        services.game_join(user=user, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    if game.status == Game.Status.OPEN:
        game = services.game_start(user=people[0], game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def _run(game_id: int, samples: dict, key: str, show: bool, profile: cProfile.Profile | None = None) -> None:
    from games import tasks

    spans: list[tuple[str, float, float]] = []

    def timed(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spans.append((sql, start, time.perf_counter()))

    with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(timed):
        cpu, wall = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        tasks.game_effects.run(game_id)
        if profile is not None:
            profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    # The transaction's time (the embedded site's writer waits that long): from the game's lock (SQLite: the BEGIN
    # that takes the writer's place) to the end of the cursor's update, its last write (the COMMIT and what follows
    # it left out).
    locks = [start for sql, start, _end in spans if "FOR NO KEY UPDATE" in sql or sql.startswith("BEGIN")]
    moves = [end for sql, _start, end in spans if 'UPDATE "games_gameeffects"' in sql]
    held = (moves[-1] - locks[0]) * 1000 if locks and moves else 0.0
    samples.setdefault(key, []).append((cpu * 1000, wall * 1000, len(queries.captured_queries), held))
    if show and len(samples[key]) == 3:  # the third of its kind: past the first turn's emails
        print(f"  -- {key}: {len(queries.captured_queries)} statements")
        for query in queries.captured_queries:
            print("     ", query["sql"][:160])


def _dispatches_sent() -> int:
    """The effects dispatches sent so far, read from the broker's own message files (no worker takes them here)."""
    from django.conf import settings

    queue = settings.TOPOS_BROKER_DIR / "queue"
    return sum('"games.tasks.game_effects"' in path.read_text() for path in queue.glob("*.msg"))


def scenario(
    kind: str, seats: int, turns: int, users: list, show: bool, profile: cProfile.Profile | None = None
) -> tuple[dict, dict]:
    """The task's samples by kind of decision, and how many decisions of each kind were made."""
    from engine.core import get_game
    from games import services
    from games.models import Game

    samples: dict[str, list] = {}
    decisions: dict[str, int] = {"start": 1}
    game = _table(kind, users[:seats])
    _run(game.pk, samples, "start", show)
    by_seat = {s.index: s.user for s in game.seats.all()}
    engine = get_game(kind)
    played = 0
    while played < turns and game.status == Game.Status.RUNNING:
        state = engine.load(game.state)
        seat = state.to_act()[0]
        before, sent = (list(game.to_act), state.turn_marker()), _dispatches_sent()
        services.action_submit(
            game_id=game.pk, user=by_seat[seat], action=_pick(kind, state, seat), expected_version=game.version
        )
        game = Game.objects.get(pk=game.pk)
        passed = (list(game.to_act), engine.load(game.state).turn_marker()) != before
        played += passed
        key = "turn passes" if passed else "inside a turn"
        decisions[key] = decisions.get(key, 0) + 1
        if _dispatches_sent() > sent:  # run as the worker would, only if the move sent it (decision 16: ruling S3)
            _run(game.pk, samples, key, show, profile)
    return samples, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30, help="turns played at each table")
    parser.add_argument("--queries", action="store_true", help="list the statements of one task of each kind")
    parser.add_argument("--games", nargs="*", default=None, help="only these games (topology, topoum, toppo)")
    parser.add_argument("--sqlite", action="store_true", help="allow the embedded default's SQLite database")
    parser.add_argument("--profile", help="cProfile this game's tasks (its two-seat table; the start left out)")
    parser.add_argument("--profile-file", help="with --profile: keep the stats here too (for pstats)")
    args = parser.parse_args()
    profile = cProfile.Profile(time.process_time) if args.profile else None
    # PostgreSQL's statements and locks are the production site's; --sqlite measures the embedded default's file
    # (DATABASE_URL unset: Django's test database beside the project's, its writers queued, config/sqlite).
    why = None if args.sqlite else "the task's statements and locks are PostgreSQL's (or say --sqlite)."
    with scratch_database("effects", why):
        from accounts.services import user_create

        users = [
            user_create(username=f"p{i}", email=f"p{i}@bench.invalid", password="a-long-bench-password")
            for i in range(4)
        ]
        print(f"{args.turns} turns at each table; per game_effects task: median CPU ms, wall ms, SQL statements")
        print(
            f"{'table':<14} {'decision':<15} {'made':>6} {'tasks':>6} {'CPU ms':>8} {'wall ms':>8} {'SQL':>5} "
            f"{'in tx ms':>8}"
        )
        per_decision = []
        for kind, seats in SCENARIOS:
            if args.games and kind not in args.games:
                continue
            mine = profile if (kind, seats) == (args.profile, 2) else None
            samples, decisions = scenario(kind, seats, args.turns, users, args.queries, mine)
            # The worker's CPU per decision made (the start left out): what every decision costs it on average,
            # the decisions that sent no task included (decision 16's measure of work proportional to news).
            played = sum(made for key, made in decisions.items() if key != "start")
            spent = sum(r[0] for key, rows in samples.items() if key != "start" for r in rows)
            per_decision.append((f"{kind} {seats}", played, spent / played if played else 0.0))
            for key, made in decisions.items():
                rows, table = samples.get(key, []), f"{kind} {seats}"
                if not rows:
                    print(f"{table:<14} {key:<15} {made:>6} {0:>6} {'-':>8} {'-':>8} {'-':>5} {'-':>8}")
                    continue
                cpu = statistics.median(r[0] for r in rows)
                wall = statistics.median(r[1] for r in rows)
                sql = statistics.median(r[2] for r in rows)
                held = statistics.median(r[3] for r in rows)
                print(
                    f"{table:<14} {key:<15} {made:>6} {len(rows):>6} {cpu:>8.2f} {wall:>8.2f} {sql:>5.0f} {held:>8.2f}"
                )
        print(f"worker CPU per decision (all its tasks' CPU / decisions made; load {os.getloadavg()[0]:.2f})")
        for table, played, cpu in per_decision:
            print(f"{table:<14} {played:>6} decisions {cpu:>8.2f} CPU ms each")
    if profile is not None:
        if args.profile_file:
            profile.dump_stats(args.profile_file)
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
