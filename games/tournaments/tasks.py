"""Celery tasks of tournaments: thin and idempotent (the services lock the tournament and check its status)."""
from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, reject_on_worker_lost=True)
def tournaments_sweep() -> dict:
    """Beat, every minute: start (or cancel) the tournaments whose time has come; finish those whose tables are
    all over (the tables' own signal normally does it at once)."""
    from .services import tournaments_cancelled_tell_recent, tournaments_settle_running, tournaments_start_due

    tournaments_cancelled_tell_recent()  # a lost task's notifications, sent once (their keys)
    return {"started": len(tournaments_start_due()), "finished": len(tournaments_settle_running())}


@shared_task(acks_late=True, reject_on_worker_lost=True)
def tournament_settle(tournament_id: int) -> str:
    """A table of the tournament ended: finish the tournament if it was the last one."""
    from .services import tournament_settle as settle

    return settle(tournament_id=tournament_id).status


@shared_task(acks_late=True, reject_on_worker_lost=True)
def tournament_start(tournament_id: int) -> str:
    """The organiser started it early: deal its tables now (a no-op if it started already)."""
    from .services import tournament_start as start

    return start(tournament_id=tournament_id).status


@shared_task(acks_late=True, reject_on_worker_lost=True)
def tournament_cancelled_tell(tournament_id: int) -> int:
    """Its organiser cancelled it: tell the entrants (once each)."""
    from .services import tournament_cancelled_tell as tell

    return tell(tournament_id=tournament_id)
