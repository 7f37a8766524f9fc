"""Integration with the machine's real PostgreSQL and Redis, and real `celery -A config worker` processes.

The database is chosen by DATABASE_URL as everywhere (config/settings.py): these tests run
only when it points at PostgreSQL, because the worker, another process, must see the
pytest-django test database.  The broker is TOPOS_TEST_REDIS_URL (default
redis://127.0.0.1:6379/15, a database number of its own that the tests empty).  Without
either, the tests are skipped with the reason.
"""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
from urllib.parse import quote

import pytest
from django.db import connection

from config.celery import app
from tests.notifications.relay_game import install

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_REDIS_URL = os.environ.get("TOPOS_TEST_REDIS_URL") or "redis://127.0.0.1:6379/15"
# Short enough that a message of a killed worker comes back within the test, and the
# hard time limit stays below it as in production.
VISIBILITY_TIMEOUT = 10
TIME_LIMIT = 8


def _redis_problem(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping()
    except Exception as exc:
        return f"needs Redis at {url} (set TOPOS_TEST_REDIS_URL): {exc}"
    return None


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL, which a worker process can share: "
                    "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")


@pytest.fixture
def redis_broker(postgres):
    """This process sends its tasks to the test Redis instead of running them inline."""
    problem = _redis_problem(TEST_REDIS_URL)
    if problem:
        pytest.skip(problem)
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    keys = ("broker_url", "task_always_eager", "broker_transport_options")
    saved = {k: app.conf[k] for k in keys}
    app.conf.update(broker_url=TEST_REDIS_URL, task_always_eager=False,
                    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT})
    _drop_connections()
    yield client
    _drop_connections()
    app.conf.update(saved)
    client.flushdb()
    client.close()


def _drop_connections() -> None:
    """Forget the app's pooled broker connections, so the next send uses the broker now configured."""
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


def _database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "postgres")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """One `celery -A config worker` process group (main process and its pool child)."""

    def __init__(self, name: str, log_path: pathlib.Path, **env):
        self.name, self.log_path = name, log_path
        full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": _database_url(),
                    "REDIS_URL": TEST_REDIS_URL, "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
                    "CELERY_TASK_TIME_LIMIT": str(TIME_LIMIT), "CELERY_UNACKED_RESTORE_INTERVAL": "1",
                    "CELERY_UNACKED_RESTORE_THROTTLE": "1", "TOPOS_BOT_DELAY_SCALE": "0.2",
                    "PYTHONPATH": str(ROOT), **{k: str(v) for k, v in env.items()}}
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info", "-c", "1", "-P", "prefork",
             "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-I", "tests.integration.worker_games"],
            cwd=ROOT, env=full_env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

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


@pytest.fixture
def start_worker(redis_broker, tmp_path, monkeypatch):
    """start_worker(name, **env) -> a ready Worker; every worker started is stopped at the end."""
    install(monkeypatch)
    workers: list[Worker] = []

    def start(name: str = "w1", **env) -> Worker:
        worker = Worker(name, tmp_path / f"{name}.log", **env)
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in workers:
        worker.stop()


def wait_for(check, timeout: float, what: str, interval: float = 0.1):
    """Poll `check()` until it returns something truthy; fail with `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
