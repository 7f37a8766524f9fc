"""Celery tasks of the notifications app: thin, taking ids and calling its services (decision 15: its own tasks).

Each keeps the registered name it had when the app lived in games (as "games.notifications.tasks.digest_send"):
a queue in flight across a deploy, and the beat schedule (config/settings.py), must still be served.
"""

from __future__ import annotations

from celery import shared_task

from . import events, services


@shared_task(name="games.notifications.tasks.notification_email_send", acks_late=True, reject_on_worker_lost=True)
def notification_email_send(delivery_id: int) -> bool:
    """Send one pending email delivery (a no-op once it was sent or given up)."""
    return services.notification_email_send(delivery_id=delivery_id)


@shared_task(name="games.notifications.tasks.notification_channel_send", acks_late=True, reject_on_worker_lost=True)
def notification_channel_send(delivery_id: int) -> bool:
    """Decision 29: send one pending push or webhook delivery when due (ruling S6, as an email)."""
    return services.notification_channel_send(delivery_id=delivery_id)


@shared_task(name="games.notifications.tasks.vacation_tell", acks_late=True, reject_on_worker_lost=True)
def vacation_tell(vacation_id: int, event: str) -> int:
    """Her opponents hear that her vacation started or ended (once per person: the notices' keys)."""
    return events.vacation_notify(vacation_id=vacation_id, event=event)


@shared_task(name="games.notifications.tasks.deadline_reminders", acks_late=True, reject_on_worker_lost=True)
def deadline_reminders() -> int:
    """Beat: 24 h and 1 h warnings before correspondence deadlines."""
    return events.reminders_send()


@shared_task(name="games.notifications.tasks.digests_send", acks_late=True, reject_on_worker_lost=True)
def digests_send() -> int:
    """Beat, once a day: one email per person holding her digest notifications."""
    total = 0
    for user_id in services.digest_recipients():
        total += services.digest_send(user_id=user_id)
    return total


@shared_task(name="games.notifications.tasks.digest_send", acks_late=True, reject_on_worker_lost=True)
def digest_send(user_id: int) -> int:
    """One person's digest, held by her quiet hours until they ended (the beat sweep asks)."""
    return services.digest_send(user_id=user_id)
