"""Real `celery -A config worker` processes for the integration tests, on the test database and Redis."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
from urllib.parse import quote

from django.db import connection

ROOT = pathlib.Path(__file__).resolve().parents[2]


def redis_url_of_this_worker(url: str, xdist_worker: str | None) -> str:
    """The test Redis of this pytest process: the database of `url` itself, or under pytest-xdist worker gwN
    the database N below it (each worker empties its own; 15, 14, ... from the default).  Counting down keeps
    the numbers within Redis' 16 databases for the few workers a machine runs."""
    if not xdist_worker:
        return url
    base, _, number = url.rstrip("/").rpartition("/")
    db = int(number or 0) - int(xdist_worker.removeprefix("gw"))
    if db < 1:
        raise RuntimeError(
            f"pytest-xdist worker {xdist_worker} would use Redis database {db} below {url}: "
            "run fewer workers (-n) or point TOPOS_TEST_REDIS_URL at a higher database number"
        )
    return f"{base}/{db}"


TEST_REDIS_URL = redis_url_of_this_worker(
    os.environ.get("TOPOS_TEST_REDIS_URL") or "redis://127.0.0.1:6379/15", os.environ.get("PYTEST_XDIST_WORKER")
)
# Short enough that a message of a killed worker comes back within the test, and the
# hard time limit stays below it as in production.
VISIBILITY_TIMEOUT = 10
TIME_LIMIT = 8


def shared_database_url() -> str:
    """The test database as a URL for another process (PostgreSQL, or SQLite's test file)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    auth = quote(db["USER"] or "postgres")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def celery_worker_command(*more: str, concurrency: int, log_level: str = "info") -> list[str]:
    """`celery -A config worker` as the tests and the benchmarks start it (bench/ imports it from here), with the
    options `more`: without gossip or mingle, as serve.sh starts it (they only serve remote control)."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-l",
        log_level,
        "-c",
        str(concurrency),
        "--without-gossip",
        "--without-mingle",
        *more,
    ]


class Worker:
    """One `celery -A config worker` process group (main process and its pool child).

    On Redis (`broker_dir` None) as in production, or on the embedded default's filesystem
    broker in `broker_dir`, then with the beat inside (`-B`) as `config/scripts/run.sh` starts it.
    """

    def __init__(self, name: str, log_path: pathlib.Path, *, broker_dir: pathlib.Path | None = None, **env):
        self.name, self.log_path = name, log_path
        base_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        broker = {"TOPOS_BROKER_DIR": str(broker_dir)} if broker_dir else {"REDIS_URL": TEST_REDIS_URL}
        full_env = {
            **base_env,
            **broker,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": shared_database_url(),
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "CELERY_TASK_TIME_LIMIT": str(TIME_LIMIT),
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_UNACKED_RESTORE_THROTTLE": "1",
            "TOPOS_BOT_DELAY_SCALE": "0.2",
            "PYTHONPATH": str(ROOT),
            **{k: str(v) for k, v in env.items()},
        }
        self.log = open(log_path, "wb")
        beat = ["-B", "-s", str(broker_dir / f"beat-{name}")] if broker_dir else []
        self.process = subprocess.Popen(
            celery_worker_command("-P", "prefork", "-n", f"{name}@%h", "--without-heartbeat", *beat, concurrency=1),
            cwd=ROOT,
            env=full_env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if " ready." in self.output():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"worker {self.name} did not start:\n{self.output()[-4000:]}")

    def pool_children(self) -> list[int]:
        path = pathlib.Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """SIGKILL the whole group: the machine running the worker died."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


def redis_problem(url: str) -> str | None:
    """Why Redis at `url` cannot serve the tests (a reason to skip with), or None when it answers."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping()
    except Exception as exc:
        return f"needs Redis at {url} (set TOPOS_TEST_REDIS_URL): {exc}"
    return None


def wait_for(check, timeout: float, what: str, interval: float = 0.1):
    """Poll `check()` until it returns something truthy; fail with `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
