"""Web Push (decision 29, point 3): a subscription registered through the API receives a turn at a local receiver
standing for the push service: an encrypted (aes128gcm) body only her browser's key opens, signed with the site's
VAPID key; a push service answering 404 or 410 drops the subscription; ruling S6 times it as an email."""

from __future__ import annotations

import base64
import json
import os
from datetime import timedelta

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.utils import timezone

from notifications.models import NotificationDelivery
from outbound import services, vapid
from outbound.models import PushSubscription
from tests.conftest import api_client_for
from tests.games.tables import play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser's PushManager keeps: its own key pair and auth secret; it can open what is pushed to it."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.keys = {"p256dh": b64(public), "auth": b64(self.auth)}

    def open(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def verify_vapid(headers: dict, audience: str) -> dict:
    """The Authorization header is `vapid t=<JWT>, k=<public key>`: the JWT is signed (ES256) by the site's key."""
    scheme, _space, rest = headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == vapid.public_key()
    head, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(fields["k"]))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    claims = json.loads(unb64(claims))
    assert claims["aud"] == audience and claims["sub"].startswith("mailto:")
    assert claims["exp"] > timezone.now().timestamp()
    return claims


def register(user, endpoint: str, browser: Browser):
    answer = api_client_for(user).post(
        "/api/me/push/subscriptions/", {"endpoint": endpoint, "keys": browser.keys}, format="json"
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_a_subscribed_browser_receives_her_turn_encrypted_and_vapid_signed(owner, member, receiver, local_allowed):
    browser = Browser()
    register(member, receiver.url + "/push/abc", browser)
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    turns = [r for r in receiver.received if r.path == "/push/abc"]
    pushed = [browser.open(r.body) for r in turns]
    turn = next(p for p in pushed if p["event"] == "your_turn")
    assert turn["table"] == game.pk and turn["url"] == f"https://topos.example/tables/{game.pk}/"
    assert set(turn) == {"title", "body", "event", "label", "text", "table", "game", "url", "created_at"}
    request = turns[pushed.index(turn)]
    assert request.headers["Content-Encoding"] == "aes128gcm"
    assert b"your_turn" not in request.body  # encrypted: nothing readable on the way
    assert request.headers["Topic"] == f"table-{game.pk}" and int(request.headers["TTL"]) > 0
    verify_vapid(request.headers, receiver.url)
    delivery = NotificationDelivery.objects.get(recipient=member, channel="push", key__startswith="turn:")
    assert delivery.status == "sent"
    assert PushSubscription.objects.get(user=member).last_success_at is not None


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_dropped(owner, member, receiver, local_allowed, status):
    receiver.default = status
    register(member, receiver.url + "/push/gone", Browser())
    play_turn(topology_table(owner, member), owner)
    assert receiver.received
    assert not PushSubscription.objects.filter(user=member).exists()


def test_a_push_service_down_is_retried_by_the_sweep_and_the_device_kept(owner, member, receiver, local_allowed):
    receiver.statuses = [500, 500]  # the table started, her turn: both refused once
    register(member, receiver.url + "/push/x", Browser())
    play_turn(topology_table(owner, member), owner)
    waiting = NotificationDelivery.objects.filter(recipient=member, channel="push", status="pending")
    assert waiting.exists() and all("HTTP 500" in d.error for d in waiting)
    assert "HTTP 500" in PushSubscription.objects.get(user=member).last_error
    from notifications import services as notes

    later = timezone.now() + timedelta(minutes=5)
    for pk in notes.channel_deliveries_overdue(now=later, after_seconds=0):
        notes.notification_channel_send(delivery_id=pk, now=later)
    assert NotificationDelivery.objects.filter(recipient=member, channel="push", status="sent").exists()


def test_she_looks_at_the_table_within_the_grace_and_nothing_is_pushed(
    owner, member, receiver, local_allowed, settings
):
    """Ruling S6: the same grace as an email; a turn seen at the board is not pushed."""
    from django.test import Client

    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 120
    register(member, receiver.url + "/push/x", Browser())
    game = play_turn(topology_table(owner, member), owner)
    client = Client()
    client.force_login(member)
    assert client.get(f"/tables/{game.pk}/").status_code == 200
    from notifications import services as notes

    later = timezone.now() + timedelta(seconds=200)
    for pk in notes.channel_deliveries_overdue(now=later, after_seconds=0):
        notes.notification_channel_send(delivery_id=pk, now=later)
    turn = NotificationDelivery.objects.get(recipient=member, channel="push", key__startswith="turn:")
    assert turn.status == "seen"
    assert not [r for r in receiver.received if Browser and r.path == "/push/x" and r.headers.get("Topic")]


def test_events_she_turned_off_are_not_pushed(owner, member, receiver, local_allowed):
    register(member, receiver.url + "/push/x", Browser())
    services.push_events_set(user=member, events=["finished"])
    play_turn(topology_table(owner, member), owner)
    assert receiver.received == []


def test_the_embedded_default_keeps_its_key_pair_in_a_file(vapid_key):
    assert not vapid_key.exists()
    first = vapid.public_key()
    assert vapid_key.exists() and oct(vapid_key.stat().st_mode & 0o777) == "0o600"
    vapid._key.cache_clear()
    assert vapid.public_key() == first  # read back, not made again
    assert len(unb64(first)) == 65 and unb64(first)[0] == 4


def test_a_key_from_the_environment_wins(settings):
    from py_vapid import Vapid

    key = Vapid()
    key.generate_keys()
    settings.TOPOS_VAPID_PRIVATE_KEY = key.private_pem().decode()
    settings.TOPOS_VAPID_KEY_FILE = ""
    raw = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert vapid.public_key() == b64(raw)


def test_without_a_key_push_is_off(member, settings):
    settings.TOPOS_VAPID_PRIVATE_KEY = settings.TOPOS_VAPID_KEY_FILE = ""
    answer = api_client_for(member).get("/api/me/push/")
    assert answer.status_code == 200 and answer.json()["public_key"] is None
    refused = api_client_for(member).post(
        "/api/me/push/subscriptions/", {"endpoint": "https://push.example/x", "keys": Browser().keys}, format="json"
    )
    assert refused.status_code == 409
