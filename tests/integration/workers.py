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
TEST_REDIS_URL = os.environ.get("TOPOS_TEST_REDIS_URL") or "redis://127.0.0.1:6379/15"
# Short enough that a message of a killed worker comes back within the test, and the
# hard time limit stays below it as in production.
VISIBILITY_TIMEOUT = 10
TIME_LIMIT = 8


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
             "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"],
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


def wait_for(check, timeout: float, what: str, interval: float = 0.1):
    """Poll `check()` until it returns something truthy; fail with `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
