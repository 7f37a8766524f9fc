"""The embedded default for real: `config/scripts/run.sh ADDRESS` (config/scripts/supervise.py) on a SQLite file and
the filesystem broker of the test's own.

One run.sh serves the module's first four tests, in order: gunicorn with uvicorn workers answers (not runserver),
the demo account logs in, the database is in WAL mode and /healthz hears the worker and beat; a killed worker is
restarted while beat runs on untouched; a second beat on the same broker refuses to start; Ctrl-C leaves nothing.
Then `run.sh --dev ADDRESS` serves with runserver on the same files, and stops everything when its server dies.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import os
import pathlib
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.deploy.served import ROOT, Served, _NoRedirect, free_port

RUN = ROOT / "config" / "scripts" / "run.sh"
SUPERVISE = ROOT / "config" / "scripts" / "supervise.py"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def embedded_env(folder: pathlib.Path, port: int) -> dict[str, str]:
    """What a newcomer has: no settings at all, only this test's files (and the shared virtualenv, installed)."""
    unset = {"DEBUG", "SECRET_KEY", "SITE_URL", "REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    return {
        **{k: v for k, v in os.environ.items() if k not in unset},
        "DATABASE_URL": f"sqlite:///{folder / 'topos.sqlite3'}",
        "TOPOS_BROKER_DIR": str(folder / "broker"),
        "TOPOS_CACHE_DIR": str(folder / "cache"),
        "TOPOS_BIND": f"127.0.0.1:{port}",  # read by Served only: run.sh takes the address as its argument
        "TOPOS_SKIP_INSTALL": "1",
        "TOPOS_STOP_SECONDS": "20",
        "WEB_CONCURRENCY": "1",
    }


def processes() -> dict[int, tuple[int, str, str]]:
    """Every process: pid -> (parent, state, command line)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            command = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        found[int(pid)] = (int(fields[1]), fields[0], command.strip())
    return found


def descendants(root: int) -> dict[int, str]:
    """What `root` started, and what they started (in process groups of their own), still running."""
    table = processes()
    out, todo = {}, [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, state, command) in table.items():
            if ppid == parent and state != "Z":
                out[pid] = command
                todo.append(pid)
    return out


def still_running(pids, timeout: float = 20) -> list[str]:
    end = time.monotonic() + timeout
    while True:
        table = processes()
        left = [f"{pid} {table[pid][2]}" for pid in pids if pid in table and table[pid][1] != "Z"]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.2)


def wait_for_output(site: Served, text: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while text not in site.output():
        assert time.monotonic() < end, f"{text!r} never said:\n{site.output()[-3000:]}"
        time.sleep(0.2)


def log_in(site: Served, username: str, password: str) -> int:
    """The login form as a browser sends it; the answer's status (302: logged in and sent on)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect)
    with opener.open(site.base + "/accounts/login/", timeout=30) as page:
        token = CSRF.search(page.read().decode()).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password})
    try:
        with opener.open(site.base + "/accounts/login/", data=form.encode(), timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("embedded")


@pytest.fixture(scope="module")
def embedded(folder):
    port = free_port()
    site = Served(embedded_env(folder, port), folder / "run.log", script=RUN, args=(f"127.0.0.1:{port}",))
    site.wait_answer("/healthz", timeout=240)  # the worker and beat heard from, too
    yield site
    site.stop(signal.SIGKILL if site.process.poll() is None else signal.SIGTERM)
    for pid in descendants(site.process.pid):
        os.killpg(pid, signal.SIGKILL)


def parts(site: Served) -> dict[str, list[int]]:
    """The supervisor's children by kind (pids)."""
    found: dict[str, list[int]] = {"web": [], "worker": [], "beat": []}
    for pid, (ppid, state, command) in processes().items():
        if ppid != site.process.pid or state == "Z":
            continue
        kind = "web" if "gunicorn" in command or "runserver" in command else "beat" if " beat " in command else "worker"
        found[kind].append(pid)
    return found


def test_run_serves_with_gunicorn_and_uvicorn_on_sqlite_in_wal_mode_and_the_demo_logs_in(embedded, folder):
    output = embedded.output()
    assert "Using worker: config.uvicorn_worker.ToposUvicornWorker" in output
    assert "Starting development server" not in output and "runserver" not in output
    assert log_in(embedded, "demo", "topos-demo") == 302
    assert log_in(embedded, "demo", "wrong-password") == 200  # the form again, with its error
    with sqlite3.connect(folder / "topos.sqlite3") as database:
        assert database.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert {kind: len(pids) for kind, pids in parts(embedded).items()} == {"web": 1, "worker": 1, "beat": 1}
    # Decision 28: served with DEBUG off, so with a key of its own, made beside the database and kept there; the pages
    # still get their static files (WhiteNoise), and an unknown address is the site's own 404 page.
    assert (folder / "secret-key").stat().st_mode & 0o077 == 0
    with urllib.request.urlopen(embedded.base + "/static/css/site.css", timeout=30) as sheet:
        assert sheet.status == 200 and sheet.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(embedded.base + "/no-such-page/", timeout=30)
    assert missing.value.code == 404 and "Page not found" in missing.value.read().decode()


INVITE = """
from accounts.models import User
from games import services
ana = User.objects.create_user("mail-ana", "mail-ana@example.com", "a-long-password-for-ana")
User.objects.create_user("mail-bruno", "mail-bruno@example.com", "a-long-password-for-bruno")
game = services.game_create(user=ana, kind="topology", players=2)
services.game_invite(user=ana, game_id=game.pk, username="mail-bruno")
print("table", game.pk)
"""


def test_an_email_the_worker_sends_is_printed_readably_on_the_console(embedded, folder):
    # Decision 26: the invitation's email goes out from the worker (its log is broker/worker.log), and shows on the
    # console run.sh shows, plain text, its link whole on its line.
    env = {**embedded_env(folder, embedded.port), "DEBUG": "true", "SITE_URL": embedded.base}
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", INVITE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    table = re.search(r"table (\d+)", made.stdout).group(1)
    wait_for_output(embedded, "To: mail-bruno@example.com")
    printed = embedded.output().split("To: mail-bruno@example.com", 1)[1]
    assert f"Open the game: {embedded.base}/tables/{table}/" in printed.splitlines()
    assert f"{embedded.base}/accounts/notifications/" in printed.splitlines()
    assert "mail-bruno@example.com" not in (folder / "broker" / "worker.log").read_text(errors="replace")


def test_the_activation_email_the_web_sends_is_printed_with_its_link_whole(embedded):
    # Decision 26: it was printed quoted-printable, its link cut in two ("=" at the end of the first line).
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect)
    with opener.open(embedded.base + "/accounts/signup/", timeout=30) as page:
        token = CSRF.search(page.read().decode()).group(1)
    password = "a-long-password-for-carla"
    form = {"username": "mail-carla", "email": "mail-carla@example.com", "password1": password, "password2": password}
    try:
        opener.open(
            embedded.base + "/accounts/signup/",
            data=urllib.parse.urlencode({"csrfmiddlewaretoken": token, **form}).encode(),
            timeout=30,
        )
    except urllib.error.HTTPError as redirect:
        assert redirect.code == 302
    wait_for_output(embedded, "To: mail-carla@example.com")
    printed = embedded.output().split("To: mail-carla@example.com", 1)[1]
    (link,) = re.findall(rf"^{re.escape(embedded.base)}/accounts/activate/\S+/$", printed, re.M)
    assert "=\n" not in printed.split("-" * 79)[0]
    with urllib.request.urlopen(link, timeout=30) as page:  # the link as copied from the console works
        assert page.status == 200


def test_a_killed_worker_is_restarted_and_beat_stays_single(embedded, folder):
    before = parts(embedded)
    (worker,) = before["worker"]
    pool = [pid for pid, (ppid, _, _) in processes().items() if ppid == worker]
    assert pool, "the worker's pool children"
    os.kill(worker, signal.SIGKILL)  # its main process only, as the OOM killer would
    wait_for_output(embedded, "the worker ended (status -9); starting it again")
    wait_for_output(embedded, "worker restarted (pid ")
    assert still_running(pool) == []  # its orphaned pool went with it
    end = time.monotonic() + 120
    while (folder / "broker" / "worker.log").read_text(errors="replace").count(" ready.") < 2:
        assert time.monotonic() < end, "the new worker never became ready"
        time.sleep(0.2)
    after = parts(embedded)
    assert len(after["worker"]) == 1 and after["worker"] != before["worker"]
    assert after["beat"] == before["beat"]  # still the one beat: the worker never ran one


def test_a_second_beat_on_the_same_broker_refuses_to_start(embedded, folder):
    env = embedded_env(folder, embedded.port)
    second = subprocess.run(
        [sys.executable, str(SUPERVISE), "beat-locked", sys.executable, "-c", "print('a second beat ran')"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 3, second.stdout + second.stderr
    (beat,) = parts(embedded)["beat"]
    assert f"another Celery beat (pid {beat}) holds" in second.stderr
    assert "a second beat ran" not in second.stdout


def test_ctrl_c_stops_everything_and_leaves_nothing(embedded):
    started = descendants(embedded.process.pid)
    assert any("celery" in command and " beat " in command for command in started.values())
    status = embedded.stop(signal.SIGINT)
    assert status == 128 + signal.SIGINT
    assert still_running(started) == []
    assert "run.sh: stopping" in embedded.output()


def test_dev_serves_with_runserver_and_stops_everything_when_the_server_dies(folder, embedded):
    # Only one run.sh may hold the broker's beat lock.  Under xdist the Ctrl-C test may have run on another worker,
    # leaving this worker's run still up: end it first so that the --dev run can take the lock.
    if embedded.process.poll() is None:
        embedded.stop(signal.SIGINT)
    assert embedded.process.poll() is not None
    port = free_port()
    site = Served(embedded_env(folder, port), folder / "dev.log", script=RUN, args=("--dev", f"127.0.0.1:{port}"))
    try:
        site.wait_answer("/healthz/web", healthy=False, timeout=240)
        assert log_in(site, "demo", "topos-demo") == 302
        wait_for_output(site, "development server at http://127.0.0.1:")
        started = descendants(site.process.pid)
        (server,) = parts(site)["web"]
        os.kill(server, signal.SIGKILL)
        status = site.process.wait(60)
        assert status == 128 + signal.SIGKILL
        assert "the web ended (status -9); stopping everything" in site.output()
        assert still_running(started) == []
    finally:
        site.stop(signal.SIGKILL)
        for pid in descendants(site.process.pid):
            os.killpg(pid, signal.SIGKILL)


def test_at_most_the_bound_of_requests_are_inside_django_at_once_and_the_rest_wait_their_turn():
    """A burst queues as coroutines (config.asgi.bounded) instead of becoming a thread and a database connection a
    request: 1,000 POSTs at once on SQLite gave 336 answers of 500 (the lock's timeout) without it."""
    from config.asgi import bounded

    inside, most, answered = 0, 0, []

    async def django(scope, receive, send):
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        await asyncio.sleep(0.01)
        inside -= 1
        answered.append(scope["path"])

    async def burst():
        app = bounded(django, 3)
        await asyncio.gather(*(app({"type": "http", "path": f"/{n}"}, None, None) for n in range(50)))
        await app({"type": "lifespan", "path": "/other"}, None, None)  # not HTTP: not counted, never waits

    asyncio.run(burst())
    assert most == 3 and len(answered) == 51
    assert answered[:50] == [f"/{n}" for n in range(50)]  # in the order they came
