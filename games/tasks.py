"""Celery tasks of the games app: thin, idempotent, taking ids and calling services.

No task runs inside a web request: a worker takes them, from Redis or from the embedded
default's filesystem broker.  A missed deadline carries the game version it was computed
for and a bot move carries its seat's pending-task token (games.services.bots); either is
a no-op once the game has moved on or the token is spent, so a retried or duplicated task
is harmless.
Tasks are sent only after the transaction that asked for them commits
(`transaction.on_commit`, see games/services/effects.py).  If the broker cannot take
one then, nothing is lost: the committed rows (game version, seat deadline, pending
email delivery) are the outbox, and the beat sweeps below send what was left behind.

All tasks are acknowledged late and rejected (so redelivered) when their worker dies
(settings: CELERY_TASK_ACKS_LATE, CELERY_TASK_REJECT_ON_WORKER_LOST).  Those a live table waits for
(`resend_if_worker_dies`) are sent again within seconds when the whole worker dies with them
(config.monitoring.workers), whichever broker had handed them over.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from config.celery import enqueue

from . import hooks
from .api.idempotency import idempotency_records_purge
from .models import Game
from .selectors.pace import profiles_refresh_active
from .selectors.sweeps import deadlines_due, games_behind, stalled_bot_games
from .services import bot_tasks_claim, bot_turn_play, deadline_expire
from .services.auto_play import auto_seats, forced_decision_play
from .services.effects_mark import mark_cleared, mark_taken
from .services.vacation import vacations_end_due as vacations_end

# --- bots ------------------------------------------------------------------------------------


def schedule_bots(game_id: int, read=None) -> int:
    """Give each bot whose decision it is one pending task, after its reaction time (games.services.bots);
    `read`: the game and its seats as the effects dispatch just read them."""
    calls = bot_tasks_claim(game_id=game_id, read=read)
    for call in calls:
        enqueue("games.tasks.bot_move", game_id, call.seat, call.token, countdown=call.delay)
    return len(calls)


@shared_task(acks_late=True, reject_on_worker_lost=True, resend_if_worker_dies=True)
def bot_move(game_id: int, seat: int, token: str) -> int | None:
    """The seat's pending bot task: play (a decision live, a whole turn by correspondence); the last seq or None."""
    logged = bot_turn_play(game_id=game_id, seat=seat, token=token)
    return logged[-1].seq if logged else None


@shared_task(acks_late=True, reject_on_worker_lost=True, resend_if_worker_dies=True)
def bots_schedule(game_id: int) -> int:
    """Ask the bots again (a bot gave up because the table kept moving while it thought)."""
    return schedule_bots(game_id)


# --- after-effects of a committed change --------------------------------------------------------


@shared_task(acks_late=True, reject_on_worker_lost=True, resend_if_worker_dies=True)
def game_effects(game_id: int) -> bool:
    """Tell people what changed in the game, then let the bots whose turn it is move."""
    done = None
    try:
        # The "task queued" mark goes before the game is read: with Redis here, else in the dispatch's transaction
        # (games.services.effects_mark); a change committed after the read sends the next task.
        mark_taken(game_id)
        # The dispatch (notifications, games.hooks): tells, moves the cursor and, committed, nudges the streams.
        done = next(iter(hooks.effects_dispatch(game_id)), None)
        return done.new if done is not None else False
    except Exception:
        mark_cleared(game_id)  # rolled back with it: clear the mark, so the next change sends a task at once
        raise
    finally:
        # Bots never wait on the notifications: if telling people failed (the outbox sweep tells
        # them later), the bot whose decision it is is still asked now.  One to decide with no
        # pending task gets one; one that has a task is left alone (the claim on its seat), so
        # repeated effects never queue a second bot move.  The table as the dispatch read it will do:
        # a change committed since then sends a dispatch of its own.
        read = (done.game, done.seats) if done is not None and done.game is not None else None
        schedule_bots(game_id, read)
        if read is not None:
            schedule_auto_plays(*read)


def schedule_auto_plays(game: Game, seats) -> int:
    """Decision 29: a task for each seat to decide whose person has her forced decisions played for her; the task
    plays only if the decision is forced and the game still at this version (games.services.auto_play)."""
    wanted = auto_seats(game, seats)
    for seat in wanted:
        enqueue("games.tasks.auto_play_forced", game.pk, seat, game.version)
    return len(wanted)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def auto_play_forced(game_id: int, seat: int, version: int) -> int | None:
    """Her forced decision at `version`, played for her (source "auto"); the seq logged, or None."""
    logged = forced_decision_play(game_id=game_id, seat=seat, version=version)
    return logged.seq if logged is not None else None


@shared_task(acks_late=True, reject_on_worker_lost=True)
def pace_profiles_refresh() -> int:
    """Beat, hourly (decision 29): the pace profiles of the people who played in the last hour
    (games.selectors.pace)."""
    return profiles_refresh_active()


# --- deadlines (ruling S1) ---------------------------------------------------------------------------


@shared_task(acks_late=True, reject_on_worker_lost=True, resend_if_worker_dies=True)
def seat_deadline_expire(game_id: int, seat: int, version: int) -> int | None:
    """The missed deadline of one seat, computed for `version`: applied once, under the game's row lock.

    If another timeout of the same game got in first (several seats deciding at once,
    as in Toppo), the version is stale; the seat is tried again at the new version
    while its own deadline is still past, so it need not wait for the next sweep.
    """

    for _ in range(4):
        logged = deadline_expire(game_id=game_id, seat=seat, version=version)
        if logged is not None:
            return logged.seq
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        still_due = (
            game is not None
            and game.version != version
            and seat in game.to_act
            and game.seats.filter(index=seat, deadline__lte=timezone.now()).exists()
        )
        if not still_due:
            return None
        version = game.version
    return None


@shared_task(acks_late=True, reject_on_worker_lost=True)
def deadlines_sweep() -> int:
    """Beat: hand every expired deadline to `seat_deadline_expire`; safe to run twice at once."""
    due = deadlines_due()
    for game_id, seat, version in due:
        enqueue("games.tasks.seat_deadline_expire", game_id, seat, version)
    return len(due)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def vacations_end_due() -> int:
    """Beat: end the vacations whose planned end has come (ruling S4); their clocks run again."""
    return vacations_end()


# --- the outbox sweep and the digest -----------------------------------------------------------------


@shared_task(acks_late=True, reject_on_worker_lost=True)
def effects_sweep() -> dict:
    """Beat: send what a lost task or a broker outage left behind, exactly as the normal path would."""
    behind = games_behind()
    for game_id in behind:
        enqueue("games.tasks.game_effects", game_id)
    counts = {"games": len(behind), "emails": 0, "gave_up": 0}
    # Later apps' outboxes (games.hooks): notifications' emails, push, webhooks and held digests; the chat's lines.
    for told in hooks.outbox_sweep():
        counts.update(told)
    stalled = [g for g in stalled_bot_games() if g not in behind]
    for game_id in stalled:
        schedule_bots(game_id)
    return {**counts, "bots": len(stalled)}


@shared_task(acks_late=True, reject_on_worker_lost=True)
def idempotency_purge() -> int:
    """Beat, hourly: forget Idempotency-Key answers older than TOPOS_IDEMPOTENCY_RETENTION_HOURS."""
    return idempotency_records_purge()
