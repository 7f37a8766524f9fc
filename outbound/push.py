"""Sending one notification to each of her browsers by Web Push (RFC 8030, 8291, 8292; decision 29).

The payload is encrypted for each subscription (aes128gcm, pywebpush's WebPusher.encode) and the request signed with
the site's VAPID key (py_vapid); it goes out through outbound.safe_http, like a webhook, so a subscription's
endpoint gets no way into the site's own network.  A push service answering 404 or 410 says the subscription is
gone: it is dropped.
"""

from __future__ import annotations

import json
import logging
import time
from urllib.parse import urlsplit

from django.utils import timezone
from pywebpush import WebPusher

from . import safe_http, vapid
from .models import PushSubscription

log = logging.getLogger(__name__)
GONE = (404, 410)
TTL_SECONDS = 24 * 3600  # a correspondence game: a turn pushed while her phone is off is still news tomorrow


class PushFailed(Exception):
    """No device took it and some may later: the delivery is retried (notifications.services)."""


def _request(subscription: PushSubscription, data: bytes, topic: str | None) -> tuple[str, bytes, dict]:
    key = vapid.key()
    if key is None:
        raise PushFailed("push is not configured (no VAPID key)")
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    encoded = WebPusher(info).encode(data, "aes128gcm")
    parts = urlsplit(subscription.endpoint)
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": vapid.subject(), "exp": int(time.time()) + 12 * 3600}
    headers = {
        **key.sign(claims),  # Authorization: vapid t=<JWT>, k=<public key>
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL_SECONDS),
        "Urgency": "normal",
    }
    if topic:
        headers["Topic"] = topic  # a newer push of the same topic replaces one not yet delivered
    return subscription.endpoint, encoded["body"], headers


def push_send(user, message: dict, topic: str | None = None) -> int:
    """Push `message` (JSON) to every device of hers; how many took it.  PushFailed when none did and one may
    later (a push service down); a device whose push service says it is gone, or whose address may not be reached,
    is dropped."""
    data = json.dumps(message, ensure_ascii=False).encode()
    took, later = 0, []
    for subscription in list(PushSubscription.objects.filter(user=user)):
        try:
            answer = safe_http.post(*_request(subscription, data, topic))
        except safe_http.Refused as exc:
            log.warning("push subscription %s dropped: %s", subscription.pk, exc)
            subscription.delete()
            continue
        except Exception as exc:  # network, TLS, a broken key: retried
            error = f"{type(exc).__name__}: {exc}"[:500]
            PushSubscription.objects.filter(pk=subscription.pk).update(last_error=error)
            later.append(error)
            continue
        if answer.status in GONE:
            subscription.delete()
        elif 200 <= answer.status < 300:
            took += 1
            PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now(), last_error="")
        else:
            error = f"HTTP {answer.status}: {answer.body[:200].decode(errors='replace')}"
            PushSubscription.objects.filter(pk=subscription.pk).update(last_error=error[:500])
            later.append(error)
    if not took and later:
        raise PushFailed("; ".join(later)[:500])
    return took
