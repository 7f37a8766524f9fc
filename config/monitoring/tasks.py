"""The worker's half of the heartbeat (monitoring.heartbeats); the sweep of dead workers' work (monitoring.workers)."""

from celery import shared_task

from .heartbeats import heartbeat_stamp
from .workers import dead_workers_work_resend


@shared_task(acks_late=True, reject_on_worker_lost=True)
def heartbeat() -> None:
    """Beat sends this every TOPOS_HEARTBEAT_SECONDS; whichever worker runs it proves the queue is being served."""
    heartbeat_stamp("worker")


@shared_task(acks_late=True, reject_on_worker_lost=True)
def lost_work_sweep() -> int:
    """Beat, every TOPOS_LOST_WORK_SWEEP_SECONDS: send again what a worker silent for TOPOS_WORKER_LOST_SECONDS held."""
    return dead_workers_work_resend()
