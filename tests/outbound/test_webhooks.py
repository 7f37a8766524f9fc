"""Webhooks (decision 29, point 3): delivered to a local receiver, signed (the test checks the HMAC over timestamp and
body), retried after a 500 with backoff then delivered, in each ready format, and timed by ruling S6 like an email."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.models import NotificationDelivery
from outbound import services
from outbound.models import WebhookDelivery, WebhookEndpoint
from tests.games.tables import play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


def verify(secret: str, received) -> dict:
    """What docs/webhooks.md tells a receiver to do: recompute the signature over "<timestamp>." + body."""
    timestamp = received.headers["X-Topos-Timestamp"]
    expected = "v1=" + hmac.new(secret.encode(), timestamp.encode() + b"." + received.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, received.headers["X-Topos-Signature"])
    assert abs(int(timestamp) - timezone.now().timestamp()) < 300
    return json.loads(received.body)


def later(seconds: float) -> list:
    """The beat sweep's part, run as it would `seconds` from now: every attempt due by then is made."""
    when = timezone.now() + timedelta(seconds=seconds)
    return [services.webhook_deliver(delivery_id=pk, now=when) for pk in services.webhook_deliveries_due(now=when)]


def test_a_turn_is_delivered_signed_to_her_endpoint(owner, member, receiver, local_allowed):
    hook = services.webhook_create(user=member, url=receiver.url + "/hook")
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # her turn; she is away
    turns = [r for r in receiver.received if r.headers["X-Topos-Event"] == "your_turn"]
    assert len(turns) == 1
    body = verify(hook.secret, turns[0])
    assert body["event"] == "your_turn" and body["table"] == game.pk
    assert body["url"] == f"https://topos.example/tables/{game.pk}/"
    assert set(body) == {"event", "label", "text", "table", "game", "url", "created_at"}  # nothing of the position
    (log,) = WebhookDelivery.objects.filter(endpoint=hook, event="your_turn")
    assert log.status == "delivered" and log.attempts == 1 and log.last_status == 201
    assert turns[0].headers["X-Topos-Delivery"] == str(log.pk)
    assert (
        NotificationDelivery.objects.get(recipient=member, channel="webhook", key__startswith="turn:").status == "sent"
    )


def test_a_500_is_retried_with_backoff_then_delivered(member, receiver, local_allowed, settings):
    settings.TOPOS_WEBHOOK_RETRY_SECONDS = 30
    receiver.statuses = [500]
    hook = services.webhook_create(user=member, url=receiver.url + "/hook")
    log = services.webhook_test(user=member, endpoint_id=hook.pk)
    log.refresh_from_db()
    assert (log.status, log.attempts, log.last_status) == ("pending", 1, 500)
    assert "HTTP 500" in log.last_error
    assert timedelta(seconds=29) < log.next_attempt_at - timezone.now() <= timedelta(seconds=30)
    assert later(10) == []  # not yet: the backoff holds it
    assert later(30 + 61) == ["delivered"]
    log.refresh_from_db()
    assert (log.status, log.attempts, log.last_status, log.last_error) == ("delivered", 2, 201, "")
    first, second = receiver.received
    assert first.headers["X-Topos-Delivery"] == second.headers["X-Topos-Delivery"] == str(log.pk)
    assert verify(hook.secret, second)["event"] == "test"


def test_the_attempts_are_bounded_and_the_waits_double(member, receiver, local_allowed, settings):
    settings.TOPOS_WEBHOOK_RETRY_SECONDS, settings.TOPOS_WEBHOOK_MAX_ATTEMPTS = 10, 3
    receiver.default = 503
    hook = services.webhook_create(user=member, url=receiver.url)
    log = services.webhook_test(user=member, endpoint_id=hook.pk)
    waits = []
    for hours in range(1, 6):
        log.refresh_from_db()
        if log.next_attempt_at:
            waits.append(round((log.next_attempt_at - log.claimed_at).total_seconds()))
        services.webhook_deliver(delivery_id=log.pk, now=timezone.now() + timedelta(hours=hours))
    log.refresh_from_db()
    assert (log.status, log.attempts) == ("failed", 3)
    assert waits == [10, 20]
    assert len(receiver.received) == 3


@pytest.mark.parametrize(
    "fmt,check",
    [
        ("discord", lambda b, path: "content" in b and b["allowed_mentions"] == {"parse": []}),
        ("slack", lambda b, path: b["text"].endswith(">") and "\n<https://topos.example/>" in b["text"]),
        ("matrix", lambda b, path: b["text"] and '<a href="https://topos.example/">' in b["html"]),
        ("ntfy", lambda b, path: b["topic"] == "my-topic" and path == "/" and b["click"] == "https://topos.example/"),
    ],
)
def test_each_ready_format_is_a_body_its_service_takes(member, receiver, local_allowed, fmt, check):
    hook = services.webhook_create(user=member, url=receiver.url + "/my-topic", format=fmt)
    services.webhook_test(user=member, endpoint_id=hook.pk)
    (got,) = receiver.received
    assert check(verify(hook.secret, got), got.path)


def test_events_she_left_out_are_not_sent(owner, member, receiver, local_allowed):
    services.webhook_create(user=member, url=receiver.url, events=["finished"])
    play_turn(topology_table(owner, member), owner)
    assert receiver.received == []


def test_her_quiet_hours_hold_a_webhook_as_they_hold_an_email(owner, member, receiver, local_allowed):
    """Ruling S6: what falls in her quiet hours goes out when they end."""
    from notifications.services import quiet_hours_set

    now = timezone.localtime(timezone.now(), timezone.UTC)
    start, end = now - timedelta(hours=1), now + timedelta(hours=2)
    member.time_zone = "UTC"
    member.save(update_fields=["time_zone"])
    quiet_hours_set(user=member, start=f"{start:%H:%M}", end=f"{end:%H:%M}")
    services.webhook_create(user=member, url=receiver.url)
    play_turn(topology_table(owner, member), owner)
    assert receiver.received == []
    row = NotificationDelivery.objects.get(recipient=member, channel="webhook", key__startswith="turn:")
    assert row.status == "pending" and row.not_before > timezone.now() + timedelta(hours=1)


def test_the_formats_are_the_choices_offered():
    assert set(WebhookEndpoint.Format.values) == {"generic", "discord", "slack", "matrix", "ntfy"}


def test_a_chat_line_goes_to_the_webhook_she_turned_chat_on_for(owner, member, game, local_allowed):
    """Kinds that go to email go to webhooks too when she chose them; chat only when asked (its default is off)."""
    from chat.services import chat_post
    from tests.outbound.receiver import Receiver

    plain, chatty = Receiver().start(), Receiver().start()
    try:
        services.webhook_create(user=member, url=plain.url)  # the default events: all but chat
        hook = services.webhook_create(user=member, url=chatty.url, events=["chat"])
        chat_post(user=owner, game_id=game.pk, body="Good luck, have fun")
        assert [r for r in plain.received if r.headers["X-Topos-Event"] == "chat"] == []
        (chat,) = [verify(hook.secret, r) for r in chatty.received]
        assert chat["event"] == "chat" and chat["table"] == game.pk and "Good luck, have fun" in chat["text"]
    finally:
        plain.stop()
        chatty.stop()
