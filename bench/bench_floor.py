"""A move against its floor, every game side by side in one run (decision 28).

In one process, under the production settings (config.production, DEBUG off) on PostgreSQL (a database of its own:
BENCH_FLOOR_DATABASE_URL, dropped and created again) and Redis (BENCH_FLOOR_REDIS_URL, emptied), the bench plays
two-player tables of every game through Django's full request stack (the test client: middleware,
authentication, throttles, the view, the answer rendered to bytes), as a program does: each round, for the
player to act, a bare authenticated GET (/api/catalogue/), the GET of her legal actions and the POST of one (a random
legal one), the games taking turns round by round so that each sees the same machine.  Each request's CPU time is
this process's (time.process_time: the web's work, not PostgreSQL's, which is printed apart from the database's own
backend); the engine's share of a move is timed on the same state: load it, list the seat's legal actions, apply
the action, store it and render the seat's view.  The first rounds of each game (the warm-up) are discarded.

    floor = two bare GETs + the engine's apply and view;      ÷ floor = (legal GET + move POST) ÷ floor

Goal (decision 28): 1.5 or less for every game.  Medians of each figure, with the load average at the start and end;
the SQL queries of each request (counted with a connection wrapper, the bench's own reads outside it), the median
and the most, and at a turn change (the move that passes the turn to the other player).  An htmx move (the page's
POST) is measured beside the API one, on its own tables.

    .venv/bin/python bench/bench_floor.py                      # 300 rounds a game after 40 of warm-up
    .venv/bin/python bench/bench_floor.py --rounds 600 --profile toppo   # and cProfile of Toppo's move POST
    .venv/bin/python bench/bench_floor.py --profile topology --profile-legal   # ... of Topology's legal GET
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import site_processes  # noqa: E402
from tests.deploy.served import REAL_KEY  # noqa: E402

PG_URL = os.environ.get("BENCH_FLOOR_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topos_bench_floor")
REDIS_URL = os.environ.get("BENCH_FLOOR_REDIS_URL", "redis://127.0.0.1:6379/10")
GAMES = ("topology", "topoum", "toppo")
HTTPS = {"secure": True, "HTTP_HOST": "127.0.0.1"}


def _setup() -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.production",
        DEBUG="false",
        SECRET_KEY=REAL_KEY,
        SITE_URL="https://bench.invalid",
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=PG_URL,
        REDIS_URL=REDIS_URL,
        LOG_LEVEL="WARNING",
        DATABASE_CONN_MAX_AGE="600",
        STATIC_ROOT=str(Path(tempfile.gettempdir()) / "topos-bench-floor-static"),
    )
    for scope in ("ANON", "USER", "MOVES"):  # the throttles run (their cost is in the figures) but never refuse
        os.environ.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")
    site_processes.fresh_database(PG_URL)
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)  # the page's manifest, as `serve.sh prepare` makes it


class Counter:
    """SQL statements sent while `on` (a connection wrapper: cheap, unlike CaptureQueriesContext's debug cursor)."""

    def __init__(self):
        self.on, self.count = False, 0

    def __call__(self, execute, sql, params, many, context):
        if self.on:
            self.count += 1
        return execute(sql, params, many, context)


class Player:
    def __init__(self, user, key: str, htmx: bool):
        from django.test import Client

        self.user = user
        if htmx:
            self.client = Client(**{k: v for k, v in HTTPS.items() if k != "secure"})
            self.client.force_login(user)
        else:
            self.client = Client(HTTP_AUTHORIZATION=f"Token {key}", HTTP_HOST="127.0.0.1")
        self.mark = ""  # what her page's log holds (X-Topos-Log), for the htmx move


class Bench:
    def __init__(self, game: str, htmx: bool, rng: random.Random):
        self.game, self.htmx, self.rng = game, htmx, rng
        self.rows: list[dict] = []
        self.players = [self._player(f"{game[:5]}{'h' if htmx else 'a'}{n}") for n in range(2)]
        self.table = self._table()

    def _player(self, name: str) -> Player:
        from accounts.services import api_token_create, user_create
        from notifications.models import NotificationEvent
        from notifications.services import notification_preferences_set

        user = user_create(username=name, email=name + "@bench.invalid", password="a-long-bench-password")
        notification_preferences_set(user=user, choices={event: "none" for event in NotificationEvent.values})
        return Player(user, api_token_create(user=user, name="bench")[1], self.htmx)

    def _table(self) -> int:
        from games.services import game_create, game_join, game_start
        from notifications.events import game_effects_dispatch

        a, b = self.players[0].user, self.players[1].user
        game = game_create(user=a, kind=self.game, players=2)
        game_join(user=b, game_id=game.pk)
        game_start(user=a, game_id=game.pk)
        game_effects_dispatch(game_id=game.pk)
        if self.htmx:
            for player in self.players:
                page = player.client.get(f"/tables/{game.pk}/", **HTTPS)
                player.mark = re.search(r'"X-Topos-Log": "(\d+:\d+)"', page.content.decode()).group(1)
        return game.pk

    def round(self, counter: Counter, profile: cProfile.Profile | None, task_profile=None, legal_profile=None) -> None:
        from engine.core import get_game
        from games.models import Game
        from games.services.effects_mark import _key, _redis, mark_taken
        from games.tasks import game_effects

        game = Game.objects.filter(pk=self.table).values("state", "to_act", "status", "version").first()
        if game["status"] != Game.Status.RUNNING:
            self.table = self._table()
            return
        seat = game["to_act"][0]
        player = next(p for p in self.players if p.user.seats.filter(game_id=self.table, index=seat).exists())
        client = player.client
        row = {}

        def timed(name, call):
            counter.count, counter.on = 0, True
            started = time.process_time()
            answer = call()
            row[name] = time.process_time() - started
            counter.on = False
            row[name + " queries"] = counter.count
            return answer

        timed("bare", lambda: client.get("/api/catalogue/", **HTTPS))
        if legal_profile is not None:
            legal_profile.enable()
        legal = timed("legal", lambda: client.get(f"/api/tables/{self.table}/legal-actions/", **HTTPS)).json()
        if legal_profile is not None:
            legal_profile.disable()
        actions = [a for a in legal["actions"] if a.get("type") != "undo"]
        action = self.rng.choice(actions)
        # Each move sends its dispatch task, as when a worker takes them (none runs here): the mark that one is
        # waiting is taken away (games.services.effects_mark).
        mark_taken(self.table)
        if profile:
            profile.enable()
        if self.htmx:
            answer = timed(
                "post",
                lambda: client.post(
                    f"/tables/{self.table}/act/",
                    {"action": json.dumps(action), "version": legal["version"]},
                    HTTP_HX_REQUEST="true",
                    HTTP_X_TOPOS_LOG=player.mark,
                    **HTTPS,
                ),
            )
        else:
            answer = timed(
                "post",
                lambda: client.post(
                    f"/api/tables/{self.table}/actions/",
                    {"action": action, "expected_version": legal["version"]},
                    content_type="application/json",
                    **HTTPS,
                ),
            )
        if profile:
            profile.disable()
        assert answer.status_code == 200, answer.content[:500]
        if self.htmx:  # the page now holds the new line(s) too
            found = re.search(r'"X-Topos-Log": "(\d+:\d+)"', answer.content.decode())
            player.mark = found.group(1) if found else player.mark
        # The worker's after-move task, when the move sent one (with Redis a sent task leaves its mark), here.
        row["task"] = None
        if _redis().exists(_key(self.table)):
            started = time.process_time()
            if task_profile is not None:
                task_profile.enable()
            game_effects.run(self.table)
            if task_profile is not None:
                task_profile.disable()
            row["task"] = time.process_time() - started
        # The engine's own work for the same move, on the same state.
        engine = get_game(self.game)
        started = time.process_time()
        state = engine.load(game["state"])
        state.legal_actions(seat)
        state.apply(seat, action)
        state.to_json()
        state.view(seat)
        row["engine"] = time.process_time() - started
        after = Game.objects.filter(pk=self.table).values("to_act", "status").first()
        row["over"] = after["status"] != Game.Status.RUNNING  # the move that ends the game: ranks, ratings (S5)
        row["turn change"] = seat not in after["to_act"] and not row["over"]
        self.rows.append(row)


def median_ms(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300, help="measured rounds (moves) of each game")
    parser.add_argument("--warm-up", type=int, default=40, help="rounds of each game played first and discarded")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--no-htmx", action="store_true", help="only the API move")
    parser.add_argument("--profile", choices=GAMES, help="cProfile the API move POSTs of this game")
    parser.add_argument("--profile-task", action="store_true", help="with --profile: its after-move tasks instead")
    parser.add_argument("--profile-legal", action="store_true", help="with --profile: its legal GETs instead")
    args = parser.parse_args()
    _setup()
    from django.db import connection

    games = args.games.split(",")
    rng = random.Random(28)
    benches = {(g, False): Bench(g, False, rng) for g in games}
    if not args.no_htmx:
        benches.update({(g, True): Bench(g, True, rng) for g in games})
    counter = Counter()
    profile = cProfile.Profile(time.process_time) if args.profile else None
    backend = connection.cursor().connection.info.backend_pid

    def backend_cpu() -> float:
        fields = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    with connection.execute_wrapper(counter):
        for _ in range(args.warm_up):
            for bench in benches.values():
                bench.round(counter, None)
        for bench in benches.values():
            bench.rows.clear()
        load_before = os.getloadavg()
        db_before = backend_cpu()
        while min(len(b.rows) for b in benches.values()) < args.rounds:
            for (game, htmx), bench in benches.items():
                if len(bench.rows) < args.rounds:
                    mine = game == args.profile and not htmx
                    bench.round(
                        counter,
                        profile if mine and not (args.profile_task or args.profile_legal) else None,
                        profile if mine and args.profile_task else None,
                        profile if mine and args.profile_legal else None,
                    )
        db_used = backend_cpu() - db_before
        load_after = os.getloadavg()

    print(
        f"\n{args.rounds} moves a game after {args.warm_up} of warm-up, CPU ms of this process per request "
        f"(medians), config.production on PostgreSQL; load average {load_before[0]:.2f} at the start, "
        f"{load_after[0]:.2f} at the end"
    )
    head = ["", "bare GET", "legal GET", "move POST", "engine", "floor", "legal + POST", "÷ floor", "worker task"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for (game, htmx), bench in benches.items():
        rows = bench.rows
        bare, legal, post, engine = (median_ms(rows, k) for k in ("bare", "legal", "post", "engine"))
        floor = 2 * bare + engine
        paired = statistics.median((r["legal"] + r["post"]) for r in rows) * 1000
        label = game.title() + (" (htmx move)" if htmx else "")
        tasks = [r["task"] for r in rows if r["task"] is not None]
        # The worker's CPU per decision: the tasks' CPU spread over every decision (a decision may send none).
        task = f"{sum(tasks) * 1000 / len(rows):.2f} ({len(tasks)}/{len(rows)} sent)"
        print(
            f"| {label} | {bare:.2f} | {legal:.2f} | {post:.2f} | {engine:.2f} | {floor:.2f} | {paired:.2f} | "
            f"{paired / floor:.2f}× | {task} |"
        )
    print("\nSQL queries per request: median / most (at a turn change: median / most; the move that ends a game)")
    for (game, htmx), bench in benches.items():
        rows = bench.rows
        turns = [r for r in rows if r["turn change"]] or [{"post queries": 0}]
        parts = []
        for name in ("bare", "legal", "post"):
            counts = [r[name + " queries"] for r in rows if not r["over"] or name != "post"]
            parts.append(f"{name} {statistics.median(counts):.0f}/{max(counts)}")
        turn = [r["post queries"] for r in turns]
        ends = [r["post queries"] for r in rows if r["over"]]
        label = game + (" htmx" if htmx else " API")
        print(
            f"  {label:<16} " + ", ".join(parts) + f"; post at a turn change {statistics.median(turn):.0f}/{max(turn)}"
            f" ({len(turns)} of {len(rows)}); ending a game {ends or 'none'}"
        )
    moves = sum(len(b.rows) for b in benches.values())
    print(f"\nthis connection's PostgreSQL backend: {db_used * 1000 / moves:.2f} ms CPU a round (3 requests)")
    if profile:
        stats = pstats.Stats(profile)
        if os.environ.get("BENCH_FLOOR_PROFILE_FILE"):
            stats.dump_stats(os.environ["BENCH_FLOOR_PROFILE_FILE"])
        site = r"/(games|accounts|config|engine|ratings|notifications|feed|outbound|boards)/"
        stats.sort_stats("cumulative").print_stats(site, 70)
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
