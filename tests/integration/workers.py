"""Real `celery -A config worker` processes for the integration tests, on the test database and Redis."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
from typing import NamedTuple
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


def celery_env(broker_dir: pathlib.Path | None = None, **env) -> dict[str, str]:
    """The environment of a worker or beat process on the test database, and on the test Redis (or the filesystem
    broker in `broker_dir`), with a short visibility timeout and quick bots; `env` on top."""
    base_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    broker = {"TOPOS_BROKER_DIR": str(broker_dir)} if broker_dir else {"REDIS_URL": TEST_REDIS_URL}
    return {
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


class Email(NamedTuple):
    """One email as config/console_mail.py printed it: its headers (From, To, Subject, ...) and its plain text."""

    headers: dict[str, str]
    body: str

    @property
    def subject(self) -> str:
        return self.headers.get("Subject", "")

    @property
    def to(self) -> list[str]:
        return [address.strip() for address in self.headers.get("To", "").split(",") if address.strip()]


def printed_emails(text: str) -> list[Email]:
    """The emails in the console mailer's output `text` (config/console_mail.py): each between two rules, a line
    saying why it is printed, its headers, a blank line, its plain-text body decoded."""
    from config.console_mail import RULE

    emails = []
    for block in text.split(f"{RULE}\n")[1::2]:  # rule, email, rule: the odd pieces are the emails
        _, _, letter = block.partition("\n")  # "An email, printed here as no mail server is set ..."
        head, _, body = letter.partition("\n\n")
        headers = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
        emails.append(Email(headers, body.rstrip("\n")))
    return emails


class Worker:
    """One `celery -A config worker` process group (main process and its pool child).

    On Redis (`broker_dir` None) as in production, or on the embedded default's filesystem
    broker in `broker_dir`, then with the beat inside (`-B`) as `config/scripts/run.sh` starts it
    (on Redis too with `beat=True`).

    Its console mailer writes its emails to `emails_path` (beside its log, `emails()` reads them) through
    TOPOS_EMAIL_CONSOLE_FD, as `run.sh`'s supervisor hands it its console (config/scripts/supervise.py).
    """

    def __init__(
        self, name: str, log_path: pathlib.Path, *, broker_dir: pathlib.Path | None = None, beat: bool = False, **env
    ):
        self.name, self.log_path = name, log_path
        self.log = open(log_path, "wb")
        self.emails_path = log_path.with_name(f"{log_path.stem}-emails.txt")
        # Appending: the main process and its pool child each write whole emails, one write each.
        self.mail = open(self.emails_path, "ab")
        env = {**env, "TOPOS_EMAIL_CONSOLE_FD": self.mail.fileno()}
        schedule = (broker_dir or log_path.parent) / f"beat-{name}"
        beat_options = ["-B", "-s", str(schedule)] if broker_dir or beat else []
        self.process = subprocess.Popen(
            self.command(beat_options),
            cwd=ROOT,
            env=celery_env(broker_dir, **env),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            pass_fds=(self.mail.fileno(),),
            start_new_session=True,
        )

    def command(self, beat: list[str]) -> list[str]:
        return celery_worker_command(
            "-P", "prefork", "-n", f"{self.name}@%h", "--without-heartbeat", *beat, concurrency=1
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def emails(self) -> list[Email]:
        """The emails this worker sent so far, as its console mailer printed them."""
        return printed_emails(self.emails_path.read_text(errors="replace"))

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
        self.mail.close()


class Beat(Worker):
    """`celery -A config beat` on the test Redis, as `serve.sh beat` runs it: exactly one in a deployment."""

    def command(self, beat: list[str]) -> list[str]:
        schedule = self.log_path.with_name(f"{self.name}-schedule")
        return [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "info", "-s", str(schedule)]

    def wait_ready(self, timeout: float = 60) -> None:
        wait_for(lambda: "beat: Starting" in self.output() or self.process.poll() is not None, timeout, "beat")
        assert self.process.poll() is None, self.output()[-4000:]


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
