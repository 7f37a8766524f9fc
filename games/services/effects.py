"""After-effects of committed writes: bots to move, people to notify.

Each function here runs from `transaction.on_commit`, so a rolled-back write sends
nothing.  They only hand ids to Celery tasks; the tasks call services.
"""
from __future__ import annotations


def after_start(game) -> None:
    from django.db import transaction

    transaction.on_commit(lambda: after_action(game.pk, game.version))


def after_action(game_id: int, version: int) -> None:
    """A game changed: let bots whose decision it is move."""
    from .. import tasks

    tasks.schedule_bots(game_id)


def after_finish(game_id: int) -> None:
    pass


def after_timeout(game_id: int, seat_id: int) -> None:
    pass


def after_invitation(invitation) -> None:
    pass
