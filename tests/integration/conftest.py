"""Integration with the machine's real PostgreSQL and Redis, and real `celery -A config worker` processes.

The database is chosen by DATABASE_URL as everywhere (config/settings.py): these tests run
only when it points at PostgreSQL, because the worker, another process, must see the
pytest-django test database.  The broker is TOPOS_TEST_REDIS_URL (default
redis://127.0.0.1:6379/15, a database number of its own that the tests empty).  Without
either, the tests are skipped with the reason.
"""

from __future__ import annotations

import pytest
from django.db import connection

from config.celery import app
from tests.conftest import drop_broker_connections
from tests.integration.workers import TEST_REDIS_URL, VISIBILITY_TIMEOUT, Worker, redis_problem


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL, which a worker process can share: "
            "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos"
        )


@pytest.fixture
def redis_broker(postgres):
    """This process sends its tasks to the test Redis instead of running them inline."""
    problem = redis_problem(TEST_REDIS_URL)
    if problem:
        pytest.skip(problem)
    import redis

    client = redis.Redis.from_url(TEST_REDIS_URL)
    client.flushdb()
    keys = ("broker_url", "task_always_eager", "broker_transport_options")
    saved = {k: app.conf[k] for k in keys}
    app.conf.update(
        broker_url=TEST_REDIS_URL,
        task_always_eager=False,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
    )
    drop_broker_connections()
    yield client
    drop_broker_connections()
    app.conf.update(saved)
    client.flushdb()
    client.close()


@pytest.fixture
def start_worker(redis_broker, tmp_path):
    """start_worker(name, **env) -> a ready Worker; every worker started is stopped at the end."""
    workers: list[Worker] = []

    def start(name: str = "w1", **env) -> Worker:
        worker = Worker(name, tmp_path / f"{name}.log", **env)
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def embedded_worker(transactional_db, tmp_path, sent_tasks):
    """A real `celery worker -B` on the embedded default's filesystem broker (no Redis), on the test database.

    Runs on SQLite (the test database is a file) as on PostgreSQL.  `sent_tasks` empties the queue first,
    so the worker starts on this test's tasks only.
    """
    from tests.conftest import TEST_BROKER

    worker = Worker("embedded", tmp_path / "embedded.log", broker_dir=TEST_BROKER, TOPOS_DEADLINE_SWEEP_SECONDS=1)
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()
