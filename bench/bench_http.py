"""Moves per second through the API under gunicorn on PostgreSQL, and how fast a worker tells people.

Starts the production setup (config.production, `config/scripts/serve.sh prepare`, then `serve.sh web` and
`serve.sh worker`; no beat) on a database of its own (BENCH_DATABASE_URL, dropped and created again) and Redis
(BENCH_REDIS_URL, emptied), seeds tables of two players, and then:

  moves    N client threads (standard library, keep-alive connections) play legal moves at their own tables for
           a bounded time, each client both players of its tables, as a program does: a move is
           GET /api/tables/{id}/legal-actions/ then POST /api/tables/{id}/actions/, both timed (each and the pair),
           plus the GET of the table a player makes when her turn comes (counted, not timed).  The worker runs
           meanwhile.
  get      the same N clients make a bare authenticated GET (/api/catalogue/ with a token) for the same time.
  poll     the same N clients poll a table page as its open page does (htmx, session cookie; nothing changed: 204).
  effects  the worker is paused (SIGSTOP), one turn is played at each of E other tables, and the worker resumed:
           how fast it works through the backlog of after-move effects (`games.tasks.game_effects`: the
           "your turn" notifications), read from its JSON task log lines.

With --embedded it measures the embedded default instead: `config/scripts/run.sh` as a newcomer starts it (gunicorn
with uvicorn workers, SQLite in WAL mode, the filesystem broker, a worker and beat, DEBUG off unless --debug), on a SQLite file, broker
and cache folder of its own.  --burst N adds a last phase: N new connections at once, each POSTing a move at one of
the clients' tables (one a table applies, the rest are 409): how many got an answer, of which kind, and how many
were refused or reset (runserver's listen queue of 10 reset hundreds of 1,000).

Decision 28: the phases are measured --repeat times (3) after a --warm-up (5 s of moves, discarded with their log
lines), and the medians are printed with each repeat's figure and the load average beside it; PostgreSQL's CPU is
that of the backends of the site's own database only (pg_stat_activity's datname), not every postgres process on the
machine; the query counts are those of the request alone (the bench's reads of whose turn it is are made before).

Nobody gets email (every bench player chose "no email"), so the figures are the site's own work.  Prints
moves/s and p50/p95/p99 of a move (and of its GET and its POST), the same for the bare GET and the ratio of moves/s
to its requests/s (decision 16: the goal is 0.5 or more), for the poll, the worker's effects per second, and the SQL
queries of one request of each kind (legal GET, move POST, table detail, poll, bare GET), counted in-process with
Django's CaptureQueriesContext under the same settings and database (pg_stat_statements is not assumed).

    .venv/bin/python bench/bench_http.py                       # 8 clients, 20 s a phase, 300 effect tables
    .venv/bin/python bench/bench_http.py --clients 16 --seconds 30 --game toppo
    .venv/bin/python bench/bench_http.py --clients 50 --seconds 10 --effect-tables 100
    .venv/bin/python bench/bench_http.py --embedded --clients 8 --burst 1000     # docs/embedded.md's figures
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import site_processes  # noqa: E402
from tests.deploy.served import REAL_KEY, free_port  # noqa: E402  (the smoke test's helpers)

PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topos_bench")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
SERVE = ROOT / "config" / "scripts" / "serve.sh"
RUN = ROOT / "config" / "scripts" / "run.sh"

HELPERS = """
import json
from notifications.models import NotificationEvent
from accounts.services import api_token_create, user_create
from notifications.events import game_effects_dispatch
from notifications.services import notification_preferences_set
from games.services import game_create, game_join, game_start

from django.test import Client as BrowserSession
from games.models import Game
from games.views.common import stamp

def player(name):
    user = user_create(username=name, email=name + "@bench.invalid", password="a-long-bench-password")
    notification_preferences_set(user=user, choices={event: "none" for event in NotificationEvent.values})
    return user, api_token_create(user=user, name="bench")[1]

def session_of(user):
    browser = BrowserSession()
    browser.force_login(user)
    return browser.cookies["sessionid"].value

def table(a, b):
    game = game_create(user=a, kind=GAME, players=2)
    game_join(user=b, game_id=game.pk)
    game_start(user=a, game_id=game.pk)
    game_effects_dispatch(game_id=game.pk)  # the start told here: the worker's queue holds only the bench's moves
    return game.pk
"""

SEED = (
    HELPERS
    + """
clients = []
for n in range(CLIENTS):
    (a, key_a), (b, key_b) = player(f"bench{n}a"), player(f"bench{n}b")
    effects = [table(a, b) for _ in range(EFFECTS_EACH)]
    clients.append({"keys": [key_a, key_b], "tables": [table(a, b) for _ in range(TABLES_EACH)], "effects": effects,
                    "session": session_of(a), "poll": f"/tables/{effects[0]}/poll/?stamp={stamp(Game.objects.get(pk=effects[0]))}"})
print("SEEDED " + json.dumps(clients))
"""
)


QUERIES = (
    HELPERS
    + """
from django.db import connection
from django.test.utils import CaptureQueriesContext
from games.models import Seat

(a, key_a), (b, key_b) = player("queries_a"), player("queries_b")
game_id = table(a, b)
keys = {a.pk: key_a, b.pk: key_b}
proxy = {"HTTP_HOST": "127.0.0.1"}  # and secure=True on each request: as gunicorn behind TLS
browser = BrowserSession(**proxy)
browser.force_login(a)

def by_token():
    game = Game.objects.get(pk=game_id)
    user_id = Seat.objects.get(game=game, index=game.to_act[0]).user_id
    return BrowserSession(HTTP_AUTHORIZATION="Token " + keys[user_id], **proxy)

def counted(request):
    # Only the request's own statements: the bench's reads (whose turn it is, the poll's stamp) are made before.
    with CaptureQueriesContext(connection) as queries:
        answer = request()
    assert answer.status_code in (200, 201, 204), answer.status_code
    return len(queries)

def move():
    # The POST of a move: its legal GET is made first, outside the count.
    api = by_token()
    legal = api.get(f"/api/tables/{game_id}/legal-actions/", secure=True).json()
    action = next(a for a in legal["actions"] if a.get("type") != "undo")
    return counted(lambda: api.post(f"/api/tables/{game_id}/actions/",
                                    {"action": action, "expected_version": legal["version"]},
                                    content_type="application/json", secure=True))

def poll():
    path = f"/tables/{game_id}/poll/?stamp={stamp(Game.objects.get(pk=game_id))}"
    return counted(lambda: browser.get(path, HTTP_HX_REQUEST="true", secure=True))

def by(path):
    def request():
        api = by_token()
        return counted(lambda: api.get(path, secure=True))
    return request

requests = {"legal": by(f"/api/tables/{game_id}/legal-actions/"), "move": move,
            "detail": by(f"/api/tables/{game_id}/"), "poll": poll, "bare": by("/api/catalogue/")}
counts = {}
for name, request in requests.items():
    request()  # the first of its kind warms caches; the second is the one reported
    counts[name] = request()
print("COUNTED " + json.dumps(counts))
"""
)


QUERY_LABELS = {
    "legal": "GET legal-actions",
    "move": "POST a move",
    "detail": "GET table detail",
    "poll": "poll (204)",
    "bare": "GET /api/catalogue/",
}


def _ticks(pid: str) -> tuple[str, list[str]] | None:
    try:
        name, rest = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)
    except OSError:
        return None
    return name, rest.split()


def cpu_seconds(group: int) -> float:
    """CPU seconds used so far by the processes of a process group, with their children that ended (a recycled
    gunicorn worker's time is in its master's cutime once reaped)."""
    ticks = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        found = _ticks(pid)
        if found is not None and int(found[1][2]) == group:  # field 5: the process group
            ticks += sum(int(f) for f in found[1][11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


class DatabaseCpu:
    """CPU seconds of the PostgreSQL backends serving the site's own database (pg_stat_activity's datname), not of
    every postgres process on the machine (another database busy on the same server is not the site's work).  A
    backend that ended keeps the time last read of it (the site's connections are long-lived: CONN_MAX_AGE)."""

    def __init__(self, url: str):
        import psycopg

        self.name = url.rsplit("/", 1)[1]
        self.conn = psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True)
        self.seen: dict[int, float] = {}

    def __call__(self) -> float:
        pids = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [self.name]
        ).fetchall()
        for (pid,) in pids:
            found = _ticks(str(pid))
            if found is not None:
                self.seen[pid] = sum(int(f) for f in found[1][11:13]) / os.sysconf("SC_CLK_TCK")
        return sum(self.seen.values())


def percentile(sorted_ms: list[float], p: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(p / 100 * len(sorted_ms)))] if sorted_ms else float("nan")


class Client:
    """One player's keep-alive connection to gunicorn, as behind a TLS proxy (X-Forwarded-Proto)."""

    def __init__(self, port: int, key: str, cookie: str = ""):
        self.port, self.key, self.cookie = port, key, cookie
        self.conn = self._connect()

    def _connect(self) -> http.client.HTTPConnection:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.connect()
        # http.client writes a POST's headers and body separately: without this, Nagle's algorithm and the
        # server's delayed ACK add 40 ms to every POST, a cost of this client that no browser or proxy pays.
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        headers = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1"}
        if self.cookie:
            headers.update({"Cookie": self.cookie, "HX-Request": "true"})
        else:
            headers["Authorization"] = f"Token {self.key}"
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                answer = self.conn.getresponse()
                payload = answer.read()
                return answer.status, json.loads(payload or b"{}"), time.perf_counter() - started
            except (http.client.HTTPException, ConnectionError):
                # gunicorn closed an idle keep-alive connection, or recycled its process: reconnect once
                self.conn.close()
                self.conn = self._connect()
                if attempt:
                    raise
        raise AssertionError("unreachable")


class Table:
    """One table played by one bench client as both of its players."""

    def __init__(self, table_id: int, players: list[Client], rng: random.Random):
        self.id, self.players, self.rng = table_id, players, rng

    def next_player(self) -> Client | None:
        for player in self.players:
            status, detail, _ = player.call("GET", f"/api/tables/{self.id}/")
            if status == 200 and detail["status"] == "running" and detail["my_turn"]:
                return player
        return None

    def move(self, player: Client) -> tuple[bool, float | None, float]:
        """One decision as a program makes it: GET her legal actions, POST one.  (Still her turn, the POST's
        seconds or None when it was refused or there was nothing to do, the GET's seconds.)"""
        status, legal, got = player.call("GET", f"/api/tables/{self.id}/legal-actions/")
        actions = [a for a in legal.get("actions", []) if a.get("type") != "undo"] if status == 200 else []
        if not legal.get("my_turn") or not actions:
            return False, None, got
        status, answer, posted = player.call(
            "POST",
            f"/api/tables/{self.id}/actions/",
            {"action": self.rng.choice(actions), "expected_version": legal["version"]},
        )
        if status not in (200, 201):
            return False, None, got
        return answer["status"] == "running" and answer["my_turn"], posted, got


def play_for(port: int, client: dict, seconds: float, rng: random.Random, out: dict) -> None:
    players = [Client(port, key) for key in client["keys"]]
    tables = [Table(t, players, rng) for t in client["tables"]]
    end = time.monotonic() + seconds
    while time.monotonic() < end and tables:
        table = tables[0]
        player = table.next_player()
        out["gets"] += 1
        if player is None:  # over: the next table
            tables.pop(0)
            out["finished"] += 1
            continue
        mine = True
        while mine and time.monotonic() < end:
            mine, posted, got = table.move(player)
            if posted is None:
                out["refused"] += 1
            else:
                out["moves"].append(got + posted)
                out["legal"].append(got)
                out["posts"].append(posted)


def get_for(port: int, client: dict, seconds: float, out: dict) -> None:
    player = Client(port, client["keys"][0])
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status, _, took = player.call("GET", "/api/catalogue/")
        assert status == 200
        out["moves"].append(took)


def poll_for(port: int, client: dict, seconds: float, out: dict) -> None:
    """An open table page's poller (htmx, the session cookie): nothing changed, so 204 each time."""
    player = Client(port, "", cookie=f"sessionid={client['session']}")
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status, _, took = player.call("GET", client["poll"])
        assert status == 204, status
        out["moves"].append(took)


def one_turn_each(port: int, client: dict, rng: random.Random) -> int:
    """Her whole first turn at each of this client's effect tables; the decisions made."""
    players = [Client(port, key) for key in client["keys"]]
    made = 0
    for table_id in client["effects"]:
        table = Table(table_id, players, rng)
        player = table.next_player()
        mine = player is not None
        while mine:
            mine, posted, _ = table.move(player)
            made += posted is not None
    return made


def run_clients(clients: list[dict], work) -> tuple[list[float], dict, float]:
    """Each client's `work` in its own thread; the sorted milliseconds of its timed requests ("moves"), the counts
    and the other timings (sorted milliseconds too), and the seconds it all took."""
    outs = [{"moves": [], "legal": [], "posts": [], "gets": 0, "refused": 0, "finished": 0} for _ in clients]
    started = time.monotonic()
    with ThreadPoolExecutor(len(clients)) as pool:
        for future in [pool.submit(work, c, o) for c, o in zip(clients, outs)]:
            future.result()
    elapsed = time.monotonic() - started
    merged = {key: sum(o[key] for o in outs) for key in ("gets", "refused", "finished")}
    merged.update({key: sorted(t * 1000 for o in outs for t in o[key]) for key in ("legal", "posts")})
    return sorted(t * 1000 for o in outs for t in o["moves"]), merged, elapsed


class Site:
    """`serve.sh prepare`, the seed, then `serve.sh web` and `serve.sh worker`, each its own process group; or with
    --embedded, migrate and the seed on a SQLite file, then `run.sh` (its supervisor starts web, worker and beat)."""

    def __init__(self, args, folder: Path):
        self.port, self.game, self.embedded = free_port(), args.game, args.embedded
        self.log_skip = 0  # the web log's lines of the warm-up
        self.worker_log = folder / ("broker" if args.embedded else "") / "worker.log"
        self.web_log = folder / "web.log"
        if args.embedded:
            self._start_embedded(args, folder)
            return
        site_processes.fresh_database(PG_URL)
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DEBUG",)},
            "DJANGO_SETTINGS_MODULE": "config.production",
            "SECRET_KEY": REAL_KEY,
            "SITE_URL": "https://bench.invalid",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": PG_URL,
            "REDIS_URL": REDIS_URL,
            "STATIC_ROOT": str(folder / "static"),
            "TOPOS_BIND": f"127.0.0.1:{self.port}",
            "LOG_FORMAT": "json",
            "TOPOS_SKIP_INSTALL": "1",
            "WEB_THREADS": str(args.web_threads),
            **({"WEB_CONCURRENCY": str(args.web_workers)} if args.web_workers else {}),
            **({"CELERY_WORKER_CONCURRENCY": str(args.worker_concurrency)} if args.worker_concurrency else {}),
        }
        for scope in ("ANON", "USER", "MOVES"):  # the throttles run (their cost is in the figures) but never refuse
            self.env.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")
        subprocess.run(["bash", str(SERVE), "prepare"], cwd=ROOT, env=self.env, check=True, capture_output=True)
        self._seed(args)
        self.database_cpu = DatabaseCpu(PG_URL)  # on a database of its own: the bench's connection is not counted
        self.web = site_processes.start(["bash", str(SERVE), "web"], folder / "web.log", self.env)
        self.worker = site_processes.start(["bash", str(SERVE), "worker"], self.worker_log, self.env)
        self._wait_up()

    def _seed(self, args) -> None:
        seed = (
            SEED.replace("GAME", repr(args.game))
            .replace("CLIENTS", str(args.clients))
            .replace("TABLES_EACH", str(args.tables_each))
            .replace("EFFECTS_EACH", str(-(-args.effect_tables // args.clients)))
        )
        self.clients = json.loads(site_processes.manage_shell(self.env, seed, "seeding").split("SEEDED ", 1)[1])

    def _start_embedded(self, args, folder: Path) -> None:
        self.database = folder / "topos.sqlite3"
        unset = ("DEBUG", "SECRET_KEY", "SITE_URL", "REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in unset},
            "TOPOS_EMBEDDED": "1",  # as run.sh sets it: the seed signs with the key the site makes for itself
            **({"DEBUG": "true"} if args.debug else {}),  # otherwise run.sh's own choice (off)
            "DATABASE_URL": f"sqlite:///{self.database}",
            "TOPOS_BROKER_DIR": str(folder / "broker"),
            "TOPOS_CACHE_DIR": str(folder / "cache"),
            "LOG_FORMAT": "json",
            "TOPOS_SKIP_INSTALL": "1",
            **({"WEB_CONCURRENCY": str(args.web_workers)} if args.web_workers else {}),
        }
        for scope in ("ANON", "USER", "MOVES"):
            self.env.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")
        site_processes.migrate(self.env)
        self._seed(args)
        self.web = site_processes.start(["bash", str(RUN), f"127.0.0.1:{self.port}"], folder / "web.log", self.env)
        self.worker = None
        self._wait_up()
        children = {
            pid: command
            for pid, command in _children(self.web.pid).items()
            if "celery" in command or "gunicorn" in command
        }
        self.worker_group = next(pid for pid, command in children.items() if " worker " in command)
        self.web_group = next(pid for pid, command in children.items() if "gunicorn" in command)

    def pause_worker(self, paused: bool) -> None:
        group = self.worker_group if self.embedded else self.worker.pid
        os.killpg(group, signal.SIGSTOP if paused else signal.SIGCONT)

    def _wait_up(self) -> None:
        for _ in range(240):
            try:
                status, _, _ = Client(self.port, "none").call("GET", "/healthz/web")
                if status == 200 and " ready." in self.worker_log.read_text(errors="replace"):
                    return
            except (ConnectionError, http.client.HTTPException):
                pass
            time.sleep(0.5)
        raise SystemExit("the site did not start; see the logs in " + str(self.worker_log.parent))

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far: the web (gunicorn), the worker, PostgreSQL, and this bench's own client threads."""
        own = os.times()
        if self.embedded:  # SQLite works inside the web and worker processes
            return {
                "web": cpu_seconds(self.web_group),
                "worker": cpu_seconds(self.worker_group),
                "clients": own.user + own.system,
            }
        return {
            "web": cpu_seconds(self.web.pid),
            "worker": cpu_seconds(self.worker.pid),
            "PostgreSQL": self.database_cpu(),
            "clients": own.user + own.system,
        }

    def queue_length(self) -> int:
        if self.embedded:  # the filesystem broker: a file a message, deleted when a worker takes it
            return len(os.listdir(Path(self.env["TOPOS_BROKER_DIR"]) / "queue"))
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        return client.llen("topos") + client.hlen("unacked")

    def wait_drained(self, timeout: float = 600) -> float:
        started = time.monotonic()
        while self.queue_length() and time.monotonic() - started < timeout:
            time.sleep(0.05)
        return time.monotonic() - started

    def query_counts(self) -> dict[str, int]:
        """The SQL queries of one request of each kind, in-process (Django's test client under the same settings,
        on the same database; CaptureQueriesContext), at a fresh table of two new players: the second of two."""
        said = site_processes.manage_shell(self.env, QUERIES.replace("GAME", repr(self.game)), "counting the queries")
        return json.loads(said.split("COUNTED ", 1)[1])

    def request_ms(self, method: str, path_end: str) -> list[float]:
        """The web's own duration of each such request (its JSON request lines), sorted."""
        out = []
        for row in self.web_log.read_text(errors="replace").splitlines()[self.log_skip :]:
            if row.startswith("{") and '"event": "request"' in row:
                line = json.loads(row)
                if line["method"] == method and line["path"].endswith(path_end):
                    out.append(line["duration_ms"])
        return sorted(out)

    def notifications_since(self, since: float) -> int:
        if self.embedded:
            stamp = datetime.fromtimestamp(since, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
            with sqlite3.connect(self.database) as conn:
                return conn.execute(
                    "SELECT count(*) FROM games_notification WHERE created_at >= ?", [stamp]
                ).fetchone()[0]
        import psycopg

        with psycopg.connect(PG_URL) as conn:
            return conn.execute(
                "SELECT count(*) FROM games_notification WHERE created_at >= to_timestamp(%s)", [since]
            ).fetchone()[0]

    def task_lines(self, name: str, since: float) -> list[dict]:
        """The worker's JSON task lines for `name` that ended after `since` (epoch seconds)."""
        lines = []
        for row in self.worker_log.read_text(errors="replace").splitlines():
            if row.startswith("{") and f'"task": "{name}"' in row:
                line = json.loads(row)
                line["end"] = datetime.fromisoformat(line["time"]).timestamp()
                if line["end"] >= since:
                    lines.append(line)
        return lines

    def stop(self) -> None:
        if self.embedded:
            self.pause_worker(False)
            site_processes.stop([self.web], 60)  # run.sh's supervisor stops its web, worker and beat
            return
        site_processes.stop([self.web, self.worker], 60)  # SIGCONT first: the effects phase pauses the worker


def _children(parent: int) -> dict[int, str]:
    """The processes `parent` started: pid -> command line."""
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if ppid == parent:
                out[int(pid)] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError, ValueError):
            continue
    return out


def burst(site: Site, count: int, rng: random.Random) -> tuple[dict[str, int], list[float]]:
    """`count` new connections at once, each POSTing a legal move at one of the clients' effect tables (as many
    POSTs at each): answers by status (and failures by kind), and the sorted milliseconds of the answered ones."""
    aimed = []
    for client in site.clients:
        players = [Client(site.port, key) for key in client["keys"]]
        table = Table(client["effects"][-1], players, rng)
        player = table.next_player()
        if player is None:
            continue
        status, legal, _ = player.call("GET", f"/api/tables/{table.id}/legal-actions/")
        actions = [a for a in legal.get("actions", []) if a.get("type") != "undo"]
        if actions:
            aimed.append((table.id, player.key, {"action": actions[0], "expected_version": legal["version"]}))
    if not aimed:
        raise SystemExit("no table left to aim the burst at")
    outcomes: dict[str, int] = {}
    took: list[float] = []
    lock, gate = threading.Lock(), threading.Barrier(count)

    def one(n: int) -> None:
        table_id, key, body = aimed[n % len(aimed)]
        gate.wait()
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=120)
            conn.request(
                "POST",
                f"/api/tables/{table_id}/actions/",
                body=json.dumps(body).encode(),
                headers={"Authorization": f"Token {key}", "Content-Type": "application/json", "Host": "127.0.0.1"},
            )
            answer = conn.getresponse()
            answer.read()
            conn.close()
            outcome = str(answer.status)
        except (OSError, http.client.HTTPException) as error:  # reset, refused, timed out, cut short
            outcome = type(error).__name__
        with lock:
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            if outcome.isdigit():
                took.append((time.perf_counter() - started) * 1000)

    threads = [threading.Thread(target=one, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes, sorted(took)


def line(label: str, count: int, elapsed: float, ms: list[float]) -> str:
    return (
        f"{label:<34} {count:>7} {count / elapsed:>9.1f} {percentile(ms, 50):>8.1f} {percentile(ms, 95):>8.1f} "
        f"{percentile(ms, 99):>8.1f}"
    )


def served(label: str, ms: list[float]) -> str:
    """The site's own time (from request to response inside Django): the rest of a client's wait is queueing."""
    return (
        f"{label:<34} {'':>7} {'':>9} {percentile(ms, 50):>8.1f} {percentile(ms, 95):>8.1f} {percentile(ms, 99):>8.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20, help="length of the moves and the GET phases")
    parser.add_argument("--game", default="topology", choices=["topology", "topoum", "toppo"])
    parser.add_argument(
        "--tables-each",
        type=int,
        default=8,
        help="tables each client plays, one after the other (enough that none runs out: 'games over' stays low)",
    )
    parser.add_argument("--effect-tables", type=int, default=300, help="tables of the effects phase, in all")
    parser.add_argument("--web-workers", type=int, default=0, help="gunicorn processes (default: serve.sh's)")
    parser.add_argument("--web-threads", type=int, default=4)
    parser.add_argument("--worker-concurrency", type=int, default=0, help="Celery processes (default: one a core)")
    parser.add_argument("--embedded", action="store_true", help="run.sh on SQLite and the filesystem broker")
    parser.add_argument("--debug", action="store_true", help="--embedded with DEBUG on (run.sh serves with it off)")
    parser.add_argument("--burst", type=int, default=0, help="a last phase: this many POSTs at once")
    parser.add_argument("--warm-up", type=float, default=5, help="seconds of moves played first and not counted")
    parser.add_argument("--repeat", type=int, default=3, help="times the moves, GET and poll phases are measured")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="topos-bench-http-"))
    print(
        f"seeding {args.clients} clients x {args.tables_each} {args.game} tables and {args.effect_tables} effect "
        f"tables on {'SQLite' if args.embedded else PG_URL.rsplit('/', 1)[1]} (logs in {folder}) ...",
        flush=True,
    )
    site = Site(args, folder)
    rng = random.Random(14)
    try:
        queries = site.query_counts()  # first: a mistake shows before the long part
        site.wait_drained()
        # A fresh site's first moves cost several times the later ones (imports, caches, connections): played and
        # discarded, with the web log's lines of them.
        run_clients(site.clients, lambda c, o: play_for(site.port, c, args.warm_up, rng, o))
        site.wait_drained()
        site.log_skip = len(site.web_log.read_text(errors="replace").splitlines())
        repeats = []
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            before = site.cpu()
            moves, counts, moves_elapsed = run_clients(
                site.clients, lambda c, o: play_for(site.port, c, args.seconds, rng, o)
            )
            backlog = site.queue_length()
            site.wait_drained()  # the worker's after-move tasks are part of a move's cost
            after = site.cpu()
            moves_cpu = {part: after[part] - before[part] for part in after}
            gets, _, gets_elapsed = run_clients(site.clients, lambda c, o: get_for(site.port, c, args.seconds, o))
            gets_cpu = {part: used - after[part] for part, used in site.cpu().items()}
            polls, _, polls_elapsed = run_clients(site.clients, lambda c, o: poll_for(site.port, c, args.seconds, o))
            site.wait_drained()
            repeats.append(
                {
                    "load": (load, os.getloadavg()[0]),
                    "moves/s": len(moves) / moves_elapsed,
                    "move p50 ms": percentile(moves, 50),
                    "move p95 ms": percentile(moves, 95),
                    "POST p50 ms": percentile(counts["posts"], 50),
                    "POST p95 ms": percentile(counts["posts"], 95),
                    "bare GETs/s": len(gets) / gets_elapsed,
                    "bare GET p50 ms": percentile(gets, 50),
                    **{f"CPU ms a move, {k}": v * 1000 / max(len(moves), 1) for k, v in moves_cpu.items()},
                    **{f"CPU ms a bare GET, {k}": v * 1000 / max(len(gets), 1) for k, v in gets_cpu.items()},
                }
            )

        site.pause_worker(True)  # the worker holds still while the backlog builds up
        with ThreadPoolExecutor(len(site.clients)) as pool:
            decisions = sum(pool.map(lambda c: one_turn_each(site.port, c, rng), site.clients))
        resumed = time.time()
        site.pause_worker(False)
        site.wait_drained()
        time.sleep(1)  # the last lines reach the log
        effects = site.task_lines("games.tasks.game_effects", resumed)
        told = site.notifications_since(resumed)
        served_moves, served_gets = site.request_ms("POST", "/actions/"), site.request_ms("GET", "/api/catalogue/")
        served_legal = site.request_ms("GET", "/legal-actions/")
        bursts = burst(site, args.burst, rng) if args.burst else None
    finally:
        site.stop()
    moves_per_s, gets_per_s = len(moves) / moves_elapsed, len(gets) / gets_elapsed
    setup = (
        f"run.sh (SQLite WAL, uvicorn workers, DEBUG {'on' if args.debug else 'off'}), gunicorn "
        f"{site.env.get('WEB_CONCURRENCY') or 'default'} processes"
        if args.embedded
        else f"gunicorn {site.env.get('WEB_CONCURRENCY') or 'default'} processes x {args.web_threads} threads"
    )
    print(f"\n{setup}, {args.clients} clients, {args.game}, {args.seconds:.0f} s a phase")
    print(f"{'':<34} {'count':>7} {'per s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    print(line("a move: GET legal + POST (worker)", len(moves), moves_elapsed, moves))
    print(line("  GET legal-actions", len(counts["legal"]), moves_elapsed, counts["legal"]))
    print(served("    of which inside the site", served_legal))
    print(line("  POST the action", len(counts["posts"]), moves_elapsed, counts["posts"]))
    print(served("    of which inside the site", served_moves))
    print(
        f"{'':<34} (and {counts['gets']} GETs of a table as turns came, {counts['finished']} games over, "
        f"{counts['refused']} moves refused; {backlog} tasks queued at the end)"
    )
    print(line("GET /api/catalogue/ (token)", len(gets), gets_elapsed, gets))
    print(served("  of which inside the site", served_gets))
    print(line("GET a table's poller (session, 204)", len(polls), polls_elapsed, polls))
    for label, used, count in (("a move", moves_cpu, len(moves)), ("a bare GET", gets_cpu, len(gets))):
        print(
            f"CPU ms per {label}: "
            + ", ".join(f"{part} {seconds * 1000 / max(count, 1):.1f}" for part, seconds in used.items())
            + f" (in all {sum(used.values()) * 1000 / max(count, 1):.1f})"
        )
    print(
        f"moves/s : GETs/s = {moves_per_s:.1f} : {gets_per_s:.1f} = {moves_per_s / gets_per_s:.2f} (goal: 0.5 or more)"
    )
    # A move is two requests, each authenticated and throttled as the bare GET is: 0.5 is where a move would land
    # if the game's work, the lock, the writes and the worker's task cost nothing at all.  Requests for requests:
    requests_per_s = (len(counts["legal"]) + len(counts["posts"]) + counts["gets"]) / moves_elapsed
    print(
        f"requests/s while playing : bare GETs/s = {requests_per_s:.1f} : {gets_per_s:.1f} = "
        f"{requests_per_s / gets_per_s:.2f} (a move's two requests, and the table GETs as turns came)"
    )
    print(
        "SQL queries of one request (in-process, CaptureQueriesContext, same settings and database): "
        + ", ".join(f"{QUERY_LABELS[k]} {n}" for k, n in queries.items())
    )
    print(
        f"\nmedians of {args.repeat} repeats (after a {args.warm_up:.0f} s warm-up), each repeat's figure beside, "
        "with the load average (1 min) at its start and end:"
    )
    for name in repeats[0]:
        if name == "load":
            continue
        values = [r[name] for r in repeats]
        each = ", ".join(f"{v:.1f} @ {r['load'][0]:.1f}-{r['load'][1]:.1f}" for v, r in zip(values, repeats))
        print(f"  {name:<34} {statistics.median(values):>8.1f}   ({each})")
    if effects:
        span = max(e["end"] for e in effects) - min(e["end"] - e["duration_ms"] / 1000 for e in effects)
        took = sorted(e["duration_ms"] for e in effects)
        tables = len(site.clients) * -(-args.effect_tables // args.clients)
        print(
            f"\nworker alone on a backlog: {len(effects)} game_effects tasks (one a table: {decisions} decisions, "
            f"a turn at each of {tables} tables) in {span:.2f} s = {len(effects) / span:.1f} tasks/s, "
            f"{told / span:.1f} notifications/s ({told} made); a task p50 {percentile(took, 50):.1f} ms, "
            f"p95 {percentile(took, 95):.1f} ms"
        )
    if bursts:
        outcomes, took = bursts
        print(
            f"\n{args.burst} POSTs at once (new connections, {len(site.clients)} tables): "
            + ", ".join(f"{kind} {n}" for kind, n in sorted(outcomes.items()))
            + f"; answered p50 {percentile(took, 50):.0f} ms, p95 {percentile(took, 95):.0f} ms, max "
            f"{took[-1] if took else float('nan'):.0f} ms"
        )
    if bursts and set(bursts[0]) - {"200", "201", "409"}:
        print(f"(the logs are kept in {folder})")
    else:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
