"""Decision 12, point 6 on the endpoints of point 4: the account's throttle counts them, and a refusal changes
nothing.  (Deep or huge bodies: tests/api/test_request_limits.py walks every API write of the URL conf, these
included.)"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from accounts.models import ApiToken
from accounts.services import api_token_create
from notifications.models import Notification, NotificationEvent, NotificationPreference
from notifications.services import notification_create

pytestmark = pytest.mark.django_db
MANY = "1000/s"


@pytest.fixture
def one_a_minute(settings):
    cache.clear()
    settings.TOPOS_API_RATES = {"anon": "1/min", "user": "1/min", "moves": MANY}
    yield
    cache.clear()


CALLS = [
    ("get", "/api/me/", None),
    ("patch", "/api/me/", {"language": "es"}),
    ("get", "/api/me/tokens/", None),
    ("patch", "/api/me/tokens/{token}/", {"name": "renamed"}),
    ("delete", "/api/me/tokens/{token}/", None),
    ("post", "/api/me/tokens/{token}/revoke/", None),
    ("get", "/api/notifications/", None),
    ("post", "/api/notifications/{note}/read/", None),
    ("post", "/api/notifications/read-all/", None),
    ("get", "/api/me/notification-preferences/", None),
    ("patch", "/api/me/notification-preferences/", {"your_turn": "none"}),
    ("get", "/api/players/ana/games/", None),
]


@pytest.mark.parametrize("method,url,body", CALLS, ids=[f"{m} {u}" for m, u, _ in CALLS])
def test_the_new_endpoints_are_throttled_and_a_refusal_changes_nothing(
    one_a_minute, owner, owner_api, method, url, body
):
    token, _ = api_token_create(user=owner, name="kept")
    note = notification_create(recipient=owner, kind=NotificationEvent.INVITED, key="limits", text="Hello")
    assert owner_api.get("/api/tables/mine/").status_code == 200  # the minute's one request
    reply = getattr(owner_api, method)(url.format(token=token.pk, note=note.pk), body, format="json")
    assert reply.status_code == 429 and reply.json()["error"] == "throttled" and int(reply["Retry-After"]) >= 1
    owner.refresh_from_db()
    assert owner.language == "" and ApiToken.objects.get(pk=token.pk).name == "kept"
    assert ApiToken.objects.filter(user=owner, revoked_at__isnull=True).count() == 2
    assert Notification.objects.get(pk=note.pk).read_at is None
    assert not NotificationPreference.objects.filter(user=owner).exists()


def test_anonymous_reads_of_player_games_count_per_address(one_a_minute, client, owner):
    assert client.get("/api/players/ana/games/").status_code == 200
    assert client.get("/api/players/ana/games/").status_code == 429
