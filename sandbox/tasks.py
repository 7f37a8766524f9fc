"""Celery tasks of sandboxes (decision 29, point 1): thin, taking ids and calling sandbox.services.

A bot's answer in a sandbox runs here, in the worker, never inside the request that asked for it (a strong bot
thinks for seconds).  It carries the sandbox's token: a retried, duplicated or superseded task does nothing.
"""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True, reject_on_worker_lost=True)
def sandbox_bot_answer(sandbox_id: int, token: str) -> bool:
    return services.sandbox_bot_answer(sandbox_id, token)


@shared_task
def sandboxes_expire() -> int:
    """Beat, hourly: delete the sandboxes unused for TOPOS_SANDBOX_DAYS days."""
    return services.sandboxes_expire()
