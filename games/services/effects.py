"""After-effects of committed writes: bots to move, people to notify.

`after_action`, `after_finish` and `after_timeout` run from `transaction.on_commit`
(see moves.py); `after_start` and `after_invitation` are called inside the writing
transaction and defer what leaves the process to its commit.  So a rolled-back
write sends nothing.  They only hand ids to Celery tasks; the tasks call services.

Nothing here may fail the write that is already committed: if the broker cannot
take a task, `tasks.enqueue` logs it and the beat sweep (`tasks.effects_sweep`)
finds the game behind its effects cursor and sends it again.
"""
from __future__ import annotations

from django.db import transaction


def game_changed(game_id: int) -> None:
    """Notify the players of what changed and let the bots move (one task, `tasks.game_effects`)."""
    from .. import tasks

    tasks.enqueue(tasks.game_effects, game_id)


def bots_wanted(game_id: int) -> None:
    """Ask the bots of a game again, outside any transaction (`tasks.bots_schedule`)."""
    from .. import tasks

    tasks.enqueue(tasks.bots_schedule, game_id)


def after_start(game) -> None:
    game_id = game.pk
    transaction.on_commit(lambda: game_changed(game_id))


def after_action(game_id: int, version: int) -> None:
    """A game changed (a move, a resignation): tell people, let bots whose decision it is move."""
    game_changed(game_id)


def after_finish(game_id: int) -> None:
    game_changed(game_id)


def after_timeout(game_id: int, seat_id: int) -> None:
    """A missed deadline was played by the bot; the effects dispatch tells the player (from the log)."""
    game_changed(game_id)


def after_invitation(invitation) -> None:
    """Written in the invitation's own transaction: both are kept or neither; the email leaves on commit."""
    from ..notifications.events import invitation_notify

    invitation_notify(invitation)
