"""From committed game changes to notifications.

The game row is the outbox: a move commits `version` and `status` together with the
move, and `GameEffects` remembers how far they have been told.  `game_effects_dispatch`
tells everything between the two and moves the cursor in one transaction, under a row
lock, so running it twice (a retried task, the beat sweep racing the normal path)
tells each event once.  Every notification has a key naming its event, unique per
person, for the same reason.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from ..feed.services import game_events_record, invitation_event_record
from ..locks import game_locked
from ..models import Action, Game, GameEffects, Invitation, Pace, Seat
from ..ranking import LEAVE_TYPES
from ..vacation import away_q
from . import texts
from .models import Notification
from .models import NotificationEvent as Event
from .services import notification_create, turn_notification_tell

# Reminders before a correspondence deadline (ruling S1); none at a live pace.
REMINDER_HOURS = (24, 1)


def _stamp(moment) -> int:
    return int(moment.timestamp())


def _locked_cursor(game_id: int) -> GameEffects:
    return GameEffects.objects.select_for_update().get_or_create(game_id=game_id)[0]


def game_effects_dispatch(*, game_id: int, told: list[int] | None = None) -> bool:
    """Tell the players what happened in the game since the last dispatch; False if nothing was new.

    Also writes the event feed (games.feed.services) in the same transaction; the people who got a
    new event are added to `told`, for the caller to nudge their streams once this has committed.
    """
    with transaction.atomic():
        # The game first, like every write that touches its seats (games.locks): telling a turn
        # stamps the seat's turn_mailed_at, and a move meanwhile must not hold the game and wait for it.
        game = game_locked(game_id)  # read under the lock: the latest committed move
        if game is None:
            return False
        cursor = _locked_cursor(game_id)
        if cursor.version == game.version and cursor.status == game.status:
            return False
        if game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
            seats = list(game.seats.select_related("user").order_by("index"))
            if cursor.version < 0:
                _notify_started(game, seats)
            if game.version > max(cursor.version, 0):
                _notify_missed_deadlines(game, seats, after=max(cursor.version, 0))
            if game.status == Game.Status.FINISHED:
                _turns_closed(game)
                _notify_finished(game, seats)
            else:
                _notify_turns(game, seats)
            recipients = game_events_record(game, seats, after_version=cursor.version)
            if told is not None:
                told.extend(recipients)
        cursor.version, cursor.status = game.version, game.status
        cursor.save(update_fields=["version", "status", "updated_at"])  # not queued_at: moves mark it meanwhile
    return True


def games_behind(*, now=None, settle_seconds: int = 10, window_days: int = 2, limit: int = 200) -> list[int]:
    """Games changed a while ago whose effects were never dispatched (the sweep re-runs them)."""
    now = now or timezone.now()
    rows = (
        Game.objects.filter(
            status__in=[Game.Status.RUNNING, Game.Status.FINISHED],
            updated_at__lte=now - timedelta(seconds=settle_seconds),
            updated_at__gte=now - timedelta(days=window_days),
        )
        .filter(Q(effects__isnull=True) | ~Q(effects__version=F("version")) | ~Q(effects__status=F("status")))
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )
    return list(rows)


def _players(seats):
    return [s for s in seats if s.user_id is not None]


def _notify_started(game: Game, seats: list[Seat]) -> None:
    for seat in _players(seats):
        if seat.user_id == game.created_by_id:
            continue  # she started it herself
        notification_create(
            recipient=seat.user,
            kind=Event.STARTED,
            key=f"started:{game.pk}",
            params=texts.started_params(game, seats),
            game=game,
        )


def _notify_turns(game: Game, seats: list[Seat]) -> None:
    if game.pace == Pace.LIVE:
        return  # at a live table everybody is watching the board
    for seat in _players(seats):
        if seat.index not in game.to_act or seat.abandoned:
            continue
        # A turn is named by the version at which it began (set with its clock, ruling S1), so the
        # further decisions of one turn tell nothing new, and two turns a moment apart are two turns.
        began = seat.turn_began if seat.turn_began is not None else game.version
        if began == 0 and seat.user_id == game.created_by_id:
            continue  # the turn her own start began: she pressed start and sees the board
        if game.actions.filter(seat=seat.index, source=Action.Source.PLAYER, seq__gt=began).exists():
            continue  # she is in the middle of her turn, at the board
        turn_notification_tell(
            seat=seat, key=f"turn:{game.pk}:{seat.index}:v{began}", params=texts.your_turn_params(game, seat)
        )


def _turns_closed(game: Game) -> None:
    """A finished game has no turn to play: an unread "your turn" there would only be wrong (ruling S6)."""
    Notification.objects.filter(game=game, kind=Event.YOUR_TURN, read_at__isnull=True).update(read_at=timezone.now())


def _notify_finished(game: Game, seats: list[Seat]) -> None:
    for seat in _players(seats):
        notification_create(
            recipient=seat.user,
            kind=Event.FINISHED,
            key=f"finished:{game.pk}",
            params=texts.finished_params(game, seats, seat),
            game=game,
        )


def _missed_deadlines(game: Game, log: list[tuple[int, int, str, list]]) -> list[dict]:
    """Each missed deadline in the log: its seat, its actions, and how many in a row it makes.

    By correspondence the bot plays the whole missed turn in one go, so consecutive
    timeout actions of one seat are one missed deadline; at a live pace each is its own.
    A move of the player's own ends the run (ruling S1).
    """
    events: list[dict] = []
    in_a_row: dict[int, int] = {}
    previous = None
    for seq, seat, source, entry in log:
        if source == Action.Source.PLAYER:
            in_a_row[seat] = 0
        elif source == Action.Source.TIMEOUT:
            same_run = (
                game.pace != Pace.LIVE
                and previous is not None
                and previous[1] == seat
                and previous[2] == Action.Source.TIMEOUT
            )
            if same_run:
                events[-1]["entries"].append(entry)
            else:
                in_a_row[seat] = in_a_row.get(seat, 0) + 1
                events.append({"seat": seat, "first_seq": seq, "entries": [entry], "in_a_row": in_a_row[seat]})
        previous = (seq, seat, source)
    return events


def _notify_missed_deadlines(game: Game, seats: list[Seat], *, after: int) -> None:
    if not game.actions.filter(seq__gt=after, source=Action.Source.TIMEOUT).exists():
        return
    # A seat's leaving is a site entry, not a move the bot made for her (ruling S1): not part of any run.
    log = list(
        game.actions.exclude(action__type__in=LEAVE_TYPES).order_by("seq").values_list("seq", "seat", "source", "entry")
    )
    by_index = {s.index: s for s in seats}
    for event in _missed_deadlines(game, log):
        seat = by_index[event["seat"]]
        if event["first_seq"] <= after or seat.user_id is None or event["in_a_row"] > 3:
            continue  # told before, a bot's own seat, or a seat the bot already plays for good
        if seat.abandoned and seat.missed_deadlines < 3:
            continue  # she resigned; the bot plays on and she asked for nothing more
        notification_create(
            recipient=seat.user,
            kind=Event.BOT_PLAYED,
            key=f"timeout:{game.pk}:{event['first_seq']}",
            params=texts.bot_played_params(game, seats, event["entries"], event["in_a_row"]),
            game=game,
        )


def invitation_notify(invitation: Invitation) -> None:
    """Called inside the transaction that creates the invitation, so both commit or neither."""
    notification_create(
        recipient=invitation.user,
        kind=Event.INVITED,
        key=f"invited:{invitation.game_id}",
        params=texts.invited_params(invitation.game, invitation.invited_by),
        game=invitation.game,
    )
    invitation_event_record(invitation)


def reminders_send(*, now=None) -> int:
    """Warn correspondence players 24 hours and 1 hour before their deadline; returns how many were new."""
    now = now or timezone.now()
    sent = 0
    for hours in REMINDER_HOURS:
        lead = timedelta(hours=hours)
        shorter = [h for h in REMINDER_HOURS if h < hours]
        # Only the nearest reminder is due: a deadline within the next, shorter one waits for that.
        start = now + timedelta(hours=max(shorter)) if shorter else now
        seats = (
            Seat.objects.filter(
                deadline__gt=start,
                deadline__lte=now + lead,
                abandoned=False,
                user__isnull=False,
                game__status=Game.Status.RUNNING,
                game__pace=Pace.CORRESPONDENCE,
                # no "24 hours left" on a clock that was never longer than that
                game__turn_seconds__gt=lead.total_seconds(),
            )
            .exclude(away_q(now))  # her clock stands still while she is on vacation (ruling S4)
            .select_related("game", "user")
        )
        for seat in seats:
            if seat.index not in seat.game.to_act:
                continue
            made = notification_create(
                recipient=seat.user,
                kind=Event.DEADLINE,
                key=f"deadline:{hours}h:{seat.game_id}:{seat.index}:{_stamp(seat.deadline)}",
                params=texts.deadline_near_params(seat.game, seat, hours),
                game=seat.game,
            )
            sent += made is not None
    return sent
