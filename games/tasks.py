"""Celery tasks of the games app: thin, idempotent, taking ids and calling services.

Every automatic move carries the game version it was computed for; the service
ignores it if the game has moved on, so a retried or duplicated task is harmless.
"""
from __future__ import annotations

import logging
import random
import threading

from celery import shared_task
from django.conf import settings

from engine.bots import levels as bot_levels

from .models import Game

log = logging.getLogger(__name__)
_inline = threading.local()


def _bot_seats_to_act(game: Game) -> list[int]:
    seats = {s.index: s for s in game.seats.all()}
    return [i for i in game.to_act if seats[i].played_by_bot]


def _bot_delay(game: Game, seat_index: int) -> float:
    seat = game.seats.get(index=seat_index)
    level = bot_levels().get(seat.bot_level or "greedy", {})
    low, high = level.get("delay_seconds", (1.0, 3.0))
    # Not a game draw: only how long the bot seems to think, so the global generator is fine here.
    return random.uniform(low, high) * settings.TOPOS_BOT_DELAY_SCALE


def schedule_bots(game_id: int) -> None:
    """Ask the bots whose decision it is to move.

    With a broker, each bot move is its own task after a human-like delay.  In the
    embedded default tasks run inline, so this drains all bot moves in a loop rather
    than recursing once per move.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        if game is None:
            return
        for seat in _bot_seats_to_act(game):
            bot_move.apply_async((game_id, seat, game.version), countdown=_bot_delay(game, seat))
        return
    pending = getattr(_inline, "pending", None)
    if pending is not None:
        pending.add(game_id)
        return
    _inline.pending = {game_id}
    try:
        while _inline.pending:
            gid = _inline.pending.pop()
            game = Game.objects.filter(pk=gid, status=Game.Status.RUNNING).first()
            if game is None:
                continue
            for seat in _bot_seats_to_act(game):
                bot_move.run(gid, seat, game.version)
                break  # the move re-queues the game if bots still have to act
    finally:
        _inline.pending = None


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_move(game_id: int, seat: int, version: int) -> int | None:
    """Play one bot decision computed for `version`; returns the new action's seq, or None if stale."""
    from .services import bot_move_play

    logged = bot_move_play(game_id=game_id, seat=seat, version=version)
    return logged.seq if logged else None
