"""The worker's half of the heartbeat (monitoring.heartbeats)."""

from celery import shared_task

from .heartbeats import heartbeat_stamp


@shared_task(acks_late=True, reject_on_worker_lost=True)
def heartbeat() -> None:
    """Beat sends this every TOPOS_HEARTBEAT_SECONDS; whichever worker runs it proves the queue is being served."""
    heartbeat_stamp("worker")
