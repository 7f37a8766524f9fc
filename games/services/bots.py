"""Bots at the table (ruling S2): when each one is asked to move, and how its move is applied.

A bot is asked through a Celery task, never inside a web request.  Each seat has at most
one pending bot task: `bot_tasks_claim` writes a token on the seat (`Seat.bot_task`) and
only the task carrying that token may play; the move's transaction clears it.  So a
retried, duplicated or superseded task does nothing, and a new task is asked for only
once the last one has played.

A bot thinks from its seat's view *before* taking the game's row lock (a strong bot may
think for seconds, and nobody else's move should wait for it); then it locks the game,
checks that nothing changed meanwhile, and applies what it chose through the same path
as a person's move (`moves.apply_action`).  If the game moved on while it thought, it
thinks again on the new position.

Pacing: at a live pace every single decision comes after the level's human reaction time
(engine.bots.levels `delay_seconds`), and a bot makes at most LIVE_BOT_ACTIONS_PER_ROUND
decisions in a row while no other seat acts, so a bot facing an empty table waits for
the table instead of running the hand down.  By correspondence the bot plays its whole
turn in one task, after one such delay less its turn's thinking limit (decision 26, `bot_delay`): per-decision
delays there only slow the game.  Thinking is limited by the level's `thinking_seconds` for the pace (a decision
live, the whole turn by correspondence).
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engine.bots import choose_action, levels, play_turn, reaction_delay, thinking_seconds
from engine.core import get_game

from ..models import Action, Game, Pace, Seat
from . import effects
from .locks import game_locked, seat_locked
from .moves import apply_action

log = logging.getLogger(__name__)

# Decisions a bot makes in a row at a live table while no other seat acts (a "round" of its own).
LIVE_BOT_ACTIONS_PER_ROUND = 40
# A pending bot task not heard of this long after it was due was lost before any worker noted it
# (the filesystem broker was wiped): the seat may be given a new one.  One held by a worker that died
# is sent again, same token, within seconds (config.monitoring.workers).
BOT_TASK_LOST_AFTER = timedelta(seconds=180)
# How often a bot thinks again when the game keeps moving under it before it can play.
THINK_ATTEMPTS = 3


@dataclass(frozen=True)
class BotCall:
    """One bot task to send: the seat, its token, and the reaction time before it plays."""

    seat: int
    token: str
    delay: float


def bot_level(seat: Seat) -> str:
    """The seat's level; a person's abandoned seat is played at the greedy level (ruling S1)."""
    level = seat.bot_level if seat.user_id is None else ""
    return level if level in levels() else "greedy"


def bot_delay(game: Game, seat: Seat) -> float:
    """A person's reaction time for the seat's level, scaled by TOPOS_BOT_DELAY_SCALE (0 in tests).

    By correspondence the bot's thinking counts in it (decision 26: people wait at a table of bots): it waits only what
    of the reaction time its turn's thinking limit does not already take, so a strong bot starts thinking at once."""
    seed = f"{game.seed}:{game.version}:{seat.index}"
    delay = reaction_delay(bot_level(seat), seed)
    if game.pace != Pace.LIVE:
        delay = max(0.0, delay - (thinking_seconds(bot_level(seat), game.pace) or 0.0))
    return delay * settings.TOPOS_BOT_DELAY_SCALE


def _acted_in_a_row(game: Game, seat: int) -> int:
    """How many of the last actions at the table are this seat's own, counting back from the latest."""
    recent = (
        Action.objects.filter(game=game).order_by("-seq").values_list("seat", flat=True)[:LIVE_BOT_ACTIONS_PER_ROUND]
    )
    count = 0
    for acted in recent:
        if acted != seat:
            break
        count += 1
    return count


def _bots_to_act(game: Game, seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.index in game.to_act and (s.user_id is None or s.abandoned)]


def bot_tasks_claim(*, game_id: int, now=None, read: tuple[Game, list[Seat]] | None = None) -> list[BotCall]:
    """Give every bot seat whose decision it is a pending task, unless it has one already.

    The claim is one conditional UPDATE per seat, so two dispatches racing each other
    (the effects task and the outbox sweep) hand out one task, not two.  `read`: the game and
    its seats as the caller just read them (the effects dispatch), so a table whose decision
    is nobody's bot's costs no query at all; a change since then sends its own dispatch.
    """
    now = now or timezone.now()
    if read is not None:
        game, bots = read[0], _bots_to_act(*read) if read[0].status == Game.Status.RUNNING else []
    else:
        game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).first()
        if game is None:
            return []
        bots = game.seats.filter(index__in=game.to_act).filter(Q(user__isnull=True) | Q(abandoned=True))
    calls: list[BotCall] = []
    for seat in bots:
        if game.pace == Pace.LIVE and _acted_in_a_row(game, seat.index) >= LIVE_BOT_ACTIONS_PER_ROUND:
            continue  # it has said enough until someone else acts
        delay = bot_delay(game, seat)
        token = secrets.token_hex(8)
        free = Q(bot_task="") | Q(bot_task_due__lt=now - BOT_TASK_LOST_AFTER)
        if Seat.objects.filter(free, pk=seat.pk).update(bot_task=token, bot_task_due=now + timedelta(seconds=delay)):
            calls.append(BotCall(seat=seat.index, token=token, delay=delay))
    return calls


def _release(seat_id: int, token: str) -> None:
    Seat.objects.filter(pk=seat_id, bot_task=token).update(bot_task="", bot_task_due=None)


def _think(game: Game, seat: Seat, state) -> list[dict]:
    """The bot's decisions from its own view only (ruling S2): one at a live pace, else its whole turn."""
    level, engine = bot_level(seat), get_game(game.kind)
    seed = f"{game.seed}:{game.version}:{seat.index}:bot"
    if settings.TOPOS_BOT_TEST_THINK > 0:  # tests only: a bot that thinks this long, as a strong one may
        time.sleep(settings.TOPOS_BOT_TEST_THINK)
    # Decision 26: the level's wall-clock limit at this pace, a decision live, the whole turn by correspondence.
    limit = thinking_seconds(level, game.pace)
    if game.pace == Pace.LIVE:
        budget = {"seconds": limit} if limit else None
        action = choose_action(level, engine, state.view(seat.index), seat.index, seed=seed, budget=budget)
        return [] if action is None else [action]
    return play_turn(level, engine, state.clone(), seat.index, seed, turn_seconds=limit)


def _pause_for_tests() -> None:
    """TOPOS_BOT_TEST_SLEEP (tests only): hold the bot's move uncommitted so a test can kill the worker."""
    pause = settings.TOPOS_BOT_TEST_SLEEP
    if pause > 0:
        log.warning("bot move paused for %.1f s (TOPOS_BOT_TEST_SLEEP)", pause)
        time.sleep(pause)


def bot_turn_play(*, game_id: int, seat: int, token: str) -> list[Action]:
    """The bot's task for `seat` plays, if `token` is still the seat's pending task; returns the actions logged."""
    for _ in range(THINK_ATTEMPTS):
        game = Game.objects.filter(pk=game_id).first()
        seat_row = Seat.objects.filter(game_id=game_id, index=seat).first()
        if game is None or seat_row is None or seat_row.bot_task != token:
            return []  # played already, or superseded
        if not (game.is_running and seat in game.to_act and seat_row.played_by_bot):
            _release(seat_row.pk, token)
            return []
        state = get_game(game.kind).load(game.state)
        thought_at = game.version
        actions = _think(game, seat_row, state)
        with transaction.atomic():
            game = game_locked(game_id)
            seat_row = seat_locked(game, seat_row.index)
            if seat_row.bot_task != token:
                return []
            if game.version != thought_at:
                continue  # the table changed while it thought: think again on what is there now
            logged = []
            for action in actions:
                if not (game.is_running and seat in game.to_act):
                    break
                logged.append(apply_action(game, seat_row, action, user=None, source=Action.Source.BOT)[0])
            _release(seat_row.pk, token)
            if logged:
                _pause_for_tests()
            return logged
    # The table kept moving: free the seat and ask again (a fresh task, after a fresh reaction time).
    seat_row = Seat.objects.filter(game_id=game_id, index=seat).first()
    if seat_row is not None:
        _release(seat_row.pk, token)
        effects.bots_wanted(game_id)
    return []
