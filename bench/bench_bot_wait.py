"""How long a person waits between her turns at a 3-player Topoum table with 2 strong bots (decision 26).

Starts the site (runserver) and a real Celery worker on PostgreSQL and Redis, as deployed, with the bots' real
reaction delays (TOPOS_BOT_DELAY_SCALE=1), and by default one process burning a core for the whole run, as on a
loaded 2-core machine.  The person plays through the API without thinking (her first legal decision, ending her
turn as soon as she may); the wait is from the answer to her `end_turn` to the moment the table says it is her turn
again (polled every 0.1 s), so it holds both bots' reaction times, their thinking (engine.bots.levels
`thinking_seconds`: by correspondence, a whole turn's limit) and the site's own work.

    .venv/bin/python bench/bench_bot_wait.py                  # 8 waits, one core burnt
    .venv/bin/python bench/bench_bot_wait.py --turns 12 --burn 0

Goal (decision 26): under 10 s on this machine under load.  Prints every wait, their median and their maximum.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import site_processes  # noqa: E402
from tests.deploy.served import free_port  # noqa: E402
from tests.integration.workers import celery_worker_command  # noqa: E402

PYTHON = sys.executable
PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/topos_bench_bot_wait")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")

MAKE_PLAYER = """
from accounts.services import api_token_create, user_create
user = user_create(username="bench-ana", email="ana@example.com", password="a-long-bench-password")
print(api_token_create(user=user, name="bench")[1])
"""


class Site:
    """runserver and a Celery worker on a fresh PostgreSQL database and Redis; stopped on exit."""

    def __init__(self, folder: Path):
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DEBUG="false",
            TOPOS_ALLOW_DEV_SECRET="true",
            TOPOS_BROKER_DIR=str(folder / "broker"),
            TOPOS_CACHE_DIR=str(folder / "cache"),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            LOG_LEVEL="WARNING",
            TOPOS_BOT_DELAY_SCALE="1",  # the bots' real reaction delays: part of the wait
            DATABASE_URL=PG_URL,
            REDIS_URL=REDIS_URL,
            DATABASE_CONN_MAX_AGE="60",
        )
        for scope in ("ANON", "USER", "MOVES"):  # polling every 0.1 s is the bench's, not a person's
            env.setdefault(f"TOPOS_API_RATE_{scope}", "100000/s")
        site_processes.fresh_database(PG_URL)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        site_processes.migrate(env)
        self.key = site_processes.manage_shell(env, MAKE_PLAYER, "making the player").strip().splitlines()[-1]
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

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Token {self.key}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def waits(site: Site, turns: int) -> list[float]:
    status, table = site.call(
        "POST", "/api/tables/", {"game": "topoum", "players": 3, "bots": ["strong", "strong"], "auto_start": False}
    )
    assert status == 201, table
    status, started = site.call("POST", f"/api/tables/{table['id']}/start/", {})
    assert status == 200, started
    out: list[float] = []
    ended_at = None
    stop = time.monotonic() + 60 * turns + 120
    while len(out) < turns and time.monotonic() < stop:
        _, detail = site.call("GET", f"/api/tables/{table['id']}/")
        if detail["status"] != "running":
            break
        if not detail["my_turn"]:
            time.sleep(0.1)
            continue
        if ended_at is not None:
            out.append(time.monotonic() - ended_at)
            print(f"  wait {len(out):>2}: {out[-1]:5.1f} s", flush=True)
            ended_at = None
        legal = [a for a in detail["legal_actions"] if a.get("type") != "undo"]
        action = next((a for a in legal if a.get("type") == "end_turn"), legal[0])
        status, answer = site.call(
            "POST", f"/api/tables/{table['id']}/actions/", {"action": action, "expected_version": detail["version"]}
        )
        assert status in (200, 201), answer
        if action["type"] == "end_turn" and detail["view"]["phase"] == "play":
            ended_at = time.monotonic()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--turns", type=int, default=8, help="waits to measure (default 8)")
    p.add_argument("--burn", type=int, default=1, help="processes burning a core meanwhile (default 1)")
    args = p.parse_args()
    burners = [subprocess.Popen([PYTHON, "-c", "while True: pass"]) for _ in range(args.burn)]
    folder = Path(tempfile.mkdtemp(prefix="bench-bot-wait-"))
    site = None
    try:
        site = Site(folder)
        print(f"3-player Topoum, 2 strong bots, {args.burn} core(s) burnt, {os.cpu_count()} CPUs:")
        measured = waits(site, args.turns)
    finally:
        if site is not None:
            site.stop()
        for b in burners:
            b.kill()
            b.wait()
        shutil.rmtree(folder, ignore_errors=True)
    if not measured:
        sys.exit("no wait measured")
    print(
        f"waits between her turns: {len(measured)}, median {statistics.median(measured):.1f} s, "
        f"max {max(measured):.1f} s (goal: under 10 s)"
    )


if __name__ == "__main__":
    main()
