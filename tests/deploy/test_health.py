"""/healthz: the database, the broker, a worker's heartbeat and beat's last run; 200 or 503 naming what is wrong."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from config.celery import app as celery_app
from config.monitoring.heartbeats import heartbeat_stamp
from config.monitoring.models import Heartbeat
from config.monitoring.tasks import heartbeat
from tests.conftest import drop_broker_connections

pytestmark = pytest.mark.django_db


def health(path: str = "/healthz") -> tuple[int, dict]:
    answer = Client().get(path)  # nobody logged in
    assert answer["Content-Type"] == "application/json" and "no-store" in answer["Cache-Control"]
    return answer.status_code, json.loads(answer.content)


def stamp_both(seconds_ago: float = 0) -> None:
    for role in ("worker", "beat"):
        heartbeat_stamp(role, timezone.now() - timedelta(seconds=seconds_ago))


@pytest.fixture
def broker_down():
    """The site's broker is a Redis nobody listens at (port 1)."""
    saved = {k: celery_app.conf[k] for k in ("broker_url", "broker_transport_options")}
    celery_app.conf.update(
        broker_url="redis://:a-secret@127.0.0.1:1/0",
        broker_transport_options={"socket_connect_timeout": 1, "max_retries": 0},
    )
    drop_broker_connections()
    yield
    celery_app.conf.update(saved)
    drop_broker_connections()


def test_healthy_with_a_recent_heartbeat():
    stamp_both(seconds_ago=5)
    assert health() == (
        200,
        {"status": "ok", "checks": {"database": "ok", "broker": "ok", "worker": "ok", "beat": "ok"}},
    )


def test_a_stale_worker_heartbeat_is_a_503_naming_the_worker(settings):
    settings.TOPOS_HEALTH_STALE_SECONDS = 120
    heartbeat_stamp("beat", timezone.now())
    heartbeat_stamp("worker", timezone.now() - timedelta(seconds=300))
    status, body = health()
    assert status == 503 and body["status"] == "unhealthy" and body["failing"] == ["worker"]
    assert body["checks"]["worker"] == "no worker ran a heartbeat for 300 s (limit 120 s)"
    assert body["checks"]["beat"] == "ok"


def test_beat_that_stopped_is_named_too(settings):
    settings.TOPOS_HEALTH_STALE_SECONDS = 120
    stamp_both(seconds_ago=600)
    status, body = health()
    assert status == 503 and body["failing"] == ["worker", "beat"]
    assert body["checks"]["beat"] == "beat has not sent a heartbeat for 600 s (limit 120 s)"


def test_no_heartbeat_ever_is_unhealthy():
    status, body = health()
    assert status == 503 and body["failing"] == ["worker", "beat"]
    assert body["checks"]["worker"] == "no worker ran a heartbeat yet"


def test_a_broker_that_is_down_is_a_503_that_gives_nothing_away(broker_down):
    stamp_both()
    status, body = health()
    assert status == 503 and body["failing"] == ["broker"]
    assert body["checks"]["broker"].startswith("cannot reach the broker")
    text = json.dumps(body)
    assert "a-secret" not in text and "127.0.0.1" not in text and "redis://" not in text


def test_the_load_balancers_check_leaves_the_background_out_but_not_the_broker(broker_down):
    # A worker that is down is down for every web process: it must not take them all out of rotation.
    status, body = health("/healthz/web")
    assert status == 503 and body["failing"] == ["broker"] and list(body["checks"]) == ["database", "broker"]


def test_the_load_balancers_check_is_healthy_without_any_heartbeat():
    assert health("/healthz/web") == (200, {"status": "ok", "checks": {"database": "ok", "broker": "ok"}})


def test_health_is_answered_over_plain_http_when_everything_else_redirects_to_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz(/|$)"]  # as config.production
    stamp_both()
    client = Client()
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200 and client.get("/healthz/web").status_code == 200


def test_writes_are_refused():
    assert Client().post("/healthz").status_code == 405


def test_the_worker_stamps_when_it_runs_the_heartbeat_and_beat_when_it_sends_it():
    heartbeat()  # what a worker does with beat's message
    assert set(Heartbeat.objects.values_list("name", flat=True)) == {"worker"}
    heartbeat.apply_async(expires=30)  # what beat does: the broker took it (the tests' filesystem broker)
    assert set(Heartbeat.objects.values_list("name", flat=True)) == {"worker", "beat"}
    assert health()[0] == 200
