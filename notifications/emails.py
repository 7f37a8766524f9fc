"""The notification emails: plain text, a direct link to the game, a link to change the choice."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.personal import her_words

from .models import Notification
from .texts import game_label, notification_words, table_url

SUBJECTS = {
    "your_turn": _("Your turn at %(game)s"),
    "invited": _("An invitation to %(game)s"),
    "started": _("%(game)s has started"),
    "finished": _("Game over at %(game)s"),
    "deadline": _("Your deadline at %(game)s is near"),
    "bot_played": _("The bot played for you at %(game)s"),
    "chat": _("A chat message at %(game)s"),
    "tournament": _("News of a tournament at %(game)s"),
    "answered": _("An answer about %(game)s"),
    "aborted": _("%(game)s was aborted"),
    "vacation": _("An opponent's vacation at %(game)s"),
}


def _settings_url() -> str:
    return settings.SITE_URL + reverse("notification_settings")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def notification_email(notification: Notification) -> EmailMessage:
    """In the recipient's language and time zone (her account's; the site's if she never chose)."""
    with her_words(notification.recipient):
        return _notification_email(notification)


def _subject(notification: Notification) -> str:
    # A turn's label and time left (decision 29) open the email's text (notification_words), not its subject, which
    # stays the one mail clients thread a table's turns by.
    return SUBJECTS[notification.kind] % {"game": game_label(notification.game) if notification.game_id else "Topos"}


def _notification_email(notification: Notification) -> EmailMessage:
    context = {
        "notification": notification,
        "text": notification_words(notification),  # worded now, in her language (decision 13)
        "game_url": table_url(notification.game_id) if notification.game_id else settings.SITE_URL + "/",
        "settings_url": _settings_url(),
        "site_name": "Topos",
        "user": notification.recipient,
        "subject_line": _subject(notification),
    }
    subject = _one_line(render_to_string("notifications/email/notification_subject.txt", context))
    body = render_to_string("notifications/email/notification_body.txt", context)
    return EmailMessage(subject=subject, body=body, to=[notification.recipient.email])


def digest_email(user, notifications: list[Notification]) -> EmailMessage:
    with her_words(user):
        return _digest_email(user, notifications)


def _digest_email(user, notifications: list[Notification]) -> EmailMessage:
    items = [
        {
            "text": notification_words(n),
            "game_url": table_url(n.game_id) if n.game_id else "",
            "created_at": n.created_at,
        }
        for n in notifications
    ]
    context = {
        "user": user,
        "items": items,
        "count": len(items),
        "settings_url": _settings_url(),
        "site_name": "Topos",
        "list_url": settings.SITE_URL + reverse("notifications"),
    }
    subject = _one_line(render_to_string("notifications/email/digest_subject.txt", context))
    body = render_to_string("notifications/email/digest_body.txt", context)
    return EmailMessage(subject=subject, body=body, to=[user.email])
