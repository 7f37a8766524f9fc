"""How long `bash config/scripts/run.sh` takes to serve: a first start on fresh files, then a second one (decision 26).

Each start is timed from the launch of run.sh to the first 200 of its home page, on a SQLite file and a broker folder
of a throwaway directory (the embedded default, as a newcomer runs it).  The figure the issue asks for is the second
start (goal: under 5 s): nothing to install, nothing to migrate.

    .venv/bin/python bench/bench_start.py [--starts 3] [--skip-install]

--skip-install sets TOPOS_SKIP_INSTALL (a .venv shared with another checkout is left alone); without it, run.sh's
ensure_venv checks its hash stamp (config/scripts/python.sh) and runs pip only when requirements.txt changed.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_start(folder: pathlib.Path, skip_install: bool) -> float:
    port = free_port()
    unset = {"DEBUG", "SECRET_KEY", "SITE_URL", "REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'topos.sqlite3'}",
        TOPOS_BROKER_DIR=str(folder / "broker"),
        TOPOS_CACHE_DIR=str(folder / "cache"),
        TOPOS_STOP_SECONDS="10",
    )
    if skip_install:
        env["TOPOS_SKIP_INSTALL"] = "1"
    log = open(folder / "run.log", "ab")
    start = time.perf_counter()
    process = subprocess.Popen(
        ["bash", str(ROOT / "config/scripts/run.sh"), f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - start
            except OSError:
                pass
            if process.poll() is not None:
                sys.exit(f"run.sh ended (status {process.returncode}); see {folder / 'run.log'}")
            time.sleep(0.05)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=3, help="starts after the first")
    parser.add_argument("--skip-install", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        print(f"first start (fresh files, migrations): {one_start(folder, args.skip_install):.1f} s to serving")
        later = [one_start(folder, args.skip_install) for _ in range(args.starts)]
        print("later starts: " + ", ".join(f"{t:.1f} s" for t in later) + f" (best {min(later):.1f} s)")
        print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
