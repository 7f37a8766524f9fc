"""Celery tasks of the games app: thin, idempotent, taking ids and calling services.

Every automatic move carries the game version it was computed for; the service
ignores it if the game has moved on, so a retried or duplicated task is harmless.
Tasks are sent only after the transaction that asked for them commits
(`transaction.on_commit`, see games/services/effects.py).  If the broker cannot take
one then, nothing is lost: the committed rows (game version, seat deadline, pending
email delivery) are the outbox, and the beat sweeps below send what was left behind.

All tasks are acknowledged late and rejected (so redelivered) when their worker dies
(settings: CELERY_TASK_ACKS_LATE, CELERY_TASK_REJECT_ON_WORKER_LOST).
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.bots import levels as bot_levels
from engine.bots import reaction_delay

from .models import Game, Seat

log = logging.getLogger(__name__)
_inline = threading.local()


def runs_inline() -> bool:
    """True without a broker (the embedded default): tasks run in the calling process."""
    return bool(bot_move.app.conf.task_always_eager)


def enqueue(task, *args, countdown: float | None = None) -> bool:
    """Send a task; if the broker is unreachable, log it and return False (a beat sweep sends it later).

    Called after commit only, so the database already holds what the sweep needs.
    """
    try:
        if countdown:
            task.apply_async(args, countdown=countdown)
        else:
            task.apply_async(args)
        return True
    except Exception:
        log.exception("could not send %s%r; the beat sweep will pick it up", task.name, args)
        return False


# --- bots ------------------------------------------------------------------------------------


def _bot_seats_to_act(game: Game) -> list[Seat]:
    return [s for s in game.seats.all() if s.index in game.to_act and s.played_by_bot]


def _bot_delay(game: Game, seat: Seat) -> float:
    """A person's reaction time for the bot's level (engine.bots.levels), scaled by TOPOS_BOT_DELAY_SCALE."""
    level = seat.bot_level if seat.bot_level in bot_levels() else "greedy"
    return reaction_delay(level, f"{game.seed}:{game.version}:{seat.index}") * settings.TOPOS_BOT_DELAY_SCALE


def schedule_bots(game_id: int) -> None:
    """Ask the bots whose decision it is to move.

    With a broker, each bot move is its own task after a human-like delay.  In the
    embedded default tasks run inline, so this drains all bot moves in a loop rather
    than recursing once per move.
    """
    if not runs_inline():
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        if game is None:
            return
        for seat in _bot_seats_to_act(game):
            enqueue(bot_move, game_id, seat.index, game.version, countdown=_bot_delay(game, seat))
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
                bot_move.run(gid, seat.index, game.version)
                break  # the move re-queues the game if bots still have to act
    finally:
        _inline.pending = None


def _pause_for_tests() -> None:
    """TOPOS_BOT_TEST_SLEEP (tests only): hold the bot's move uncommitted so a test can kill the worker."""
    pause = settings.TOPOS_BOT_TEST_SLEEP
    if pause > 0:
        log.warning("bot move paused for %.1f s (TOPOS_BOT_TEST_SLEEP)", pause)
        time.sleep(pause)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_move(game_id: int, seat: int, version: int) -> int | None:
    """Play one bot decision computed for `version`; returns the new action's seq, or None if stale."""
    from .services import bot_move_play

    with transaction.atomic():
        logged = bot_move_play(game_id=game_id, seat=seat, version=version)
        if logged is not None:
            _pause_for_tests()
    return logged.seq if logged else None


# --- after-effects of a committed change --------------------------------------------------------


@shared_task(acks_late=True, reject_on_worker_lost=True)
def game_effects(game_id: int) -> bool:
    """Tell people what changed in the game, then let the bots whose turn it is move."""
    from .notifications.events import game_effects_dispatch

    told = game_effects_dispatch(game_id=game_id)
    schedule_bots(game_id)
    return told


@shared_task(acks_late=True, reject_on_worker_lost=True)
def notification_email_send(delivery_id: int) -> bool:
    from .notifications.services import notification_email_send as send

    return send(delivery_id=delivery_id)


# --- deadlines (ruling S1) ---------------------------------------------------------------------------


def deadlines_due(*, now=None, limit: int = 500) -> list[tuple[int, int, int]]:
    """(game id, seat, game version) for every seat to act whose deadline has passed, oldest first."""
    now = now or timezone.now()
    seats = (Seat.objects.filter(deadline__lte=now, game__status=Game.Status.RUNNING)
             .select_related("game").order_by("deadline")[:limit])
    return [(s.game_id, s.index, s.game.version) for s in seats if s.index in s.game.to_act]


@shared_task(acks_late=True, reject_on_worker_lost=True)
def seat_deadline_expire(game_id: int, seat: int, version: int) -> int | None:
    """The missed deadline of one seat, computed for `version`: applied once, under the game's row lock.

    If another timeout of the same game got in first (several seats deciding at once,
    as in Toppo), the version is stale; the seat is tried again at the new version
    while its own deadline is still past, so it need not wait for the next sweep.
    """
    from .services import deadline_expire

    for _ in range(4):
        logged = deadline_expire(game_id=game_id, seat=seat, version=version)
        if logged is not None:
            return logged.seq
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        still_due = (game is not None and game.version != version and seat in game.to_act
                     and game.seats.filter(index=seat, deadline__lte=timezone.now()).exists())
        if not still_due:
            return None
        version = game.version
    return None


@shared_task(acks_late=True, reject_on_worker_lost=True)
def deadlines_sweep() -> int:
    """Beat: hand every expired deadline to `seat_deadline_expire`; safe to run twice at once."""
    due = deadlines_due()
    for game_id, seat, version in due:
        enqueue(seat_deadline_expire, game_id, seat, version)
    return len(due)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def deadline_reminders() -> int:
    """Beat: 24 h and 1 h warnings before correspondence deadlines."""
    from .notifications.events import reminders_send

    return reminders_send()


# --- the outbox sweep and the digest -----------------------------------------------------------------


def stalled_bot_games(*, now=None, after_seconds: int = 60) -> list[int]:
    """Running games where a bot should have moved a while ago (its task was lost or failed)."""
    now = now or timezone.now()
    seats = (Seat.objects.filter(game__status=Game.Status.RUNNING,
                                 game__updated_at__lte=now - timedelta(seconds=after_seconds))
             .exclude(user__isnull=False, abandoned=False).select_related("game"))
    return sorted({s.game_id for s in seats if s.index in s.game.to_act})


@shared_task(acks_late=True, reject_on_worker_lost=True)
def effects_sweep() -> dict:
    """Beat: send what a lost task or a broker outage left behind, exactly as the normal path would."""
    from .notifications import services as notes
    from .notifications.events import games_behind

    behind = games_behind()
    for game_id in behind:
        enqueue(game_effects, game_id)
    overdue = notes.deliveries_overdue()
    for delivery_id in overdue:
        enqueue(notification_email_send, delivery_id)
    stuck = notes.deliveries_give_up_stuck()
    stalled = [g for g in stalled_bot_games() if g not in behind]
    for game_id in stalled:
        if runs_inline():
            schedule_bots(game_id)
        else:
            enqueue(game_effects, game_id)
    return {"games": len(behind), "emails": len(overdue), "gave_up": stuck, "bots": len(stalled)}


@shared_task(acks_late=True, reject_on_worker_lost=True)
def digests_send() -> int:
    """Beat, once a day: one email per person holding her digest notifications."""
    from .notifications import services as notes

    total = 0
    for user_id in notes.digest_recipients():
        total += notes.digest_send(user_id=user_id)
    return total
