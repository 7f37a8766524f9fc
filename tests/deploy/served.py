"""`config/scripts/serve.sh` started for real by the deployment tests, and an HTTP client for it."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVE = ROOT / "config" / "scripts" / "serve.sh"
REAL_KEY = "k3J9x-Vq2m!Zr8Lp0wTy4Hs6Nd1Fb7Gc5Ae2Ui9Oo3Pj8Kl0Mn4Bv6Cx1Zq7Wr5Et2Yu"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(static_root: pathlib.Path, port: int, **extra) -> dict[str, str]:
    """What an operator sets (docs/operations.md, "Deploying"), on this test's database, broker and folders."""
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "SITE_URL", "REDIS_URL")}
    return {
        **base,
        "DJANGO_SETTINGS_MODULE": "config.production",
        "SECRET_KEY": REAL_KEY,
        "SITE_URL": "https://topos.example",
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(static_root),
        "TOPOS_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "WEB_THREADS": "2",
        "TOPOS_SKIP_INSTALL": "1",
        **{k: str(v) for k, v in extra.items()},
    }


def _default_signals() -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


class Served:
    """One `serve.sh [part]` process group (or `script` with `args`, such as run.sh); its output in `log_path`."""

    def __init__(
        self,
        env: dict[str, str],
        log_path: pathlib.Path,
        part: str | None = None,
        *,
        script: pathlib.Path = SERVE,
        args: tuple[str, ...] = (),
    ):
        self.log_path, self.port = log_path, int(env["TOPOS_BIND"].rsplit(":", 1)[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            ["bash", str(script), *([part] if part else []), *args],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            # As typed in a terminal: a test process that ignores Ctrl-C (a worker of the suite may) would pass that
            # on, and bash cannot trap a signal ignored at its start, so serve.sh would never hear the test's Ctrl-C.
            preexec_fn=_default_signals,
        )

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def json_lines(self) -> list[dict]:
        """The JSON log lines (LOG_FORMAT=json) of every process serve.sh started."""
        lines = []
        for line in self.output().splitlines():
            if line.startswith("{"):
                try:
                    lines.append(json.loads(line))
                except ValueError:
                    pass
        return lines

    def get(self, path: str, *, headers: dict | None = None, **kwargs):
        return self.call("GET", path, headers=headers, **kwargs)

    def call(
        self, method: str, path: str, *, headers: dict | None = None, body: dict | None = None, https: bool = True
    ) -> tuple[int, dict, bytes]:
        """(status, headers, body); `https`: as the TLS proxy in front says (X-Forwarded-Proto)."""
        sent = {"Content-Type": "application/json", **(headers or {})}
        if https:
            sent["X-Forwarded-Proto"] = "https"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def wait_answer(self, path: str = "/healthz", *, healthy: bool = True, timeout: float = 180) -> tuple[int, dict]:
        """Poll a health path over plain HTTP (as a load balancer does) until it answers 200, or at all."""
        end = time.monotonic() + timeout
        last = None
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise AssertionError(f"serve.sh ended ({self.process.returncode}):\n{self.output()[-4000:]}")
            try:
                status, _, body = self.get(path, https=False)
                last = body
                if status == 200 or not healthy:
                    return status, json.loads(body)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.5)
        raise AssertionError(f"{path} not healthy after {timeout} s ({last!r}):\n{self.output()[-4000:]}")

    def stop(self, sig=signal.SIGTERM, timeout: float = 90) -> int:
        """Signal serve.sh as Ctrl-C or a supervisor would; its exit status once it is gone."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(30)
        self.log.close()
        return self.process.returncode

    def group_left(self, timeout: float = 15) -> list[str]:
        """What is still running of serve.sh's process group after up to `timeout` s (processes whose parent was
        killed, such as gunicorn's workers after their master, notice it and end within a few seconds)."""
        end = time.monotonic() + timeout
        while (left := self.group_alive()) and time.monotonic() < end:
            time.sleep(0.2)
        return left

    def group_alive(self) -> list[str]:
        """What is left of the process group serve.sh started (gunicorn, worker, beat and their children)."""
        done = subprocess.run(["pgrep", "-g", str(self.process.pid), "-a"], capture_output=True, text=True)
        # A zombie has ended; it only waits for whoever adopted it (here maybe nobody) to collect its status.
        return [line for line in done.stdout.splitlines() if "<defunct>" not in line]

    def kill_group(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect is an answer the tests look at, not one to follow
