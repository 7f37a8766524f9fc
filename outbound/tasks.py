"""Celery tasks of the outbound app (decision 29): thin, taking ids.  Nothing is ever sent inside a web request."""

from __future__ import annotations

from celery import shared_task

from config.celery import enqueue

from . import services


@shared_task(acks_late=True, reject_on_worker_lost=True)
def webhook_deliver(delivery_id: int) -> str | None:
    """One attempt at one webhook delivery; a failure queues the next one with its backoff."""
    return services.webhook_deliver(delivery_id=delivery_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def outbound_sweep() -> int:
    """Beat: webhook attempts a lost message left behind; the log's old rows forgotten."""
    due = services.webhook_deliveries_due()
    for delivery_id in due:
        enqueue("outbound.tasks.webhook_deliver", delivery_id)
    services.webhook_log_purge()
    return len(due)
