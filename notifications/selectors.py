"""Reads about notifications: the badge count, a person's list, her email choices."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Notification, NotificationEvent, NotificationPreference

DEFAULT_EMAIL = NotificationPreference.Email.IMMEDIATE
# Events that send no email unless she asks for it: a table's chat can be busy (decision 17).
DEFAULT_EMAILS = {NotificationEvent.CHAT: NotificationPreference.Email.NONE}


def default_email(event: str) -> str:
    return DEFAULT_EMAILS.get(event, DEFAULT_EMAIL)


def unread_count(*, user) -> int:
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def notifications_of_user(*, user) -> QuerySet[Notification]:
    """All of hers, newest first (a rewritten "your turn" counts from its latest turn); the list pages it."""
    return Notification.objects.filter(recipient=user).order_by("-created_at", "-id")


def email_choices_of_user(*, user) -> dict[str, str]:
    """Per event, how she wants it by email (immediate, digest or none); events without a row use the default."""
    chosen = dict(NotificationPreference.objects.filter(user=user).values_list("event", "email"))
    return {event: chosen.get(event, default_email(event)) for event in NotificationEvent.values}


def email_choice(*, user, event: str) -> str:
    row = NotificationPreference.objects.filter(user=user, event=event).values_list("email", flat=True).first()
    return row or default_email(event)
