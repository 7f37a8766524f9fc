"""Events delivered per second: N clients each follow their event stream under uvicorn while moves are made.

Starts uvicorn (`config.asgi:application`) and a Celery worker on a database of its own (BENCH_DATABASE_URL,
dropped and created again) and, unless --embedded, Redis (BENCH_REDIS_URL, emptied): the streams then wait on
Redis pub/sub; with --embedded there is no Redis (the filesystem broker, streams read the database every second).
Seeds one two-player Topology table per client, opens each client's stream (`GET /api/events/stream/`, a token),
and then:

  moves   for --seconds, --movers threads make legal decisions at all tables through the API (each table's two
          players take turns); every decision leads the worker to write events (a move for both players, a turn
          when it changes hands) and to nudge the streams.  Counted: events received by all streams per second,
          and for each decision the time from sending its POST to its move event on the stream of the other
          player (end to end: the request, the task, the worker's event rows, pub/sub, the stream).
  burst   the streams alone: --burst events per client written at once (one transaction, as the dispatch does)
          and announced; the time until every stream has received all of them.

    .venv/bin/python bench/bench_events.py                      # 50 clients, 20 s, Redis
    .venv/bin/python bench/bench_events.py --clients 200 --embedded
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import site_processes  # noqa: E402
from tests.deploy.served import free_port  # noqa: E402
from tests.feed.uvicorn_site import uvicorn_command  # noqa: E402
from tests.integration.workers import celery_worker_command  # noqa: E402

PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topos_bench_events")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/10")

SEED = """
import json
from notifications.models import NotificationEvent
from accounts.models import User
from accounts.services import api_token_create
from notifications.events import game_effects_dispatch
from notifications.services import notification_preferences_set
from games.services import game_create, game_join, game_start

def player(name):
    user = User.objects.create_user(username=name, email=name + "@bench.invalid", password=None)  # tokens only
    notification_preferences_set(user=user, choices={event: "none" for event in NotificationEvent.values})
    return user, api_token_create(user=user, name="bench")[1]

clients = []
for n in range(CLIENTS):
    (a, key_a), (b, key_b) = player(f"ev{n}a"), player(f"ev{n}b")
    game = game_create(user=a, kind="topology", players=2)
    game_join(user=b, game_id=game.pk)
    game_start(user=a, game_id=game.pk)
    game_effects_dispatch(game_id=game.pk)
    clients.append({"table": game.pk, "keys": [key_a, key_b], "users": [a.pk, b.pk]})
print("SEEDED " + json.dumps(clients))
"""

BURST = """
from django.db import transaction
from feed.announce import users_announce
from feed.services import NewEvent, events_record
users = USERS
with transaction.atomic():
    events_record([NewEvent(u, "move", f"burst:{i}", None, {"burst": i}) for u in users for i in range(EACH)])
import time
print("COMMITTED", time.time())  # the rows are committed; the nudge goes next
users_announce(users)
"""


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] if values else float("nan")


class Listener(threading.Thread):
    """One client's event stream: every event kept with the moment it arrived."""

    def __init__(self, port: int, key: str):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request(
            "GET", "/api/events/stream/", headers={"Authorization": f"Token {key}", "Accept": "text/event-stream"}
        )
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200, self.answer.status
        self.events: list[tuple[float, str, dict]] = []
        self.ready = threading.Event()

    def run(self) -> None:
        kind, data = None, None
        try:
            while True:
                line = self.answer.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith("retry:"):
                    self.ready.set()
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif not line and kind:
                    self.events.append((time.time(), kind, data))
                    kind, data = None, None
        except (OSError, http.client.HTTPException, ValueError):
            return


class Api:
    def __init__(self, port: int, key: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.key = key

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {"Authorization": f"Token {self.key}"}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                answer = self.conn.getresponse()
                return answer.status, json.loads(answer.read() or b"{}")
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()  # the server closed an idle keep-alive connection: once more on a new one
                self.conn = http.client.HTTPConnection("127.0.0.1", self.conn.port, timeout=60)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def play(port: int, tables: list[dict], seconds: float, rng: random.Random, made: list) -> None:
    """Decisions at these tables, round robin: (table, version reached, the moment its POST was sent, mover)."""
    players = {t["table"]: [Api(port, k) for k in t["keys"]] for t in tables}
    end = time.time() + seconds
    while time.time() < end:
        for table in tables:
            for index, api in enumerate(players[table["table"]]):
                status, detail = api.call("GET", f"/api/tables/{table['table']}/")
                if status != 200 or detail["status"] != "running" or not detail["my_turn"]:
                    continue
                legal = [a for a in detail["legal_actions"] if a.get("type") != "undo"]
                sent = time.time()
                status, answer = api.call(
                    "POST",
                    f"/api/tables/{table['table']}/actions/",
                    {"action": rng.choice(legal), "expected_version": detail["version"]},
                )
                if status == 200:
                    made.append((table["table"], answer["version"], sent, index))
                break
            if time.time() >= end:
                return


class Site:
    def __init__(self, args, folder: Path):
        site_processes.fresh_database(PG_URL)
        self.env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "REDIS_URL")}
        self.env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            TOPOS_ALLOW_DEV_SECRET="true",
            DATABASE_URL=PG_URL,
            LOG_LEVEL="WARNING",
            TOPOS_BROKER_DIR=str(folder / "broker"),
        )
        if not args.embedded:
            import redis

            redis.Redis.from_url(REDIS_URL).flushdb()
            self.env["REDIS_URL"] = REDIS_URL
        site_processes.migrate(self.env)
        seeded = site_processes.manage_shell(self.env, SEED.replace("CLIENTS", str(args.clients)), "seeding")
        self.clients = json.loads(seeded.split("SEEDED ", 1)[1])
        self.port = free_port()
        self.processes = [
            site_processes.start(uvicorn_command(self.port, "--log-level", "warning"), folder / "web.log", self.env),
            site_processes.start(
                celery_worker_command(concurrency=args.worker_concurrency, log_level="warning"),
                folder / "worker.log",
                self.env,
            ),
        ]
        self.worker_log = folder / "worker.log"
        site_processes.wait_answering(f"http://127.0.0.1:{self.port}", "/healthz/web", 120)
        time.sleep(3)  # the worker connects to its broker

    def burst(self, users: list[int], each: int) -> float:
        """Write and announce the burst; the moment its rows were committed."""
        said = site_processes.manage_shell(
            self.env, BURST.replace("USERS", repr(users)).replace("EACH", str(each)), "the burst"
        )
        return float(said.split("COMMITTED ", 1)[1].split()[0])

    def stop(self) -> None:
        site_processes.stop(self.processes, 30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50, help="streams (one a table, its second player)")
    parser.add_argument("--movers", type=int, default=8, help="threads making decisions")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--burst", type=int, default=20, help="events per client in the burst phase")
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--embedded", action="store_true", help="no Redis: the filesystem broker, streams poll")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="topos-bench-events-"))
    mode = "embedded (no Redis)" if args.embedded else "Redis pub/sub"
    print(
        f"{2 * args.clients} streams ({args.clients} tables, both players) under one uvicorn process, {mode}; "
        f"logs in {folder} ...",
        flush=True,
    )
    site = Site(args, folder)
    try:
        # Both players of a table follow their streams: every decision is news to both.
        listeners = [Listener(site.port, key) for c in site.clients for key in c["keys"]]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            listener.ready.wait(30)
        made: list = []
        groups = [site.clients[i :: args.movers] for i in range(args.movers)]
        started = time.time()
        with ThreadPoolExecutor(args.movers) as pool:
            list(pool.map(lambda g: play(site.port, g, args.seconds, random.Random(len(g)), made), groups))
        time.sleep(3)  # the last events arrive
        received = [e for listener in listeners for e in listener.events if e[0] >= started]
        last = max((e[0] for e in received), default=started)
        # End to end: a decision's POST sent -> the other player's stream shows a move at least that far.
        by_listener = {(c["table"], i): listeners[n * 2 + i] for n, c in enumerate(site.clients) for i in (0, 1)}
        latencies = []
        for table, version, answered, mover in made:
            other = by_listener[(table, 1 - mover)]
            arrived = next(
                (
                    t
                    for t, kind, data in other.events
                    if kind == "move" and data["table"] == table and data["data"]["version"] >= version
                ),
                None,
            )
            if arrived is not None:
                latencies.append((arrived - answered) * 1000)

        before = sum(len(listener.events) for listener in listeners)
        users = [u for c in site.clients for u in c["users"]]
        burst_started = time.time()
        committed = site.burst(users, args.burst)
        wanted = before + len(users) * args.burst
        while sum(len(listener.events) for listener in listeners) < wanted and time.time() - burst_started < 120:
            time.sleep(0.01)
        got = sum(len(listener.events) for listener in listeners) - before
        burst_last = max(e[0] for listener in listeners for e in listener.events)
    finally:
        site.stop()
    span = last - started
    print(
        f"\nmoves phase: {len(made)} decisions in {args.seconds:.0f} s by {args.movers} threads "
        f"({len(made) / args.seconds:.1f}/s); {len(received)} events received by {len(listeners)} streams in "
        f"{span:.1f} s = {len(received) / span:.1f} events/s delivered"
    )
    print(
        f"  end to end (POST sent -> the other player's stream): {len(latencies)} of {len(made)} matched, "
        f"p50 {percentile(latencies, 50):.0f} ms, p95 {percentile(latencies, 95):.0f} ms, "
        f"p99 {percentile(latencies, 99):.0f} ms"
    )
    burst_span = burst_last - committed
    print(
        f"burst phase: {got} of {len(users) * args.burst} events ({args.burst} each to {len(users)} streams) "
        f"committed in one transaction, all delivered {burst_span:.2f} s later = {got / burst_span:.0f} events/s"
    )


if __name__ == "__main__":
    main()
