"""Webhook bodies, their signature and one attempt at delivering them (decision 29).

Every request carries, whatever its format:
    Content-Type: application/json
    X-Topos-Event: your_turn (the notification's kind, or "test")
    X-Topos-Delivery: 42 (the log's id: the same on every retry, so a receiver can drop a repeat)
    X-Topos-Timestamp: 1795862400 (Unix seconds, when this attempt was signed)
    X-Topos-Signature: v1=<hex HMAC-SHA256 of "<timestamp>." + body, keyed with the endpoint's secret>
A receiver recomputes the signature and refuses a timestamp more than a few minutes old (a replay): docs/webhooks.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from html import escape
from urllib.parse import urlsplit, urlunsplit

from .models import WebhookEndpoint

Format = WebhookEndpoint.Format
USER_AGENT = "Topos-Webhooks/1"


def signature(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def _line(payload: dict) -> str:
    return f"{payload['text']}\n{payload['url']}"


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def body_of(endpoint_format: str, payload: dict, url: str) -> tuple[str, dict]:
    """(where to post, the JSON body) for this format."""
    if endpoint_format == Format.DISCORD:  # Discord's "Execute Webhook": content up to 2000 characters
        return url, {"content": _line(payload)[:2000], "username": "Topos", "allowed_mentions": {"parse": []}}
    if endpoint_format == Format.SLACK:  # Slack's incoming webhooks
        return url, {"text": _slack_escape(payload["text"]) + f"\n<{payload['url']}>"}
    if endpoint_format == Format.MATRIX:  # matrix-hookshot's generic webhooks (text, html, username)
        link = f'<a href="{escape(payload["url"])}">{escape(payload["game"] or "Topos")}</a>'
        html = f"{escape(payload['text'])} {link}"
        return url, {"text": _line(payload), "html": html, "username": "Topos"}
    if endpoint_format == Format.NTFY:  # ntfy's JSON publishing: posted to the server's root, the topic inside
        parts = urlsplit(url)
        root, _slash, topic = parts.path.rstrip("/").rpartition("/")
        return urlunsplit((parts.scheme, parts.netloc, root + "/", "", "")), {
            "topic": topic,
            "title": payload["game"] or "Topos",
            "message": payload["text"],
            "click": payload["url"],
            "tags": ["game_die"],
        }
    return url, payload  # the generic signed JSON


def request_of(endpoint: WebhookEndpoint, delivery_id: int, payload: dict, now: float | None = None):
    """(url, body bytes, headers) of one attempt."""
    url, body = body_of(endpoint.format, payload, endpoint.url)
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    timestamp = str(int(now if now is not None else time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Topos-Event": payload["event"],
        "X-Topos-Delivery": str(delivery_id),
        "X-Topos-Timestamp": timestamp,
        "X-Topos-Signature": signature(endpoint.secret, timestamp, raw),
    }
    return url, raw, headers
