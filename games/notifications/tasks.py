"""Celery tasks of the notifications app: thin, taking ids and calling its services (issue 15: its own tasks)."""

from __future__ import annotations

from celery import shared_task

from . import events, services


@shared_task(acks_late=True, reject_on_worker_lost=True)
def notification_email_send(delivery_id: int) -> bool:
    """Send one pending email delivery (a no-op once it was sent or given up)."""
    return services.notification_email_send(delivery_id=delivery_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def deadline_reminders() -> int:
    """Beat: 24 h and 1 h warnings before correspondence deadlines."""
    return events.reminders_send()


@shared_task(acks_late=True, reject_on_worker_lost=True)
def digests_send() -> int:
    """Beat, once a day: one email per person holding her digest notifications."""
    total = 0
    for user_id in services.digest_recipients():
        total += services.digest_send(user_id=user_id)
    return total
