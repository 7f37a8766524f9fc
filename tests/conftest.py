"""Shared fixtures: three personas (owner, member, outsider) and API clients for them."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.utils import timezone, translation
from rest_framework.test import APIClient

from accounts import token_uses
from accounts.services import api_token_create, user_create
from config.celery import app as celery_app
from config.redis_clients import outages_forgotten

# Fixtures a test asks for by name wherever it sits (decision 15: a test sits with what it tests, not with the
# folder that once held its fixtures).
pytest_plugins = ["tests.fixtures_streams", "tests.fixtures_tasks"]


@pytest.fixture(autouse=True)
def site_language_between_tests():
    """Each test starts in the site's language and zone.

    A request activates its reader's language and time zone on the thread that serves it (accounts.personal), as
    Django's LocaleMiddleware does; the test client serves requests on the test's own thread, so a Spanish
    reader's request would otherwise leave the next test reading Spanish.
    """
    yield
    translation.deactivate()
    timezone.deactivate()


@pytest.fixture(autouse=True)
def token_uses_forgotten_between_tests():
    """Each test starts with no token use noted by this process (accounts.token_uses).

    SQLite gives a rolled-back test's token id to the next test's token, which would otherwise find its use
    "already noted" by the earlier one and note nothing.
    """
    yield
    token_uses._noted_here.clear()


@pytest.fixture(autouse=True)
def outages_forgotten_between_tests():
    """Each test starts with no Redis outage logged by this process (config.redis_clients.outage_log), so a test
    that looks for the line finds it even when an earlier one logged the same kind a moment ago."""
    yield
    outages_forgotten()


def use_filesystem_broker(folder: Path) -> None:
    """Send this process's tasks to kombu's filesystem broker in `folder` (the embedded default's broker)."""
    for sub in ("queue", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    celery_app.conf.update(
        broker_url="filesystem://",
        broker_transport_options={
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "control_folder": str(folder / "control"),
            "polling_interval": 0.1,
        },
    )
    drop_broker_connections()


def drop_broker_connections() -> None:
    """Forget the app's pooled broker connections, so the next send uses the broker now configured."""
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


# Whatever the environment says, the tests' tasks never land in a developer's own .broker/ (where a
# running worker would take them): they go to a folder of this run's own, and under pytest-xdist to a
# subfolder per worker (each empties its own queue).  Kept in the environment, so that this module
# imported a second time (as `tests.conftest`) names the same folder.
TEST_BROKER = Path(
    os.environ.setdefault("TOPOS_TEST_BROKER_DIR", tempfile.mkdtemp(prefix="topos-test-broker-"))
) / os.environ.get("PYTEST_XDIST_WORKER", "main")
use_filesystem_broker(TEST_BROKER)


@pytest.fixture
def sent_tasks():
    """What this test sent to the broker, read back from the broker's own message files.

    Returns a function giving [(task name, args, eta or None)] in the order sent; the
    queue starts empty for each test that asks for it.
    """
    import ast
    import json

    queue = TEST_BROKER / "queue"
    for old in queue.glob("*.msg"):
        old.unlink()

    def read() -> list[tuple[str, tuple, str | None]]:
        out = []
        for path in sorted(queue.glob("*.msg")):
            headers = json.loads(path.read_text())["headers"]
            out.append((headers["task"], ast.literal_eval(headers["argsrepr"]), headers.get("eta")))
        return out

    return read


@pytest.fixture
def celery_eager(settings):
    """Tasks run in this process as soon as they are sent, bots answer at once.

    Only for tests that ask for it by name: the site itself never runs a task inside a
    request (a real worker takes them, on Redis or the embedded filesystem broker).
    An inline task cannot wait for its countdown, so a turn's email has no grace here (ruling S6) unless the
    test sets TOPOS_TURN_MAIL_GRACE_SECONDS itself (tests/notifications/test_turn_mail_timing.py).
    """
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    settings.TOPOS_BOT_DELAY_SCALE = 0
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 0
    yield
    celery_app.conf.task_always_eager = saved


@pytest.fixture
def owner(db):
    return user_create(username="ana", email="ana@example.com", password="a-long-test-password")


@pytest.fixture
def member(db):
    return user_create(username="bruno", email="bruno@example.com", password="a-long-test-password")


@pytest.fixture
def outsider(db):
    return user_create(username="chen", email="chen@example.com", password="a-long-test-password")


def api_client_for(user) -> APIClient:
    _, key = api_token_create(user=user, name="tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def owner_api(owner):
    return api_client_for(owner)


@pytest.fixture
def member_api(member):
    return api_client_for(member)


@pytest.fixture
def outsider_api(outsider):
    return api_client_for(outsider)


@pytest.fixture
def game(owner, member):
    """A two-player Topology between owner (seat 0) and member (seat 1), dealt."""
    from tests.games.factories import started_topology

    return started_topology(owner, member)


@pytest.fixture(autouse=True)
def postgres_marked_tests_need_postgres(request):
    """A test marked `postgres` (row locks, concurrent transactions) is skipped, with the reason, on SQLite."""
    if request.node.get_closest_marker("postgres") is None:
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")


def pytest_collection_finish(session):
    """Freeze what import and collection allocated: the random-game tests then spend their time
    on the games, not on the garbage collector walking Django's objects again and again."""
    import gc

    gc.collect()
    gc.freeze()
