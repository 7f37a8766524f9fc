"""Submitting actions: the one path every move takes, from a person, a bot or a missed deadline.

`action_submit` locks the game row, checks the seat, the version the client saw and
the legality, appends the action, stores the snapshot and bumps the version, all in
one transaction; its after-effects are sent only once that transaction commits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.bots import choose_action, play_turn, turn_done
from engine.core import IllegalAction, State, find_action, get_game

from .. import hooks, ranking
from ..errors import BadRequest, Conflict, Forbidden, IllegalMove, StaleVersion
from ..log_words import seat_names
from ..models import Action, Game, Pace, Seat
from ..refusal_words import refusal_words
from ..selectors import vacation
from ..selectors.legal_kept import legal_kept
from ..selectors.tables import WrittenLine
from . import aborting, effects, leaving
from .clock import restart_clocks, time_bank_draw
from .locks import game_locked, seat_locked
from .log_visibility import log_visibility, written_line
from .move_rows import locked_game_with_seats, row_insert, row_insert_and_update
from .table_access import can_see, game_lock_for, table_not_found

MAX_ACTION_BYTES = 4096


@dataclass
class SubmitResult:
    game: Game  # the locked row after the move, its seats (with their users) loaded
    seat: int
    action: Action
    state: object  # the engine's state after the move: the answer is built from it, not from a reload
    written: WrittenLine | None = None  # its log line for the answer's breakdown (log_visibility.written_line)


def _status_word(status: str) -> str:
    """The game's status as a lower-case word inside a sentence ("This game is finished; ...")."""
    words = {
        "open": pgettext("game status in a sentence", "open"),
        "running": pgettext("game status in a sentence", "running"),
        "finished": pgettext("game status in a sentence", "finished"),
        "aborted": pgettext("game status in a sentence", "aborted"),
    }
    return words.get(str(status), str(status))


def _check_shape(action) -> dict:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_('An action is a JSON object with a "type", e.g. {"type": "end_turn"}.'))
    if len(json.dumps(action)) > MAX_ACTION_BYTES:
        raise BadRequest(_("That action is far too large to be a move."))
    return action


def _seat_for_user(game: Game, user, seat: int | None) -> Seat:
    seats = [s for s in game.seats.all() if user is not None and s.user_id == user.pk]
    if not seats:
        raise Forbidden(_("You do not play at this table."))
    if seat is not None and seat not in [s.index for s in seats]:
        raise Forbidden(_("Seat %(seat)s is not yours.") % {"seat": seat})
    return seats[0]


def _refusal(game: Game, exc: IllegalAction) -> IllegalMove:
    """An illegal action worded for the reader; the API adds the engine's code and facts (`reason`, `params`)."""
    return IllegalMove(
        refusal_words(game.kind, exc.code, exc.params, seat_names(game)), reason=exc.code, params=exc.params
    )


def _checked(game: Game, state, seat: int, action: dict) -> dict | None:
    """The legal action `action` names, from the state's own list; None if the game's own check let through an
    action its list does not hold (the checked apply then has the last word); IllegalMove if it is not legal.

    Decision 28: the list her question before the move was answered with, when it was listed for this very
    position (games.selectors.legal_kept: the stored positions equal), is the state's own list; it is not made
    again."""
    found = None
    if seat in state.to_act():
        # Only where the game's own match walks its list: a game that checks the one action directly (Topology's
        # placements) is quicker than any walk.
        walks = type(state).legal_match is State.legal_match
        kept = legal_kept(game, seat) if walks else None
        found = find_action(action, kept[0]) if kept is not None else state.legal_match(seat, action)
    if found is None:
        try:
            state.check(seat, action)
        except IllegalAction as exc:
            raise _refusal(game, exc) from None
    return found


def apply_action(
    game: Game, seat: Seat, action: dict, *, user, source: str, missed_turn: int | None = None
) -> tuple[Action, object]:
    """Apply one checked action to the locked game: log it, store the snapshot, restart clocks, effects on commit.

    `missed_turn`: for the bot's rows at a missed deadline, the version at which the missed turn began (it names the
    deadline, so each is told once: notifications.events._missed_deadlines).

    Decision 16: the state is decoded once, the action checked once (found in the legal list, then applied without
    a second enumeration) and the seats' clocks written in one statement; the state returned is the one the
    answer is built from, never read again.
    """
    engine = get_game(game.kind)
    state = engine.load(game.state)
    before = state.clone()
    previous_to_act = list(game.to_act)
    old_marker = state.turn_marker()
    found = _checked(game, state, seat.index, action)
    try:
        if found is None:
            state.apply(seat.index, action)
        else:
            state.apply_legal(seat.index, found)  # taken from this state's own list: not enumerated again
    except IllegalAction as exc:
        raise _refusal(game, exc) from None
    now = timezone.now()
    game.version += 1
    logged = Action(
        game=game,
        seq=game.version,
        seat=seat.index,
        user=user if source in (Action.Source.PLAYER, Action.Source.AUTO) else None,
        source=source,
        action=action,
        missed_turn=missed_turn,
        entry=state.describe(seat.index, action, before),  # data, worded when read
        visibility=log_visibility(game, seat.index, action, state),  # ruling S3: her turn is hers until confirmed
    )
    # With what that did to the log's other lines, for the answer's reading of them (SubmitResult.written).
    logged.written = written_line(logged, state, before)
    game.state = state.to_json()
    game.to_act = state.to_act()
    marker = state.turn_marker()
    game.turn_marker = "" if marker is None else str(marker)[:64]
    if marker != old_marker:
        game.turn_version = game.version  # a page showing this version has seen the new turn
    update = ["state", "version", "to_act", "turn_marker", "turn_version", "updated_at"]
    if state.is_over():
        row_insert(logged)  # Action.objects.create without the ORM's compiler (decision 28)
        _finish(game, state, now)
        update += ["status", "finished_at"]
        game.save(update_fields=update)  # a game that ends is heard of (tournaments.receivers)
    else:
        # Action.objects.create and game.save(update_fields=update) without the ORM's compiler, in one statement
        # where the database allows it (decision 28).
        row_insert_and_update(logged, game, update)
    if game.is_running:
        restart_clocks(
            game, state, previous_to_act=previous_to_act, now=now, marker_changed=marker != old_marker, acted=seat.index
        )
    if source == Action.Source.PLAYER and seat.missed_deadlines:
        # A move made by the player herself ends a run of missed deadlines (ruling S1).
        seat.missed_deadlines = 0
        Seat.objects.filter(pk=seat.pk).update(missed_deadlines=0)
    if logged.visibility != Action.Visibility.PUBLIC:
        # Ruling S3: hers alone until she confirms the turn, so nobody else is told of it (decision 16).
        seq, bot_played = logged.seq, seat.played_by_bot
        transaction.on_commit(
            lambda: effects.after_private_decision(game.pk, seq=seq, latest=game.version, bot_played=bot_played)
        )
    elif (
        game.is_running
        and game.pace != Pace.LIVE
        and marker == old_marker
        and source != Action.Source.TIMEOUT  # a miss is told by its dispatch (ruling S1)
        and effects.sealed_decision_told(game, acted=seat.index, previous_to_act=previous_to_act, now=now)
    ):
        transaction.on_commit(lambda: effects.after_sealed_decision(game.pk))  # decision 28: no dispatch
    else:
        transaction.on_commit(lambda: effects.after_action(game.pk, game.version))
    return logged, state


def _finish(game: Game, state, now) -> None:
    game.status = Game.Status.FINISHED
    game.finished_at = now
    # Seats that left rank after those still playing, whatever their score (ruling S1).
    leaving.ranks_settle(game, state.results())
    # Ruling S5: rated in the finishing transaction, so never lost and never twice (ratings.receivers).
    hooks.game_finished(game=game)
    transaction.on_commit(lambda: effects.after_finish(game.pk))


def _version_accepted(game: Game, seat: int, expected_version: int) -> bool:
    """Is a move made while seeing `expected_version` still to be judged?

    At a live pace everyone acts at once and the server applies actions in the order they
    arrive (ruling P3): a shout from a page a moment behind is judged against the table as
    it is when it arrives, under the same row lock, so two calls are still never applied
    against the same display.  Otherwise against the version seen, with one allowance:
    where several seats decide in the same turn (a correspondence Toppo round, ruling P4)
    the others' decisions during that turn do not make hers stale, or whoever decides
    second (a person facing a bot) would always be told to look again.  Her own decision
    since then does (a second tab, a double click).  A version from the future is refused.
    """
    if expected_version > game.version:
        return False
    if game.pace == Pace.LIVE or expected_version == game.version:
        return True
    if expected_version < game.turn_version:
        return False  # she saw an earlier turn
    return not game.actions.filter(seq__gt=expected_version, seat=seat).exists()


def action_submit(*, game_id: int, user, action, expected_version, seat: int | None = None) -> SubmitResult:
    """A person's move (browser or API)."""
    action = _check_shape(action)
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise BadRequest(_("expected_version must be the whole number 'version' of the game you saw."))
    with transaction.atomic():
        game = _locked_with_seats(user, game_id)
        seat_row = _seat_for_user(game, user, seat)
        if game.status != Game.Status.RUNNING:
            raise Conflict(
                _("This game is %(status)s; no more moves are taken.") % {"status": _status_word(game.status)}
            )
        if seat_row.abandoned:
            raise leaving.left_refusal(game, seat_row)  # a seat that left decides nothing more (ruling S1)
        if not _version_accepted(game, seat_row.index, expected_version):
            raise StaleVersion(
                _(
                    "The game has moved on since you looked (you saw version %(seen)s, "
                    "it is now %(now)s); look again and resend."
                )
                % {"seen": expected_version, "now": game.version},
                version=game.version,
            )
        logged, state = apply_action(game, seat_row, action, user=user, source=Action.Source.PLAYER)
        # She is at the board: her "your turn", deadline reminder and "started" here are moot (ruling S6).
        hooks.notices_moot(game_id=game.pk, recipient_ids=[user.pk], why="acted")
        return SubmitResult(game=game, seat=seat_row.index, action=logged, state=state, written=logged.written)


def _locked_with_seats(user, game_id: int) -> Game:
    """The game locked for her move, its seats and their users read once for the whole move and its answer.

    A seated player may see her table (games.selectors.visible_q), so the visibility check is only asked of
    someone not seated, who is refused either way: 404 for a table she may not see, 403 otherwise.
    """
    # Locked as games.services.locks does, the creator's row read beside it but not locked (the answer names her), the
    # seats with their ratings and vacations, which the answer shows: one statement (games.services.move_rows, decision
    # 28).
    game = locked_game_with_seats(game_id, timezone.now())
    if game is None:
        raise table_not_found(game_id)
    if user is None or not any(s.user_id == user.pk for s in game.seats.all()):
        if not can_see(game, user):
            raise table_not_found(game_id)
    return game


def _still_to_decide(game: Game | None, seat: int, version: int) -> bool:
    return game is not None and game.is_running and game.version == version and seat in game.to_act


def _timeout_plan(game: Game, seat: int, state) -> list[dict]:
    """What the site plays for a missed deadline, from the seat's view (rulings S1, S2).

    The rules' own timeout action where the game has one (Toppo: renew), then the greedy
    bot finishes the turn, so a missed turn of several decisions counts once and leaves
    nothing half played.  At a live pace one missed beat costs one decision, not a turn.
    Empty: the bot waits (nothing worth doing now, e.g. a live Toppo seat).
    """
    engine = get_game(game.kind)
    seed = f"{game.seed}:{game.version}:{seat}:timeout"
    first = engine.timeout_action(state, seat)
    if first is None:
        first = choose_action("greedy", engine, state.view(seat), seat, seed=seed)
    if first is None or game.pace == Pace.LIVE:
        return [] if first is None else [first]
    work = state.clone()
    work.apply(seat, first)
    if turn_done(work, seat, first):
        return [first]
    return [first, *play_turn("greedy", engine, work, seat, seed)]


def _deadline_held(game: Game, seat: Seat, now) -> str | None:
    """Why the seat's deadline is not missed now, if it is not: None, "not yet", "away" or "bank" (ruling S4).

    "away": her vacation stops the clock here (games.selectors.vacation).  "bank": the seat has a time bank
    left to draw on before the bot steps in.
    """
    if seat.deadline is None or seat.deadline > now:
        return "not yet"
    if seat.played_by_bot:
        return None
    if vacation.stops_clocks_at(game) and vacation.current(seat.user_id, now=now) is not None:
        return "away"
    if (
        game.time_bank_days
        and game.pace == Pace.CORRESPONDENCE
        and seat.bank_drawn_from is None
        and seat.bank_seconds > 0
    ):
        return "bank"
    return None


def deadline_expire(*, game_id: int, seat: int, version: int, now=None) -> Action | None:
    """A missed deadline, computed for `version`: the site plays the turn for the seat (ruling S1).

    The turn is worked out before the game's row is locked (a bot's thinking must not hold
    up anyone's move), then applied under the lock if nothing changed meanwhile; a no-op
    if the game moved on or the seat's clock was restarted.  Ruling S4: nothing is missed while
    her vacation stops the clock, and a seat with a time bank left draws on it first.
    """
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).first()
    if not _still_to_decide(game, seat, version):
        return None
    held = _deadline_held(game, game.seats.get(index=seat), now)
    if held in ("not yet", "away"):
        return None
    # Drawing on the bank needs no bot's plan (all is checked again under the lock below).
    actions = None if held == "bank" else _timeout_plan(game, seat, get_game(game.kind).load(game.state))
    with transaction.atomic():
        game = game_locked(game_id)
        if not _still_to_decide(game, seat, version):
            return None
        seat_row = seat_locked(game, seat)
        held = _deadline_held(game, seat_row, now)
        if held == "bank":
            time_bank_draw(seat_row)
        if held is not None or actions is None:
            return None  # not missed; or missed only since the check above, and the next sweep plans it
        if seat_row.bank_drawn_from is not None:
            # The bank ran out with the extended deadline: all of it is used (ruling S4).
            seat_row.bank_seconds, seat_row.bank_drawn_from = 0, None
            seat_row.save(update_fields=["bank_seconds", "bank_drawn_from"])
        if not actions:
            # The bot waits: no move, no miss, and a fresh clock so the sweep does not pick the seat up again.
            seat_row.deadline = now + timedelta(seconds=game.turn_seconds)
            seat_row.save(update_fields=["deadline"])
            return None
        if not seat_row.played_by_bot:
            seat_row.missed_deadlines += 1
            seat_row.save(update_fields=["missed_deadlines"])
            if seat_row.missed_deadlines >= 3:
                # Three in a row: she leaves, which the log says before the bot plays this turn and the rest.
                left = leaving.seat_leave(game, seat_row, kind=ranking.ABANDON, source=Action.Source.TIMEOUT)
                if aborting.leaving_aborts(game):
                    # Ruling S1, turn 3: before every seat has played, nobody plays on: the game is aborted.
                    aborting.game_abort_early(game, seat_row, how=ranking.ABANDON)
                    return left
            transaction.on_commit(lambda: effects.after_timeout(game.pk, seat_row.pk))
        logged = None
        # The deadline missed is named by the version its turn began at (ruling S1): every row of it says so.
        missed = seat_row.turn_began if seat_row.turn_began is not None else version
        for action in actions:
            if not (game.is_running and seat in game.to_act):
                break
            logged, _ = apply_action(
                game, seat_row, action, user=None, source=Action.Source.TIMEOUT, missed_turn=missed
            )
        return logged


def game_resign(*, game_id: int, user) -> Game:
    """Give up: the seat counts as lost and a bot plays it to the end so the others can finish (ruling S1); before
    every seat has completed a turn of its own, the game is aborted instead (ruling S1, turn 3)."""
    with transaction.atomic():
        game = game_lock_for(user, game_id)
        seat = _seat_for_user(game, user, None)
        if game.status != Game.Status.RUNNING:
            raise Conflict(_("Only a running game can be resigned."))
        if seat.abandoned:
            raise Conflict(_("You have already left this game."))
        leaving.seat_leave(game, seat, kind=ranking.RESIGN, source=Action.Source.PLAYER, user=user)
        hooks.notices_moot(game_id=game.pk, recipient_ids=[user.pk], why="acted")  # no turn of hers is left
        if aborting.leaving_aborts(game):
            # Ruling S1, turn 3: resigning before every seat has played aborts the game (no result, no rating).
            aborting.game_abort_early(game, seat, how=ranking.RESIGN)
        elif leaving.nobody_to_play_against(game):
            leaving.game_end_early(game, timezone.now())
            transaction.on_commit(lambda: effects.after_finish(game.pk))
        else:
            game.save(update_fields=["version", "updated_at"])
            transaction.on_commit(lambda: effects.after_action(game.pk, game.version))
        return game
