"""A Redis outage is a few lines in the log, not a traceback per request (config.redis_clients.outage_log), and the
site keeps answering."""

from __future__ import annotations

import logging

import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create
from config.celery import enqueue
from config.redis_clients import outage_log
from feed import announce
from games import services
from games.services.effects_mark import mark_queued, mark_taken
from tests.conftest import TEST_BROKER, drop_broker_connections, use_filesystem_broker

pytestmark = pytest.mark.django_db
CLOSED = "redis://127.0.0.1:1/0"  # nothing listens there: every call fails at once
REQUESTS = 25


@pytest.fixture
def redis_down(settings):
    from config.celery import app

    settings.REDIS_URL = settings.TOPOS_THROTTLE_REDIS_URL = CLOSED
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    app.conf.broker_url = CLOSED
    drop_broker_connections()
    yield
    use_filesystem_broker(TEST_BROKER)


def test_many_requests_during_a_redis_outage_log_each_kind_of_failure_once(
    redis_down, caplog, monkeypatch, owner, member
):
    from config import redis_clients

    monkeypatch.setattr(redis_clients, "OUTAGE_LOG_SECONDS", 3600.0)  # however slow this machine, one interval
    caplog.set_level(logging.WARNING)
    key = api_token_create(user=member, name="bot")[1]
    game = services.game_create(user=owner, kind="topology", players=2)
    api, visitor = APIClient(HTTP_AUTHORIZATION=f"Token {key}"), APIClient()
    for _ in range(REQUESTS):
        # Her token's use and her throttle; a spectator's mark; the marks, nudges and tasks of a change.
        assert api.get("/api/me/").status_code == 200
        assert visitor.get(f"/tables/{game.pk}/").status_code == 200
        assert mark_queued(game.pk) is True
        mark_taken(game.pk)
        assert announce.publish([announce.table_channel(game.pk)]) == 0
    # A task sent while the broker is down (kombu tries to connect for seconds each time: twice is enough here).
    assert [enqueue("games.tasks.game_effects", game.pk) for _ in range(2)] == [False, False]
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    kinds = {
        "A token's last use was not noted",
        "The API throttle",
        "spectator throttle unavailable",
        "could not mark the effects",
        "could not clear the queued mark",
        "could not publish",
        "could not send",
    }
    for kind in kinds:
        assert sum(r.getMessage().startswith(kind) for r in records) == 1, (kind, [r.getMessage() for r in records])
    assert len(records) <= len(kinds) + 2, [r.getMessage() for r in records]  # the throttles: one line per scope
    assert all(r.exc_info for r in records)  # each the first of its kind: with its traceback


def test_a_failure_is_logged_again_after_a_while_without_its_traceback_and_with_the_count(monkeypatch, caplog):
    from config import redis_clients

    log = logging.getLogger("topos.test")
    caplog.set_level(logging.WARNING)
    clock = [1000.0]
    monkeypatch.setattr(redis_clients.time, "monotonic", lambda: clock[0])
    for _ in range(5):
        try:
            raise ConnectionError("refused")
        except ConnectionError:
            outage_log(log, "test", "could not reach %s", "redis")
    clock[0] += redis_clients.OUTAGE_LOG_SECONDS
    try:
        raise ConnectionError("refused")
    except ConnectionError:
        outage_log(log, "test", "could not reach %s", "redis")
    first, later = caplog.records
    assert first.getMessage() == "could not reach redis: ConnectionError: refused" and first.exc_info
    assert later.getMessage() == "could not reach redis: ConnectionError: refused (4 more like it since the last line)"
    assert not later.exc_info
