"""The production setup for real: `config/scripts/serve.sh` with config.production and DEBUG false.

On PostgreSQL and Redis (as CI has them) the whole of it runs on the test database: collectstatic, migrate,
gunicorn, a Celery worker and beat.  The test fetches a page with its hashed, compressed CSS and the API's
documentation with its JavaScript, waits for /healthz to see the worker's heartbeat and beat's last run,
plays a move over HTTP against a bot and sees the bot's answer come from the worker, reads the JSON log lines
of both, then presses Ctrl-C and finds nothing left running.  Without PostgreSQL and Redis that test is
skipped; the web part alone still runs under gunicorn on a SQLite file (stopped by TERM, as a supervisor does),
and serve.sh still stops everything when one of its processes dies.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess

import pytest
from django.db import connection

from accounts.services import api_token_create
from games.models import Action
from tests.deploy.served import SERVE, Served, free_port, production_env
from tests.integration.workers import TEST_REDIS_URL, redis_problem, shared_database_url, wait_for

CSS_LINK = re.compile(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"')
SWAGGER_JS = re.compile(r'src="(/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle\.[0-9a-f]{12}\.js)"')


def assert_page_with_its_static_files(site: Served) -> None:
    status, _, page = site.get("/")
    assert status == 200, page[-2000:]
    (css,) = CSS_LINK.findall(page.decode())  # collected under a hashed name (manifest storage)
    status, headers, body = site.get(css, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert headers.get("Content-Encoding") == "gzip" and "immutable" in headers["Cache-Control"], headers
    status, _, docs = site.get("/api/docs/")
    assert status == 200
    (script,) = SWAGGER_JS.findall(docs.decode())
    status, headers, body = site.get(script)
    assert status == 200 and "javascript" in headers["Content-Type"] and len(body) > 100_000


def test_serve_refuses_to_start_without_its_database_and_broker(tmp_path):
    env = production_env(tmp_path / "static", free_port())
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    done = subprocess.run(["bash", str(SERVE)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "DATABASE_URL" in done.stderr and "REDIS_URL" in done.stderr and "run.sh" in done.stderr


def test_gunicorn_refuses_to_serve_before_collectstatic(tmp_path):
    env = production_env(
        tmp_path / "never-collected",
        free_port(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:1/0",
    )
    done = subprocess.run(["bash", str(SERVE), "web"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "run `python manage.py collectstatic --noinput` first" in done.stdout + done.stderr


def test_the_web_part_under_gunicorn_serves_pages_with_their_static_files_on_sqlite(tmp_path):
    """`serve.sh prepare` then `serve.sh web` with production settings, on SQLite, with no broker to reach."""
    env = production_env(
        tmp_path / "static",
        free_port(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:1/0",
    )
    prepared = subprocess.run(["bash", str(SERVE), "prepare"], env=env, capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stdout + prepared.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()
    site = Served(env, tmp_path / "web.log", "web")
    try:
        # The load balancer's check, over plain HTTP: answered, not redirected to HTTPS.  The broker is down here,
        # and the answer says so without saying where it is.
        status, health = site.wait_answer("/healthz/web", healthy=False)
        assert (status, health["failing"], health["checks"]["database"]) == (503, ["broker"], "ok")
        assert "127.0.0.1" not in json.dumps(health) and "redis" not in json.dumps(health)
        assert_page_with_its_static_files(site)
        status, headers, _ = site.get("/", https=False)
        assert status == 301 and headers["Location"].startswith("https://")  # config.production: HTTPS only
    finally:
        status = site.stop(signal.SIGTERM)  # as a supervisor stops it
        left = site.group_left()
        site.kill_group()
    assert left == [] and status == 0, (left, status)


def test_when_one_process_dies_serve_stops_the_others_and_says_so(tmp_path):
    """A supervisor restarting serve.sh must never find half a site: gunicorn killed, the worker and beat go too."""
    env = production_env(
        tmp_path / "static",
        free_port(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        REDIS_URL="redis://127.0.0.1:1/0",
        TOPOS_STOP_SECONDS=15,
        CELERY_BEAT_SCHEDULE_FILE=tmp_path / "beat" / "schedule",
    )
    site = Served(env, tmp_path / "serve.log")
    try:
        site.wait_answer("/healthz/web", healthy=False)  # gunicorn answers (the broker is down: 503)
        master = min(int(line.split()[0]) for line in site.group_alive() if "gunicorn -c" in line)
        os.kill(master, signal.SIGKILL)
        status = site.process.wait(60)
        left = site.group_left()
    finally:
        site.stop()
        site.kill_group()
    assert left == [] and status == 128 + signal.SIGKILL, (left, status)
    assert "a process ended (status 137); stopping the others" in site.output()


@pytest.fixture
def postgres_and_redis(transactional_db):
    """The test database on PostgreSQL (shared with serve.sh's processes) and an empty Redis database of the tests'."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL, which serve.sh's processes can share: "
            "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos"
        )
    problem = redis_problem(TEST_REDIS_URL)
    if problem:
        pytest.skip(problem)
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    yield
    client.flushdb()
    client.close()


def play_my_turn(site: Served, key: str, table: int) -> int:
    """Her whole turn over HTTP, decision by decision as a client would; the version after it."""
    auth = {"Authorization": f"Token {key}"}
    while True:
        status, _, body = site.get(f"/api/tables/{table}/", headers=auth)
        detail = json.loads(body)
        assert status == 200 and detail["my_turn"], detail
        legal = [a for a in detail["legal_actions"] if a.get("type") != "undo"]
        action = next((a for a in legal if a.get("type") == "end_turn"), legal[0])
        status, _, body = site.call(
            "POST",
            f"/api/tables/{table}/actions/",
            headers=auth,
            body={"action": action, "expected_version": detail["version"]},
        )
        answer = json.loads(body)
        assert status in (200, 201), answer
        if not answer["my_turn"]:
            return answer["version"]


@pytest.mark.postgres
@pytest.mark.redis
def test_serve_runs_the_site_on_postgresql_and_redis_and_a_bot_answers_from_the_worker(
    postgres_and_redis, owner, tmp_path
):
    env = production_env(
        tmp_path / "static",
        free_port(),
        DATABASE_URL=shared_database_url(),
        REDIS_URL=TEST_REDIS_URL,
        CELERY_WORKER_CONCURRENCY=1,
        LOG_FORMAT="json",
        TOPOS_HEARTBEAT_SECONDS=2,
        TOPOS_BOT_DELAY_SCALE=0,
        CELERY_BEAT_SCHEDULE_FILE=tmp_path / "beat" / "schedule",
    )
    site = Served(env, tmp_path / "serve.log")
    try:
        # Healthy means a worker ran beat's heartbeat: both are up and share the database with the web.
        status, health = site.wait_answer("/healthz")
        assert health == {"status": "ok", "checks": {"database": "ok", "broker": "ok", "worker": "ok", "beat": "ok"}}
        assert_page_with_its_static_files(site)

        _, key = api_token_create(user=owner, name="deploy test")
        auth = {"Authorization": f"Token {key}"}
        status, _, body = site.call(
            "POST", "/api/tables/", headers=auth, body={"game": "topoum", "players": 2, "bots": ["greedy"]}
        )
        assert status == 201, body
        table = json.loads(body)["id"]
        # Full at its creation (the other seat a bot) and the API's auto_start on by default: the table deals
        # itself at once (decision 26, point 7), so a start asked afterwards is refused.
        status, _, body = site.call("POST", f"/api/tables/{table}/start/", headers=auth, body={})
        assert status == 409, body
        wait_for(
            lambda: json.loads(site.get(f"/api/tables/{table}/", headers=auth)[2])["my_turn"],
            60,
            "her first turn (the bot may begin)",
        )
        mine = play_my_turn(site, key, table)
        # The answer to her move came before the bot moved; the worker plays the bot's turn afterwards.
        wait_for(
            lambda: json.loads(site.get(f"/api/tables/{table}/", headers=auth)[2])["my_turn"], 90, "the bot's answer"
        )
        assert Action.objects.filter(game_id=table, source="bot", seq__gt=mine).exists()

        lines = site.json_lines()
        moves = [
            line
            for line in lines
            if line.get("event") == "request"
            and line["method"] == "POST"
            and line["path"] == f"/api/tables/{table}/actions/"
        ]
        assert moves and all(
            line["user_id"] == owner.pk and line["game_id"] == table and line["status"] in (200, 201) for line in moves
        )
        bot_tasks = [
            line
            for line in lines
            if line.get("event") == "task" and line["task"] == "games.tasks.bot_move" and line["game_id"] == table
        ]
        assert bot_tasks and all(line["outcome"] == "success" and line["duration_ms"] >= 0 for line in bot_tasks)
    finally:
        status = site.stop(signal.SIGINT)
        left = site.group_left()
        site.kill_group()
    # Ctrl-C stops gunicorn, the worker and beat, and serve.sh says how it ended.
    assert left == [] and status == 130, (left, status)
