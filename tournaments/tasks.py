"""Celery tasks of tournaments: thin and idempotent (the services lock the tournament and check its status).

Each keeps the name it was registered under while tournaments lived in games (name="games.<module>.<task>"):
the beat schedule and the messages queued in the broker name it so, and a queue in flight across a deploy
must still be served."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="games.tournaments.tasks.tournaments_sweep", acks_late=True, reject_on_worker_lost=True)
def tournaments_sweep() -> dict:
    """Beat, every minute: start (or cancel) the tournaments whose time has come; finish those whose tables are
    all over (the tables' own signal normally does it at once)."""
    services.tournaments_cancelled_tell_recent()  # a lost task's notifications, sent once (their keys)
    return {"started": len(services.tournaments_start_due()), "finished": len(services.tournaments_settle_running())}


@shared_task(name="games.tournaments.tasks.tournament_settle", acks_late=True, reject_on_worker_lost=True)
def tournament_settle(tournament_id: int) -> str:
    """A table of the tournament ended: finish the tournament if it was the last one."""
    return services.tournament_settle(tournament_id=tournament_id).status


@shared_task(name="games.tournaments.tasks.tournament_start", acks_late=True, reject_on_worker_lost=True)
def tournament_start(tournament_id: int) -> str:
    """The organiser started it early: deal its tables now (a no-op if it started already)."""
    return services.tournament_start(tournament_id=tournament_id).status


@shared_task(name="games.tournaments.tasks.tournament_cancelled_tell", acks_late=True, reject_on_worker_lost=True)
def tournament_cancelled_tell(tournament_id: int) -> int:
    """Its organiser cancelled it: tell the entrants (once each)."""
    return services.tournament_cancelled_tell(tournament_id=tournament_id)
