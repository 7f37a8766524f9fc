"""A real `uvicorn config.asgi:application` process on the test database, and a client for its event streams."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests.deploy.served import free_port
from tests.integration.workers import ROOT, shared_database_url


def uvicorn_command(port: int, *more: str) -> list[str]:
    """`uvicorn config.asgi:application` on `port` as the tests and bench_events start it, with the options `more`:
    no access log (the site logs its requests), and open streams closed 2 s after a TERM."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--timeout-graceful-shutdown",
        "2",
        "--no-access-log",
        *more,
    ]


class Uvicorn:
    """One uvicorn process; `redis_url` set: its streams wait on Redis pub/sub, else they read the database."""

    def __init__(self, log_path: pathlib.Path, *, redis_url: str | None = None, broker_dir: pathlib.Path | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=shared_database_url(), PYTHONPATH=str(ROOT))
        if redis_url:
            env["REDIS_URL"] = redis_url
        if broker_dir:
            env["TOPOS_BROKER_DIR"] = str(broker_dir)
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            uvicorn_command(self.port),
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._wait_ready()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def _wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                break
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"uvicorn did not start:\n{self.output()[-4000:]}")

    def threads(self) -> int:
        status = pathlib.Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))

    def call(self, method: str, path: str, *, token: str, body: dict | None = None) -> tuple[int, dict]:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def stream(self, path: str, *, token: str | None = None, headers: dict | None = None) -> "EventStream":
        sent = {"Accept": "text/event-stream", **(headers or {})}
        if token:
            sent["Authorization"] = f"Token {token}"
        return EventStream(urllib.request.urlopen(urllib.request.Request(self.base + path, headers=sent), timeout=30))

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(15)
        self.log.close()


class EventStream:
    """Reads a server-sent-event stream block by block: {"id", "event", "data", "comment"}."""

    def __init__(self, answer):
        self.answer = answer
        self.status = answer.status
        self.content_type = answer.headers["Content-Type"]

    def next_block(self) -> dict:
        block: dict = {}
        while True:
            line = self.answer.readline()
            if not line:
                raise EOFError("the stream ended")
            line = line.decode().rstrip("\n")
            if not line:
                if block:
                    return block
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                block["comment"] = value
            elif name == "data":
                block["data"] = json.loads(value)
            else:
                block[name] = value

    def next_event(self, kind: str, timeout: float = 30) -> dict:
        """The next event of `kind` (others and comments are skipped); fails after `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            block = self.next_block()
            if block.get("event") == kind:
                return block
        raise AssertionError(f"no {kind} event within {timeout} s")

    def close(self) -> None:
        self.answer.close()
