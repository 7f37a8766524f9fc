"""The embedded default's processes, supervised as one group (`config/scripts/run.sh` execs this).

    supervise.py [--dev] [ADDRESS]      the web server, and without REDIS_URL a Celery worker and beat beside it
    supervise.py beat-locked ARGV...    ARGV (a `celery beat`) run holding the broker folder's beat lock

The web server is gunicorn with uvicorn workers on config.asgi, as `serve.sh web` runs it with TOPOS_ASGI=1 (an open
event stream holds no thread); `--dev` swaps it for Django's runserver, which reloads on every code change.  Without
REDIS_URL the filesystem broker in TOPOS_BROKER_DIR carries the tasks to a worker, and a separate `celery beat`
queues the periodic ones; they start once the web server answers, so as not to slow its start (decision 26), and the
worker prints its emails on this console, not in its log (config/console_mail.py).  Each runs in a process group of
its own, so that nothing of one survives it:
- a worker that dies is restarted (its pool children killed first); one dying RESTART_LIMIT times within
  RESTART_WINDOW seconds stops everything with a message, as a broken setting would make it loop for ever;
- beat holds an exclusive lock on TOPOS_BROKER_DIR/beat.lock for as long as it runs (the kernel drops it when
  the process dies, however), so a second beat on the same broker refuses to start: periodic tasks (deadlines,
  reminders, digests) are never queued twice;
- the web server dying, or beat refusing, stops everything;
- SIGINT (Ctrl-C) or SIGTERM stops everything: TERM to each, a warm shutdown (a bot finishes its move, a
  request its answer) of up to STOP_SECONDS, then KILL.  Were this process itself killed, each child gets TERM from
  the kernel (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
STOP_SECONDS = float(os.environ.get("TOPOS_STOP_SECONDS") or 30)
RESTART_LIMIT, RESTART_WINDOW = 5, 60.0
WEB_WAIT = 60.0  # at most this long the worker and beat wait for the web part to answer before starting
BEAT_REFUSED = 3  # beat-locked's exit status when another beat holds the lock
PR_SET_PDEATHSIG = 1


def say(message: str) -> None:
    print(f"run.sh: {message}", file=sys.stderr, flush=True)


def beat_locked(argv: list[str]) -> None:
    """Take the beat lock, then become `argv`: the lock's descriptor stays open across exec, held by beat itself."""
    lock_path = Path(os.environ.get("TOPOS_BROKER_DIR") or ROOT / ".broker") / "beat.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        say(f"another Celery beat (pid {holder}) holds {lock_path}: refusing to start a second one")
        sys.exit(BEAT_REFUSED)
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    os.set_inheritable(fd, True)
    os.execv(argv[0], argv)


_console: list[int] = []


def console() -> int:
    """A copy of this process's standard output (the console run.sh shows), as a descriptor the parts keep even
    with their own output sent to a log."""
    if not _console:
        _console.append(os.dup(sys.stdout.fileno()))
    return _console[0]


def _die_with_parent() -> None:
    """In the child before exec: TERM when the supervisor goes, even by SIGKILL."""
    os.setsid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass  # not Linux: Ctrl-C and TERM still stop everything


class Part:
    """One supervised command, in a process group of its own."""

    def __init__(self, name: str, argv: list[str], log: Path | None, *, restart: bool, term_group: bool = False):
        self.name, self.argv, self.log_path, self.restart = name, argv, log, restart
        # TERM to the leader alone, which stops its children itself (gunicorn its workers, Celery its pool, waiting
        # for the task under way); a pool child TERMed directly dies mid-task and leaves its master waiting.
        # runserver's reloader does not pass TERM on to the server it runs: both get it.
        self.term_group = term_group
        self.process: subprocess.Popen | None = None
        self.deaths: list[float] = []

    def start(self) -> None:
        out = open(self.log_path, "ab") if self.log_path else None
        env, keep = None, ()
        if out:
            # Decision 26: its emails are printed on this console all the same (config/console_mail.py), not in its log.
            env, keep = {**os.environ, "TOPOS_EMAIL_CONSOLE_FD": str(console())}, (console(),)
        self.process = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT if out else None,
            preexec_fn=_die_with_parent,
            env=env,
            pass_fds=keep,
        )
        if out:
            out.close()

    def terminate(self) -> None:
        if self.term_group:
            self.signal_group(signal.SIGTERM)
        elif self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def signal_group(self, sig: int) -> None:
        if self.process is not None:
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                pass

    def group_alive(self) -> bool:
        """Whether a process of its group still runs (an ended one, not yet reaped by whoever adopted it, does not)."""
        if self.process is None:
            return False
        self.process.poll()  # reap the leader
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == self.process.pid and fields[0] != "Z":  # the process group, the state
                return True
        return False


def parts(address: str, dev: bool) -> list[Part]:
    python = str(BIN / "python")
    if dev:
        web = Part("web", [python, "manage.py", "runserver", address], None, restart=False, term_group=True)
    else:
        os.environ["TOPOS_BIND"] = address
        os.environ.setdefault("TOPOS_ASGI", "1")  # uvicorn workers: open event streams hold no thread
        # SQLite has one writer: more processes than cores add memory, not moves (docs/embedded.md).
        os.environ.setdefault("WEB_CONCURRENCY", str(os.cpu_count() or 2))
        # No recycling after so many requests (decision 28): a process leaving under load cancels, after uvicorn's
        # 5 s grace for the streams, the requests still queued in front of Django (129 of a burst of 1,000 got 500).
        os.environ.setdefault("WEB_MAX_REQUESTS", "0")
        web = Part("web", [str(BIN / "gunicorn"), "-c", "config/gunicorn.conf.py"], None, restart=False)
    if os.environ.get("REDIS_URL"):
        return [web]  # a real broker: worker and beat are started apart (docs/operations.md)
    broker = Path(os.environ.get("TOPOS_BROKER_DIR") or ROOT / ".broker")
    broker.mkdir(parents=True, exist_ok=True)
    celery = str(BIN / "celery")
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    worker_argv = [celery, "-A", "config", "worker", "-l", "info", *quiet]
    worker = Part("worker", worker_argv, broker / "worker.log", restart=True)
    beat_argv = [celery, "-A", "config", "beat", "-l", "info", "-s", str(broker / "celerybeat-schedule")]
    beat = Part(
        "beat", [python, str(Path(__file__).resolve()), "beat-locked", *beat_argv], broker / "beat.log", restart=True
    )
    return [web, worker, beat]


def answers(address: str) -> bool:
    """Whether something accepts connections at `address` (HOST:PORT; a wildcard host asked on loopback)."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    try:
        with socket.create_connection((host, int(port)), timeout=0.5):
            return True
    except (OSError, ValueError):
        return False


class Supervisor:
    def __init__(self, running: list[Part], address: str = ""):
        self.parts = running
        self.address = address
        self.stopping: int | None = None

    def start_web_first(self) -> None:
        """The web part, then the others once it answers (decision 26: on two cores, the worker and beat starting
        beside it slowed the site's start by seconds), or once it ended or WEB_WAIT seconds passed."""
        web, others = self.parts[0], self.parts[1:]
        web.start()
        end = time.monotonic() + WEB_WAIT
        while others and self.address and self.stopping is None and time.monotonic() < end:
            if web.process.poll() is not None or answers(self.address):
                break
            time.sleep(0.1)
        for part in others:
            part.start()

    def on_signal(self, signum, frame) -> None:
        self.stopping = signum

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.on_signal)
        signal.signal(signal.SIGTERM, self.on_signal)
        self.start_web_first()
        say(", ".join(f"{p.name} (pid {p.process.pid})" for p in self.parts) + " started")
        for part in self.parts:
            if part.log_path:
                say(f"the {part.name}'s log is {part.log_path}")
        status = 0
        while self.stopping is None:
            ended = next((p for p in self.parts if p.process.poll() is not None), None)
            if ended is None:
                time.sleep(0.2)
                continue
            code = ended.process.returncode
            ended.signal_group(signal.SIGKILL)  # what it leaves (a worker's pool children) goes with it
            now = time.monotonic()
            ended.deaths = [t for t in ended.deaths if now - t < RESTART_WINDOW] + [now]
            if ended.name == "beat" and code == BEAT_REFUSED:
                say("another beat already runs on this broker folder (another run.sh?); stopping")
                status = 1
                break
            if not ended.restart:
                say(f"the {ended.name} ended (status {code}); stopping everything")
                status = 128 - code if code < 0 else code or 1  # killed by a signal: as a shell reports it
                break
            if len(ended.deaths) >= RESTART_LIMIT:
                say(
                    f"the {ended.name} died {len(ended.deaths)} times within {RESTART_WINDOW:.0f} s (see "
                    f"{ended.log_path}); stopping everything"
                )
                status = 1
                break
            say(f"the {ended.name} ended (status {code}); starting it again")
            ended.start()
            say(f"{ended.name} restarted (pid {ended.process.pid})")
        if self.stopping is not None:
            say("stopping")
            status = 128 + self.stopping
        self.stop()
        return status

    def stop(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not cut the warm shutdown short
        for part in self.parts:
            part.terminate()
        end = time.monotonic() + STOP_SECONDS
        while any(p.group_alive() for p in self.parts) and time.monotonic() < end:
            time.sleep(0.1)
        for part in self.parts:
            part.signal_group(signal.SIGKILL)
            if part.process is not None:
                part.process.wait()


def main(argv: list[str]) -> int:
    if argv[:1] == ["beat-locked"]:
        beat_locked(argv[1:])
    dev = "--dev" in argv
    rest = [a for a in argv if a != "--dev"]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        say("usage: run.sh [--dev] [ADDRESS]   (ADDRESS such as 127.0.0.1:8000 or 0.0.0.0:8080)")
        return 2
    address = rest[0] if rest else "127.0.0.1:8000"
    return Supervisor(parts(address, dev), address).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
