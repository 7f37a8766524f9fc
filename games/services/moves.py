"""Submitting actions: the one path every move takes, from a person, a bot or a missed deadline.

`action_submit` locks the game row, checks the seat, the version the client saw and
the legality, appends the action, stores the snapshot and bumps the version, all in
one transaction; its after-effects are sent only once that transaction commits.
"""
from __future__ import annotations

import json
from datetime import timedelta
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.core import IllegalAction, get_game

from ..errors import BadRequest, Conflict, Forbidden, IllegalMove, NotFound, StaleVersion
from ..models import Action, Game, Pace, Seat
from . import effects
from .clock import restart_clocks

MAX_ACTION_BYTES = 4096


@dataclass
class SubmitResult:
    game: Game
    seat: int
    action: Action
    view: dict


def _status_word(status: str) -> str:
    """The game's status as a lower-case word inside a sentence ("This game is finished; ...")."""
    words = {"open": pgettext("game status in a sentence", "open"),
             "running": pgettext("game status in a sentence", "running"),
             "finished": pgettext("game status in a sentence", "finished"),
             "aborted": pgettext("game status in a sentence", "aborted")}
    return words.get(str(status), str(status))


def _lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(_("There is no game #%(id)s.") % {"id": game_id}) from None


def _check_shape(action) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_('An action is a JSON object with a "type", e.g. {"type": "end_turn"}.'))
    if len(json.dumps(action)) > MAX_ACTION_BYTES:
        raise BadRequest(_("That action is far too large to be a move."))
    return action


def _seat_for_user(game: Game, user, seat: int | None) -> Seat:
    seats = list(game.seats.filter(user=user)) if user is not None else []
    if not seats:
        raise Forbidden(_("You do not play at this table."))
    if seat is not None and seat not in [s.index for s in seats]:
        raise Forbidden(_("Seat %(seat)s is not yours.") % {"seat": seat})
    return seats[0]


def _apply(game: Game, seat: Seat, action: dict, *, user, source: str) -> tuple[Action, object]:
    engine = get_game(game.kind)
    state = engine.load(game.state)
    before = state.clone()
    previous_to_act = list(game.to_act)
    old_marker = state.turn_marker()
    try:
        state.apply(seat.index, action)
    except IllegalAction as exc:
        raise IllegalMove(exc.reason) from None
    now = timezone.now()
    game.version += 1
    logged = Action.objects.create(
        game=game, seq=game.version, seat=seat.index, user=user if source == Action.Source.PLAYER else None,
        source=source, action=action, description=state.describe(seat.index, action, before),
    )
    game.state = state.to_json()
    game.to_act = state.to_act()
    marker = state.turn_marker()
    game.turn_marker = "" if marker is None else str(marker)[:64]
    update = ["state", "version", "to_act", "turn_marker", "updated_at"]
    if state.is_over():
        _finish(game, state, now)
        update += ["status", "finished_at"]
    game.save(update_fields=update)
    if game.is_running:
        restart_clocks(game, state, previous_to_act=previous_to_act, now=now, marker_changed=marker != old_marker,
                       acted=seat.index)
    if source == Action.Source.PLAYER:
        # A move made by the player herself ends a run of missed deadlines (ruling S1).
        Seat.objects.filter(pk=seat.pk, missed_deadlines__gt=0).update(missed_deadlines=0)
    transaction.on_commit(lambda: effects.after_action(game.pk, game.version))
    return logged, state


def _finish(game: Game, state, now) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = now
    results = {r.seat: r for r in state.results()}
    for seat in game.seats.all():
        r = results[seat.index]
        # An abandoned seat counts as a loss whatever its score (ruling S1).
        seat.rank = game.players if seat.abandoned else r.rank
        seat.score = r.score
        seat.result = r.to_json()
        seat.deadline = None
        seat.save(update_fields=["rank", "score", "result", "deadline"])
    transaction.on_commit(lambda: effects.after_finish(game.pk))


def _version_accepted(game: Game, expected_version: int) -> bool:
    """Is a move made while seeing `expected_version` still to be judged?

    By correspondence (and in every turn-based game) only against the version seen:
    anything else is stale.  At a live pace everyone acts at once and the server
    applies actions in the order they arrive (ruling P3): a shout from a page a
    moment behind is judged against the table as it is when it arrives, under the
    same row lock, so two calls are still never applied against the same display.
    A version from the future is refused at every pace.
    """
    if game.pace == Pace.LIVE:
        return expected_version <= game.version
    return expected_version == game.version


def action_submit(*, game_id: int, user, action, expected_version, seat: int | None = None) -> SubmitResult:
    """A person's move (browser or API)."""
    action = _check_shape(action)
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise BadRequest(_("expected_version must be the whole number 'version' of the game you saw."))
    with transaction.atomic():
        game = _lock_game(game_id)
        seat_row = _seat_for_user(game, user, seat)
        if game.status != Game.Status.RUNNING:
            raise Conflict(_("This game is %(status)s; no more moves are taken.")
                           % {"status": _status_word(game.status)})
        if not _version_accepted(game, expected_version):
            raise StaleVersion(
                _("The game has moved on since you looked (you saw version %(seen)s, "
                  "it is now %(now)s); look again and resend.") % {"seen": expected_version, "now": game.version},
                version=game.version,
            )
        logged, state = _apply(game, seat_row, action, user=user, source=Action.Source.PLAYER)
        return SubmitResult(game=game, seat=seat_row.index, action=logged, view=state.view(seat_row.index))


def _automatic_move(game_id: int, seat_index: int, version: int, source: str, choose,
                    whole_turn: bool = False) -> Action | None:
    """A bot's or a missed deadline's move, computed for `version`; a no-op if the game moved on.

    With `whole_turn`, decisions continue until the seat's turn is over, so a missed
    turn of several decisions counts once and leaves no half-played turn behind.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING or game.version != version:
            return None
        if seat_index not in game.to_act:
            return None
        seat = game.seats.get(index=seat_index)
        engine = get_game(game.kind)
        state = engine.load(game.state)
        marker = state.turn_marker()
        action = choose(game, seat, state)
        if action is None:
            return None
        logged, state = _apply(game, seat, action, user=None, source=source)
        steps = 0
        while whole_turn and game.is_running and seat_index in game.to_act and state.turn_marker() == marker:
            steps += 1
            if steps > 1000:
                raise RuntimeError(f"game {game_id}: seat {seat_index}'s turn did not end after 1000 bot decisions")
            follow = _bot_choice(game, seat, state, "greedy", "turn")
            if follow is None:
                break
            logged, state = _apply(game, seat, follow, user=None, source=source)
        return logged


def _bot_choice(game: Game, seat: Seat, state, level: str, salt: str) -> dict:
    """A bot's decision for the seat, from the seat's own view only (ruling S2)."""
    from engine.bots import choose_action

    return choose_action(level, get_game(game.kind), state.view(seat.index), seat.index,
                         seed=f"{game.seed}:{game.version}:{seat.index}:{salt}")


def bot_move_play(*, game_id: int, seat: int, version: int) -> Action | None:
    """The seat's bot plays one decision (ruling S2); bots of abandoned seats play at the greedy level."""

    def choose(game, seat_row, state):
        if not seat_row.played_by_bot:
            return None
        return _bot_choice(game, seat_row, state, seat_row.bot_level or "greedy", "bot")

    return _automatic_move(game_id, seat, version, Action.Source.BOT, choose)


def deadline_expire(*, game_id: int, seat: int, version: int, now=None) -> Action | None:
    """A missed deadline: the rules' timeout action or the site's bot plays the turn for the seat (ruling S1)."""
    now = now or timezone.now()

    def choose(game, seat_row, state):
        if seat_row.deadline is None or seat_row.deadline > now:
            return None
        action = get_game(game.kind).timeout_action(state, seat_row.index)
        if action is None:
            action = _bot_choice(game, seat_row, state, "greedy", "timeout")
        if action is None:
            # The bot waits (nothing worth doing now, e.g. a live Toppo seat): no move, no miss, and
            # a fresh clock so the sweep does not pick the seat up again and again.
            seat_row.deadline = now + timedelta(seconds=game.turn_seconds)
            seat_row.save(update_fields=["deadline"])
            return None
        if not seat_row.played_by_bot:
            seat_row.missed_deadlines += 1
            if seat_row.missed_deadlines >= 3:
                seat_row.abandoned = True  # three in a row: the bot plays the seat to the end
            seat_row.save(update_fields=["missed_deadlines", "abandoned"])
            transaction.on_commit(lambda: effects.after_timeout(game.pk, seat_row.pk))
        return action

    game = Game.objects.filter(pk=game_id).only("pace").first()
    # At a live pace everyone acts all the time: one missed beat costs one action, not a turn.
    whole_turn = game is not None and game.pace != "live"
    return _automatic_move(game_id, seat, version, Action.Source.TIMEOUT, choose, whole_turn=whole_turn)


def game_resign(*, game_id: int, user) -> Game:
    """Give up: the seat counts as lost and a bot plays it to the end so the others can finish."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for_user(game, user, None)
        if game.status != Game.Status.RUNNING:
            raise Conflict(_("Only a running game can be resigned."))
        if seat.abandoned:
            raise Conflict(_("You have already left this game."))
        seat.abandoned = True
        seat.save(update_fields=["abandoned"])
        active = game.seats.filter(abandoned=False)
        if active.count() <= 1 or not active.filter(user__isnull=False).exists():
            # Nobody is left to play against: the game ends now, those who left ranked last.
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
            for s in game.seats.all():
                s.rank = game.players if s.abandoned else 1
                s.deadline = None
                s.save(update_fields=["rank", "deadline"])
            transaction.on_commit(lambda: effects.after_finish(game.pk))
        else:
            game.save(update_fields=["updated_at"])
            transaction.on_commit(lambda: effects.after_action(game.pk, game.version))
        return game
