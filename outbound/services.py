"""Writes of the outbound app (decision 29): her push devices and choices, her webhook endpoints, test events, and
the two channels registered with the notifications app (so ruling S6 times them as it times emails)."""

from __future__ import annotations

import base64
import binascii
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import enqueue
from games.errors import BadRequest, Conflict, NotFound
from notifications import channels
from notifications.models import NotificationDelivery, NotificationEvent

from . import safe_http, vapid, webhooks
from .models import PushChoice, PushSubscription, WebhookDelivery, WebhookEndpoint, new_secret
from .payloads import notification_payload, test_payload
from .push import push_send

log = logging.getLogger(__name__)
EVENTS = NotificationEvent.values
# What goes out unless she chooses otherwise: everything but chat lines (a table's chat can be busy; decision 17).
DEFAULT_EVENTS = [e for e in EVENTS if e != NotificationEvent.CHAT]
DELIVER_TASK = "outbound.tasks.webhook_deliver"
Status = WebhookDelivery.Status


def _events(events) -> list[str]:
    if not isinstance(events, list | tuple) or any(not isinstance(e, str) for e in events):
        raise BadRequest(_("Give the events as a list of their names."), field="events")
    unknown = sorted(set(events) - set(EVENTS))
    if unknown:
        raise BadRequest(_("There is no notification called %(event)s.") % {"event": repr(unknown[0])}, field="events")
    return [e for e in EVENTS if e in set(events)]


# --- push -------------------------------------------------------------------------------------------------


def push_events_of(user) -> list[str]:
    row = PushChoice.objects.filter(user=user).values_list("events", flat=True).first()
    return list(DEFAULT_EVENTS) if row is None else list(row)


def push_events_set(*, user, events) -> list[str]:
    chosen = _events(events)
    PushChoice.objects.update_or_create(user=user, defaults={"events": chosen})
    return chosen


def _b64(value: str, size: int | None, name: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError, TypeError):
        raw = b""
    if not raw or (size is not None and len(raw) != size) or (name == "p256dh" and raw[:1] != b"\x04"):
        raise BadRequest(_("The subscription's key %(name)s is not one a browser makes.") % {"name": name}, field=name)
    return value


def push_subscription_register(*, user, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> tuple:
    """Her browser's subscription (PushManager.subscribe()), kept to push to; (subscription, made).  The same
    endpoint again updates it (a browser signed in as someone else now: it is hers from now on)."""
    if vapid.key() is None:
        raise Conflict(_("Push notifications are not set up on this site."))
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise BadRequest(_("This is not a web address."), field="endpoint")
    try:
        safe_http.check_target(endpoint)
    except safe_http.Refused as exc:
        raise BadRequest(str(exc), field="endpoint") from None
    keys = {"p256dh": _b64(p256dh, 65, "p256dh"), "auth": _b64(auth, 16, "auth")}
    with transaction.atomic():
        subscription, made = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, **keys, "user_agent": (user_agent or "")[:200], "last_error": ""}
        )
    return subscription, made


def push_subscription_delete(*, user, subscription_id: int) -> None:
    deleted, _rows = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    if not deleted:
        raise NotFound(_("There is no such device of yours."))


def _push_delivery_send(delivery: NotificationDelivery) -> None:
    payload = notification_payload(delivery.notification)
    message = {"title": payload["game"] or "Topos", "body": payload["text"], **payload}
    turn = payload["event"] == NotificationEvent.YOUR_TURN and payload["table"]
    topic = f"table-{payload['table']}" if turn else None
    push_send(delivery.recipient, message, topic=topic)


# --- webhooks ---------------------------------------------------------------------------------------------


def _url(url) -> str:
    if not isinstance(url, str) or not url or len(url) > 1000:
        raise BadRequest(_("This is not a web address."), field="url")
    try:
        safe_http.check_target(url)
    except safe_http.Refused as exc:
        raise BadRequest(str(exc), field="url") from None
    return url


def _format(value) -> str:
    if value not in WebhookEndpoint.Format.values:
        raise BadRequest(
            _("Choose one of %(choices)s.") % {"choices": ", ".join(WebhookEndpoint.Format.values)}, field="format"
        )
    return value


def webhook_create(*, user, url, format=WebhookEndpoint.Format.GENERIC, events=None) -> WebhookEndpoint:
    """A new endpoint of hers (its secret made here); 400 for an address the site may not post to (decision 29)."""
    url, fmt = _url(url), _format(format)
    chosen = list(DEFAULT_EVENTS) if events is None else _events(events)
    with transaction.atomic():
        if WebhookEndpoint.objects.select_for_update().filter(user=user).count() >= settings.TOPOS_WEBHOOKS_PER_PERSON:
            raise Conflict(
                _("You have %(n)d webhooks already, the most one person can have: delete one first.")
                % {"n": settings.TOPOS_WEBHOOKS_PER_PERSON}
            )
        return WebhookEndpoint.objects.create(user=user, url=url, format=fmt, events=chosen)


def webhook_of(*, user, endpoint_id: int) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(pk=endpoint_id, user=user).first()
    if endpoint is None:
        raise NotFound(_("There is no such webhook of yours."))
    return endpoint


def webhook_update(*, user, endpoint_id: int, changes: dict) -> WebhookEndpoint:
    """Change the address, format, events or whether it is on; a new secret with `new_secret`."""
    endpoint = webhook_of(user=user, endpoint_id=endpoint_id)
    if "url" in changes:
        endpoint.url = _url(changes["url"])
    if "format" in changes:
        endpoint.format = _format(changes["format"])
    if "events" in changes:
        endpoint.events = _events(changes["events"])
    if "active" in changes:
        endpoint.active = bool(changes["active"])
    if changes.get("new_secret"):
        endpoint.secret = new_secret()
    endpoint.save()
    return endpoint


def webhook_delete(*, user, endpoint_id: int) -> None:
    webhook_of(user=user, endpoint_id=endpoint_id).delete()


def webhook_test(*, user, endpoint_id: int) -> WebhookDelivery:
    """ "Send a test event": logged and delivered (with retries) like any other, whatever events it is on for."""
    endpoint = webhook_of(user=user, endpoint_id=endpoint_id)
    now = timezone.now()
    delivery = WebhookDelivery.objects.create(endpoint=endpoint, event="test", payload=test_payload(user, now))
    transaction.on_commit(lambda: enqueue(DELIVER_TASK, delivery.pk))
    return delivery


def _webhook_delivery_send(delivery: NotificationDelivery) -> None:
    """The notification's webhook delivery is due and still news (ruling S6): one log row per endpoint of hers on
    for this kind, each delivered (and retried) on its own."""
    notification = delivery.notification
    payload = notification_payload(notification)
    endpoints = WebhookEndpoint.objects.filter(user_id=delivery.recipient_id, active=True)
    rows = [
        WebhookDelivery(endpoint=e, event=notification.kind, source=delivery, payload=payload)
        for e in endpoints
        if notification.kind in e.events
    ]
    WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(WebhookDelivery.objects.filter(source=delivery, status=Status.PENDING).values_list("pk", flat=True))
    transaction.on_commit(lambda: [enqueue(DELIVER_TASK, pk) for pk in ids])


def _backoff(attempts: int) -> timedelta:
    return timedelta(seconds=settings.TOPOS_WEBHOOK_RETRY_SECONDS * 2 ** max(0, attempts - 1))


def webhook_deliver(*, delivery_id: int, now=None) -> str | None:
    """One attempt at one log row when it is due: its new status, or None if it was not due or not pending.

    2xx: delivered.  Another answer, a timeout, a refused connection: tried again after 1, 2, 4, ... times
    TOPOS_WEBHOOK_RETRY_SECONDS, TOPOS_WEBHOOK_MAX_ATTEMPTS attempts in all, then failed.  An address the site may
    not reach (outbound.safe_http) fails at once.  A delivery may arrive twice (a worker lost after posting): the
    X-Topos-Delivery header lets the receiver drop the repeat.
    """
    now = now or timezone.now()
    due = WebhookDelivery.objects.filter(pk=delivery_id, status=Status.PENDING).exclude(
        next_attempt_at__gt=now + timedelta(seconds=1)
    )
    if not due.update(status=Status.SENDING, attempts=F("attempts") + 1, claimed_at=now):
        return None
    delivery = WebhookDelivery.objects.select_related("endpoint").get(pk=delivery_id)
    status_code, error, final = None, "", False
    try:
        answer = safe_http.post(*webhooks.request_of(delivery.endpoint, delivery.pk, delivery.payload))
        status_code = answer.status
        if not 200 <= answer.status < 300:
            error = f"HTTP {answer.status}: {answer.body[:200].decode(errors='replace')}"
    except safe_http.Refused as exc:
        error, final = str(exc), True
    except Exception as exc:  # network, TLS, a timeout, a broken answer: tried again
        error = f"{type(exc).__name__}: {exc}"
    fields = {"last_status": status_code, "last_error": error[:500]}
    if not error:
        fields.update(status=Status.DELIVERED, delivered_at=timezone.now(), next_attempt_at=None)
    elif final or delivery.attempts >= settings.TOPOS_WEBHOOK_MAX_ATTEMPTS:
        fields.update(status=Status.FAILED, next_attempt_at=None)
    else:
        wait = _backoff(delivery.attempts)
        fields.update(status=Status.PENDING, next_attempt_at=now + wait)
        transaction.on_commit(lambda: enqueue(DELIVER_TASK, delivery_id, countdown=wait.total_seconds()))
    WebhookDelivery.objects.filter(pk=delivery_id, status=Status.SENDING).update(**fields)
    return fields["status"]


def webhook_deliveries_due(*, now=None, after_seconds: int = 60) -> list[int]:
    """The sweep: rows whose attempt is a while overdue (a lost message), and rows a worker died sending (tried
    again: a webhook may be delivered twice, never lost)."""
    now = now or timezone.now()
    late = now - timedelta(seconds=after_seconds)
    WebhookDelivery.objects.filter(status=Status.SENDING, claimed_at__lte=now - timedelta(minutes=10)).update(
        status=Status.PENDING, next_attempt_at=now
    )
    due = Q(next_attempt_at__lte=late) | Q(next_attempt_at__isnull=True, created_at__lte=late)
    return list(WebhookDelivery.objects.filter(due, status=Status.PENDING).values_list("pk", flat=True)[:500])


def webhook_log_purge(*, now=None, keep_days: int = 30) -> int:
    now = now or timezone.now()
    deleted, _rows = WebhookDelivery.objects.filter(created_at__lt=now - timedelta(days=keep_days)).delete()
    return deleted


# --- the channels -----------------------------------------------------------------------------------------


def _annotations() -> dict:
    return {"outbound_device": Exists(PushSubscription.objects.filter(user=OuterRef("pk")))}


COLUMNS = ("outbound_device", "push_choice__events", "webhook_endpoints__events", "webhook_endpoints__active")


def _decide(pairs: set, rows: list[tuple]) -> dict[str, set]:
    """Who of these wants which event by push (a device, and the kind among her push events) and by webhook (an
    endpoint on, for the kind), from the columns read with the recipients (one row per endpoint of hers)."""
    pushed, hooked = set(), set()
    # The key only when someone has a device (a device was registered with a key): no key is made here.
    push_on = any(row[1] for row in rows) and vapid.key() is not None
    for user_id, device, push_events, hook_events, hook_on in rows:
        if device and push_on:
            pushed.update((user_id, k) for k in (DEFAULT_EVENTS if push_events is None else push_events))
        if hook_on:
            hooked.update((user_id, k) for k in hook_events)
    Channel = NotificationDelivery.Channel
    return {Channel.PUSH: pairs & pushed, Channel.WEBHOOK: pairs & hooked}


def register_channels() -> None:
    """Called once the apps are ready (outbound.apps): push and webhooks become notification channels."""
    Channel = NotificationDelivery.Channel
    channels.register(
        [
            channels.Channel(Channel.PUSH, _push_delivery_send),
            channels.Channel(Channel.WEBHOOK, _webhook_delivery_send),
        ],
        channels.Wants(_annotations, COLUMNS, _decide),
    )
