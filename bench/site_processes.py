"""The site's processes that a benchmark starts for itself: its database made afresh, `manage.py` run on it, and
servers and workers started each in a process group of its own (so that stopping one stops its children too),
writing to a log, then stopped together.

What each bench sets in the environment (settings module, database, broker) stays in the bench; the Celery
worker's command line is the tests' (tests.integration.workers.celery_worker_command).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def fresh_database(url: str) -> None:
    """Drop the PostgreSQL database `url` names, if it is there, and create it empty."""
    name = url.rsplit("/", 1)[1]
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)


def migrate(env: dict[str, str]) -> None:
    subprocess.run([PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)


def manage_shell(env: dict[str, str], script: str, what: str) -> str:
    """What `manage.py shell -c script` printed; if it failed, the bench ends saying `what` failed and why."""
    done = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"{what} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def start(argv: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    """`argv` in a process group of its own, its output added to `log` (processes may share one)."""
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_answering(base: str, path: str, seconds: float) -> None:
    """Until the server at `base` gives `path` any HTTP answer (it is up); the bench ends if none within `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(base + path, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # an answer all the same: the server is up
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise SystemExit(f"nothing answered at {base}{path} within {seconds:.0f} s")


def stop(processes: list[subprocess.Popen], timeout: float) -> None:
    """TERM each process group (CONT first: a bench may have paused one), and KILL it if it lasts `timeout` s more."""
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGCONT)
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
