"""The API's throttles (games.api.throttles): anonymous clients per address, accounts per account, and a burst
limit on moves; a refusal is 429 with Retry-After and changes nothing.  The schema documents them everywhere."""

import uuid

import pytest
import redis
from django.core.cache import cache

from games.models import Action, Game
from tests.games.factories import started_topology
from tests.integration.workers import TEST_REDIS_URL

pytestmark = pytest.mark.django_db
MANY = "1000/s"


@pytest.fixture(params=["cache", "redis"])
def rates(request, settings):
    """Set the rates for one test, with counts from zero (the cache is shared by the whole run), kept in the
    cache (the embedded site's way) and in Redis (one round trip per throttle, as in production)."""
    cache.clear()
    if request.param == "redis":
        settings.TOPOS_THROTTLE_REDIS_URL = TEST_REDIS_URL
        settings.TOPOS_THROTTLE_KEY_PREFIX = f"topos-test:throttle:{uuid.uuid4().hex}"  # counts from zero

    def set_rates(**low):
        settings.TOPOS_API_RATES = {"anon": MANY, "user": MANY, "moves": MANY, **low}

    yield set_rates
    cache.clear()


def assert_throttled(reply):
    assert reply.status_code == 429
    wait = int(reply["Retry-After"])
    assert 1 <= wait <= 60
    body = reply.json()
    assert body["error"] == "throttled" and body["retry_after"] == wait
    assert str(wait) in body["detail"]


def test_anonymous_clients_are_throttled_per_address(rates, client):
    rates(anon="2/min")
    assert [client.get("/api/catalogue/").status_code for _ in range(2)] == [200, 200]
    assert_throttled(client.get("/api/catalogue/"))
    assert client.get("/api/catalogue/", REMOTE_ADDR="203.0.113.9").status_code == 200  # another address


def test_accounts_are_throttled_per_account(rates, owner_api, member_api, client):
    rates(user="3/min")
    assert [owner_api.get("/api/tables/mine/").status_code for _ in range(3)] == [200, 200, 200]
    assert_throttled(owner_api.get("/api/tables/mine/"))
    assert_throttled(owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json"))
    assert not Game.objects.exists()
    assert member_api.get("/api/tables/mine/").status_code == 200
    assert client.get("/api/catalogue/").status_code == 200  # anonymous requests have their own rate


def test_moves_have_a_burst_limit_of_their_own(rates, owner, member, owner_api, member_api):
    rates(moves="1/min")
    game = started_topology(owner, member)
    seat = Game.objects.get(pk=game.pk).to_act[0]
    mover = owner_api if game.seats.get(index=seat).user_id == owner.pk else member_api
    url = f"/api/tables/{game.pk}/actions/"
    first = mover.post(url, {"action": {"type": "no_such_action"}, "expected_version": 0}, format="json")
    assert first.status_code == 400
    legal = mover.get(f"/api/tables/{game.pk}/legal-actions/").data["actions"][0]
    assert_throttled(mover.post(url, {"action": legal, "expected_version": 0}, format="json"))
    assert not Action.objects.filter(game=game).exists()
    assert mover.get(url).status_code == 200 and mover.get(f"/api/tables/{game.pk}/").status_code == 200


def test_the_refusal_is_translated(rates, client):
    rates(anon="1/min")
    client.get("/api/catalogue/")
    reply = client.get("/api/catalogue/", HTTP_ACCEPT_LANGUAGE="es")
    assert reply.status_code == 429 and "Too many" not in reply.json()["detail"]


def test_the_schema_documents_the_limits_on_every_operation(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = [(path, method, op) for path, methods in schema["paths"].items() for method, op in methods.items()]
    assert len(operations) > 15
    for path, method, op in operations:
        answers = op["responses"]
        assert "Retry-After" in answers["429"]["headers"], (path, method)
        if method in ("post", "put", "patch", "delete"):
            assert "too_deep" in answers["400"]["description"], (path, method)
        keys = [p for p in op.get("parameters", []) if p["name"] == "Idempotency-Key"]
        if keys:
            assert "422" in answers, (path, method)
            assert keys[0]["schema"]["minLength"] == 1 and keys[0]["schema"]["maxLength"] == 200
    action = schema["components"]["schemas"]["ActionInRequest"]["properties"]["action"]
    assert action["type"] == "object" and not action.get("nullable") and action["required"] == ["type"]


def test_a_cache_that_does_not_answer_lets_requests_through(settings, client, caplog):
    """The limits protect the site; a Redis outage must not turn every API answer into a 500."""
    settings.TOPOS_API_RATES = {"anon": "1/min", "user": MANY, "moves": MANY}
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    assert [client.get("/api/catalogue/").status_code for _ in range(2)] == [200, 200]
    assert "was not applied" in caplog.text


def test_a_throttle_redis_that_does_not_answer_lets_requests_through(settings, client, caplog):
    settings.TOPOS_API_RATES = {"anon": "1/min", "user": MANY, "moves": MANY}
    settings.TOPOS_THROTTLE_REDIS_URL = "redis://127.0.0.1:1/0"
    assert [client.get("/api/catalogue/").status_code for _ in range(2)] == [200, 200]
    assert "was not applied" in caplog.text


def test_refused_requests_take_no_place_in_the_window(rates, settings, client):
    """A refused request is not counted (as DRF's own throttles): the window holds the requests let through."""
    rates(anon="2/min")
    assert [client.get("/api/catalogue/").status_code for _ in range(4)] == [200, 200, 429, 429]
    if settings.TOPOS_THROTTLE_REDIS_URL:
        windows = redis.Redis.from_url(TEST_REDIS_URL)
        keys = windows.keys(f"{settings.TOPOS_THROTTLE_KEY_PREFIX}:throttle_anon_*")
        assert len(keys) == 1 and windows.zcard(keys[0]) == 2
        assert 55 <= windows.ttl(keys[0]) <= 60  # forgotten with the window
        windows.delete(*windows.keys(f"{settings.TOPOS_THROTTLE_KEY_PREFIX}:*"))
    else:
        cache.clear()
    assert client.get("/api/catalogue/").status_code == 200  # an empty window lets her in again


def test_a_move_counts_in_each_window_that_lets_it_through(rates, settings, owner, member, owner_api, member_api):
    """A move's account rate and its burst limit (asked in one round trip with Redis, decision 28) refuse it each
    on its own, and each window counts what it let through, as DRF asks them one after the other."""
    rates(user="2/min", moves="5/min")
    game = started_topology(owner, member)
    seat = Game.objects.get(pk=game.pk).to_act[0]
    mover = owner_api if game.seats.get(index=seat).user_id == owner.pk else member_api
    url = f"/api/tables/{game.pk}/actions/"
    bad = {"action": {"type": "no_such_action"}, "expected_version": 0}
    assert [mover.post(url, bad, format="json").status_code for _ in range(2)] == [400, 400]
    assert_throttled(mover.post(url, bad, format="json"))  # the account's rate, not the moves' burst
    if settings.TOPOS_THROTTLE_REDIS_URL:
        windows = redis.Redis.from_url(TEST_REDIS_URL)
        prefix = settings.TOPOS_THROTTLE_KEY_PREFIX
        (user,) = windows.keys(f"{prefix}:throttle_user_*")
        (moves,) = windows.keys(f"{prefix}:throttle_moves_*")
        assert windows.zcard(user) == 2 and windows.zcard(moves) == 3
        windows.delete(*windows.keys(f"{prefix}:*"))


def test_a_throttle_redis_that_does_not_answer_lets_moves_through(settings, owner, member, owner_api, caplog):
    settings.TOPOS_API_RATES = {"anon": MANY, "user": "1/min", "moves": "1/min"}
    settings.TOPOS_THROTTLE_REDIS_URL = "redis://127.0.0.1:1/0"
    game = started_topology(owner, member)
    url = f"/api/tables/{game.pk}/actions/"
    bad = {"action": {"type": "no_such_action"}, "expected_version": 0}
    assert [owner_api.post(url, bad, format="json").status_code for _ in range(2)] == [400, 400]
    assert "were not applied" in caplog.text
