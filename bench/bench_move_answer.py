"""How long a player waits for the answer to her move: against a person, and against strong bots.

Starts the site and a real Celery worker for each setup, as a player meets them:
  embedded  SQLite and the filesystem broker (the README's run command);
  postgres  PostgreSQL and Redis (DATABASE_URL / REDIS_URL).
Then plays Topoum turns through the API and times every POST /api/tables/{id}/actions/, from
sending to the answer.  Bots answer in the worker afterwards; the player polls for her turn
(untimed), as the page does.  The two figures should be of the same order: no move waits
for a bot.

    .venv/bin/python bench/bench_move_answer.py                    # both setups, 12 turns each
    .venv/bin/python bench/bench_move_answer.py --setup embedded --turns 20

`--answers` measures instead, in one process on PostgreSQL (BENCH_DATABASE_URL, migrated on the way), one move's
answer through the API and through the page (htmx) at tables 50 and 1,000 actions long: queries, bytes and the
median time of a few moves each, wall and this process's CPU (PostgreSQL's own work is in the wall time only;
decision 16: none should grow with the game).

    DEBUG=true .venv/bin/python bench/bench_move_answer.py --answers --moves 15
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import site_processes  # noqa: E402
from tests.deploy.served import free_port  # noqa: E402
from tests.integration.workers import celery_worker_command  # noqa: E402

PYTHON = sys.executable
PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topos_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")

MAKE_PLAYERS = """
from accounts.services import api_token_create, user_create
from accounts.models import User
keys = []
for name in ("bench-ana", "bench-bruno"):
    user = User.objects.filter(username=name).first() or user_create(
        username=name, email=name + "@example.com", password="a-long-bench-password")
    keys.append(api_token_create(user=user, name="bench")[1])
print(" ".join(keys))
"""


class Site:
    """runserver plus `celery worker` on one setup's database and broker; stopped on exit."""

    def __init__(self, setup: str, folder: Path):
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        # DEBUG off as in production; the published development key is fine for a measurement on this machine.
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="false",
            TOPOS_ALLOW_DEV_SECRET="true",
            TOPOS_BROKER_DIR=str(folder / "broker"),
            TOPOS_CACHE_DIR=str(folder / "cache"),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="WARNING",
            TOPOS_BOT_DELAY_SCALE="0",
        )
        for scope in ("ANON", "USER", "MOVES"):  # the throttles run (their cost is in the figures) but never refuse
            env.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")
        if setup == "postgres":
            site_processes.fresh_database(PG_URL)
            env.update(DATABASE_URL=PG_URL, REDIS_URL=REDIS_URL, DATABASE_CONN_MAX_AGE="60")
        else:
            env.update(DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}")
        self.env, self.port = env, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        site_processes.migrate(env)
        said = site_processes.manage_shell(env, MAKE_PLAYERS, "making the players")
        self.keys = said.strip().splitlines()[-1].split()  # the shell may first say what it imported
        log = folder / "processes.log"
        self.processes = [
            site_processes.start([PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"], log, env),
            site_processes.start(
                celery_worker_command("--without-heartbeat", concurrency=2, log_level="warning"), log, env
            ),
        ]
        site_processes.wait_answering(self.base, "/", 120)
        time.sleep(2)  # the worker's start-up

    def stop(self) -> None:
        site_processes.stop(self.processes, 20)

    def call(self, method: str, path: str, key: str, body: dict | None = None) -> tuple[int, dict, float]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, payload = answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            status, payload = error.code, json.loads(error.read() or b"{}")
        return status, payload, time.perf_counter() - started


def open_table(site: Site, bots: list[str]) -> int:
    status, table, _ = site.call(
        "POST",
        "/api/tables/",
        site.keys[0],
        # The creator starts it herself below: a table of people would otherwise deal itself at the join (decision 17).
        {"game": "topoum", "players": 1 + len(bots) if bots else 2, "bots": bots, "auto_start": False},
    )
    assert status == 201, table
    if not bots:
        site.call("POST", f"/api/tables/{table['id']}/join/", site.keys[1], {})
    status, started, _ = site.call("POST", f"/api/tables/{table['id']}/start/", site.keys[0], {})
    assert status == 200, started
    return table["id"]


def play(site: Site, table: int, turns: int, people: int) -> list[float]:
    """Each person to act plays her turn decision by decision; returns the POST times (seconds)."""
    times: list[float] = []
    played = 0
    deadline = time.monotonic() + 600
    while played < turns and time.monotonic() < deadline:
        moved = False
        for key in site.keys[:people]:
            _, detail, _ = site.call("GET", f"/api/tables/{table}/", key)
            if detail["status"] != "running":
                return times
            if not detail["my_turn"]:
                continue
            legal = [a for a in detail["legal_actions"] if a.get("type") != "undo"]
            action = next((a for a in legal if a.get("type") == "end_turn"), legal[0])
            status, answer, seconds = site.call(
                "POST", f"/api/tables/{table}/actions/", key, {"action": action, "expected_version": detail["version"]}
            )
            assert status in (200, 201), answer
            times.append(seconds)
            moved = True
            if action.get("type") == "end_turn":
                played += 1
        if not moved:
            time.sleep(0.1)  # the bots are thinking, in the worker
    return times


def figures(label: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return f"{label:<44} {len(ms):>5} {statistics.median(ms):>9.1f} {p90:>9.1f} {ms[-1]:>9.1f}"


def answers(lengths: list[int], moves: int) -> None:
    """Queries, bytes and median time of one move's answer (API and htmx) at Toppo tables `lengths` actions long."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DATABASE_URL"] = PG_URL
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from accounts.models import ApiToken, User
    from accounts.services import api_token_create, user_create
    from games import services
    from games.models import Game
    from games.selectors.positions import load_state

    call_command("migrate", verbosity=0)
    people = [
        User.objects.filter(username=n).first()
        or user_create(username=n, email=f"{n}@example.com", password="a-long-bench-password")
        for n in ("bench-ana", "bench-bruno")
    ]

    def next_move(game):
        state = load_state(game)
        seat = state.to_act()[0]
        legal = [a for a in state.legal_actions(seat) if a.get("type") != "undo"]
        return seat, next((a for a in legal if a["type"] == "end_turn"), legal[0])

    def api_move(client, game, action):
        return client.post(
            f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
        )

    marks = {}  # what each page's log holds, as its htmx requests say (X-Topos-Log); absent before decision 16

    def log_mark(client, answer):
        found = re.search(r'"X-Topos-Log": "(\d+:\d+)"', answer.content.decode())
        if found:
            marks[client] = found.group(1)
        return answer

    def htmx_move(client, game, action):
        headers = {"HTTP_X_TOPOS_LOG": marks[client]} if client in marks else {}
        return log_mark(
            client,
            client.post(
                f"/tables/{game.pk}/act/",
                {"action": json.dumps(action), "version": game.version},
                HTTP_HX_REQUEST="true",
                **headers,
            ),
        )

    print(f"{'one move, Toppo 2 people':<30} {'actions':>7} {'queries':>7} {'bytes':>8} {'median ms':>9} {'cpu ms':>7}")
    for length in lengths:
        game = services.game_create(user=people[0], kind="toppo", players=2, options={"hands": 20})
        services.game_join(user=people[1], game_id=game.pk)
        game = services.game_start(user=people[0], game_id=game.pk)
        seats = {s.index: s.user for s in game.seats.all()}
        while game.version < length:
            seat, action = next_move(game)
            services.action_submit(game_id=game.pk, user=seats[seat], action=action, expected_version=game.version)
            game.refresh_from_db()
        for kind, move in (("API", api_move), ("htmx", htmx_move)):
            clients = {}
            for index, user in seats.items():
                if kind == "API":
                    ApiToken.objects.filter(user=user).delete()
                    clients[index] = APIClient(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='b')[1]}")
                else:
                    clients[index] = Client()
                    clients[index].force_login(user)
                log_mark(clients[index], clients[index].get(f"/tables/{game.pk}/"))
            times, cpu, queries, sizes = [], [], [], []
            for _ in range(moves):
                seat, action = next_move(game)
                with CaptureQueriesContext(connection) as captured:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    answer = move(clients[seat], game, action)
                    times.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)  # this process only: the noisy machine's share
                assert answer.status_code == 200, answer.content[:300]
                queries.append(len(captured))
                sizes.append(len(answer.content))
                game.refresh_from_db()
            print(
                f"{kind + ' move':<30} {length:>7} {statistics.median(queries):>7.0f} {statistics.median(sizes):>8.0f} "
                f"{statistics.median(times) * 1000:>9.1f} {statistics.median(cpu) * 1000:>7.1f}"
            )
        Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setup", choices=["embedded", "postgres", "both"], default="both")
    parser.add_argument("--turns", type=int, default=12, help="turns of the person at each table")
    parser.add_argument("--answers", action="store_true", help="one move's answer at 50 and 1,000 actions instead")
    parser.add_argument("--moves", type=int, default=15, help="moves measured at each length (--answers)")
    args = parser.parse_args()
    if args.answers:
        answers([50, 1000], args.moves)
        return
    setups = ["embedded", "postgres"] if args.setup == "both" else [args.setup]
    print(f"{'POST /actions/ (Topoum, 2-4 seats)':<44} {'moves':>5} {'median ms':>9} {'p90 ms':>9} {'max ms':>9}")
    for setup in setups:
        folder = Path(tempfile.mkdtemp(prefix=f"topos-bench-{setup}-"))
        site = Site(setup, folder)
        try:
            person = play(site, open_table(site, []), args.turns, people=2)
            one_bot = play(site, open_table(site, ["strong"]), args.turns, people=1)
            three_bots = play(site, open_table(site, ["strong", "strong", "strong"]), args.turns // 2, people=1)
        finally:
            site.stop()
            shutil.rmtree(folder, ignore_errors=True)
        print(figures(f"{setup}: against a person", person))
        print(figures(f"{setup}: against one strong bot", one_bot))
        print(figures(f"{setup}: against three strong bots", three_bots))


if __name__ == "__main__":
    main()
