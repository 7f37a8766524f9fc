"""What a notification may say outside the site (decision 29): only what her own view allows.

The same words as her email (notifications.texts, made from her view and public facts only), in her
language, with the table's id, the game's name and number, and the link.  Never a position, a hand, a deck: those
stay on the site, behind her login.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.personal import her_words
from notifications.models import NotificationEvent
from notifications.texts import game_label, notification_words, table_url

LABELS = dict(NotificationEvent.choices)


def notification_payload(notification) -> dict:
    """The event as it may leave the site, worded in the recipient's language."""
    with her_words(notification.recipient):
        return {
            "event": notification.kind,
            "label": str(LABELS.get(notification.kind, notification.kind)),
            "text": notification_words(notification),
            "table": notification.game_id,
            "game": game_label(notification.game) if notification.game_id else None,
            "url": table_url(notification.game_id) if notification.game_id else settings.SITE_URL + "/",
            "created_at": notification.created_at.isoformat(),
        }


def test_payload(user, now) -> dict:
    """What "send a test event" sends: no table, her language."""
    with her_words(user):
        return {
            "event": "test",
            "label": _("Test event"),
            "text": _("A test event from Topos: this address receives your notifications."),
            "table": None,
            "game": None,
            "url": settings.SITE_URL + "/",
            "created_at": now.isoformat(),
        }
