"""`TOPOS_ASGI=1 serve.sh web`: gunicorn with uvicorn workers on config.asgi, production settings, SQLite.

Pages and static files are served as under the threads; the event streams are answered by the ASGI app in
front of Django (feed.asgi) with the same refusals as the API; TERM stops it all.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request

from tests.deploy.served import ROOT, SERVE, Served, free_port, production_env
from tests.deploy.test_serve import assert_page_with_its_static_files

OPEN_TABLE = """
from accounts.services import user_create
from games.services import game_create
ana = user_create(username="ana", email="ana@example.com", password="a-long-test-password")
print("TABLE", game_create(user=ana, kind="topology", players=2).pk)
"""


def test_the_web_part_under_uvicorn_workers_serves_pages_and_answers_the_streams(tmp_path):
    env = production_env(
        tmp_path / "static",
        free_port(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:1/0",
        TOPOS_ASGI="1",
    )
    prepared = subprocess.run(["bash", str(SERVE), "prepare"], env=env, capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stdout + prepared.stderr
    site = Served(env, tmp_path / "web.log", "web")
    try:
        status, health = site.wait_answer("/healthz/web", healthy=False)
        assert (status, health["checks"]["database"]) == (503, "ok")  # no broker here
        assert_page_with_its_static_files(site)
        status, headers, body = site.get("/api/events/stream/")
        assert status == 401 and {k.lower(): v for k, v in headers.items()}["www-authenticate"] == "Token"
        assert json.loads(body)["error"] == "not_authenticated"
        status, _, body = site.get("/api/tables/999/stream/")
        assert status == 404 and json.loads(body)["detail"] == "There is no table #999 that you can see."
        status, headers, _ = site.get("/api/events/stream/", https=False)
        assert status == 301 and {k.lower(): v for k, v in headers.items()}["location"].startswith("https://")
        assert "Using worker: config.uvicorn_worker.ToposUvicornWorker" in site.output()
        # A table's stream is open to anyone who may see the table: served here although config.production turns
        # the WSGI streams off, so by the ASGI app.
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", OPEN_TABLE],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        table = int(made.stdout.split("TABLE", 1)[1])
        request = urllib.request.Request(
            f"{site.base}/api/tables/{table}/stream/",
            headers={"X-Forwarded-Proto": "https", "Accept": "text/event-stream"},
        )
        with urllib.request.urlopen(request, timeout=30) as stream:
            assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
            lines = [stream.readline().decode().strip() for _ in range(6)]
        assert "event: table" in lines and any(line.startswith('data: {"table":') for line in lines)
    finally:
        status = site.stop(signal.SIGTERM)
        left = site.group_left()
        site.kill_group()
    assert left == [] and status == 0, (left, status)
