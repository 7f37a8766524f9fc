"""What notifications adds to her data export and to the deletion of her account (ruling S8).

Registered from NotificationsConfig.ready into accounts.data_export (a section) and accounts.deletion (where her name
is rewritten).  Her own notifications, preferences, quiet hours and queued emails are deleted with her.
"""

from __future__ import annotations

from accounts.data_export import not_exported, section
from accounts.deletion import scrubber
from games.account_data import rename_in_rows

from .models import Notification, NotificationPreference, QuietHours
from .texts import notification_words

not_exported("notifications.NotificationDelivery.recipient", "How each notification was sent: in notifications.")


@section(
    "notifications",
    covers=(
        "notifications.Notification.recipient",
        "notifications.NotificationPreference.user",
        "notifications.QuietHours.user",
    ),
)
def _notifications(user) -> dict:
    quiet = QuietHours.objects.filter(user=user).first()
    return {
        "preferences": [{"event": p.event, "email": p.email} for p in NotificationPreference.objects.filter(user=user)],
        "quiet_hours": {"start": quiet.start.isoformat(), "end": quiet.end.isoformat()} if quiet else None,
        "received": [
            {
                "kind": n.kind,
                "table": n.game_id,
                "words": notification_words(n),
                "params": n.params,
                "read_at": n.read_at.isoformat() if n.read_at else None,
                "created_at": n.created_at.isoformat(),
            }
            for n in Notification.objects.filter(recipient=user).order_by("created_at")
        ],
    }


@scrubber
def _rename_in_others_notifications(user, old: str, new: str) -> None:
    """Other people's notifications store the names of those they tell of, as data (decision 13), and a few as
    text: hers becomes the neutral one, so nothing sent or shown after her deletion names her."""
    rename_in_rows(Notification, "params", old, new)
    for row in Notification.objects.filter(text__contains=old).iterator():
        row.text = row.text.replace(old, new)
        row.save(update_fields=["text"])
