"""Her devices for Web Push, which events she wants pushed, her webhook endpoints and their delivery log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_secret() -> str:
    return secrets.token_urlsafe(32)


class PushSubscription(models.Model):
    """One browser's push subscription (PushManager.subscribe): where to post, and the keys to encrypt with."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's public key (base64url).")
    auth = models.CharField(max_length=100, help_text="The browser's auth secret (base64url).")
    user_agent = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"push {self.user_id} {self.endpoint[:40]}"


class PushChoice(models.Model):
    """Which kinds of event she wants pushed to her devices; no row: the defaults (outbound.services)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_choice")
    events = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"push choice {self.user_id}"


class WebhookEndpoint(models.Model):
    """An address of hers that is sent the events she chose, in one of the formats, signed with its secret."""

    class Format(models.TextChoices):
        GENERIC = "generic", _("Signed JSON")
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"
        MATRIX = "matrix", _("Matrix (hookshot)")
        NTFY = "ntfy", "ntfy"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=1000)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.GENERIC)
    events = models.JSONField(default=list)
    secret = models.CharField(max_length=64, default=new_secret)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"webhook {self.user_id} {self.format} {self.url[:40]}"


class WebhookDelivery(models.Model):
    """One event sent (or to be sent) to one endpoint: the log shown on her page and in the API."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        SENDING = "sending", _("Sending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20, help_text="The notification's kind, or 'test'.")
    source = models.ForeignKey(
        "notifications.NotificationDelivery",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The notification's webhook delivery that made it (none for a test event).",
    )
    payload = models.JSONField(help_text="What may be said (outbound.payloads), formatted when sent.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The last HTTP answer's status.")
    last_error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_queue")]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "source"],
                condition=models.Q(source__isnull=False),
                name="webhook_delivery_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint_id}: {self.status}"
