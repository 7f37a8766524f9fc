"""From committed game changes to notifications.

The game row is the outbox: a move commits `version` and `status` together with the
move, and `GameEffects` remembers how far they have been told.  `game_effects_dispatch`
tells everything between the two and moves the cursor in one transaction, under a row
lock, so running it twice (a retried task, the beat sweep racing the normal path)
tells each event once.  Every notification has a key naming its event, unique per
person, for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from ..feed.services import game_events_record, invitation_event_record
from ..models import Action, Game, GameEffects, Invitation, Pace, Seat
from ..ranking import LEAVE_TYPES
from ..vacation import away_q
from . import texts
from .models import Notification
from .models import NotificationEvent as Event
from .services import Telling, notification_create, notifications_tell

# Reminders before a correspondence deadline (ruling S1); none at a live pace.
REMINDER_HOURS = (24, 1)


def _stamp(moment) -> int:
    return int(moment.timestamp())


def _locked_table(game_id: int) -> tuple[Game | None, list[Seat], GameEffects | None]:
    """The game, locked (FOR NO KEY UPDATE, games.locks), then in one read its seats, their players and its cursor.

    The lock is its own statement: a read that waited for a move's lock inside it would see the game after the
    move but the seats (the new turn's `turn_began`) from before.  The game's state is left out: nothing told
    reads it, and it is the biggest thing a game holds.  The cursor needs no lock of its own: every dispatch of
    the game holds the game's lock first.
    """
    if not Game.objects.select_for_update(no_key=True).filter(pk=game_id).order_by().values_list("pk", flat=True):
        return None, [], None
    seats = list(
        Seat.objects.select_related("game", "game__effects", "user")
        .defer("game__state")
        .filter(game_id=game_id)
        .order_by("index")
    )
    game = seats[0].game if seats else Game.objects.defer("state").get(pk=game_id)
    for seat in seats:
        seat.game = game  # one game object, as game.seats would give
    try:
        cursor = game.effects
    except GameEffects.DoesNotExist:
        # Made here, or as a move marks it without Redis (games.services.effects_mark): either way nothing told yet.
        GameEffects.objects.bulk_create([GameEffects(game_id=game_id)], ignore_conflicts=True)
        cursor = GameEffects(game_id=game_id)
    return game, seats, cursor


@dataclass
class Dispatched:
    """What one dispatch did and read: whether anything was new, who got a new event, and the table as read."""

    new: bool = False
    told: list[int] = field(default_factory=list)
    game: Game | None = None
    seats: list[Seat] = field(default_factory=list)


def game_effects_dispatch(*, game_id: int, told: list[int] | None = None) -> bool:
    """Tell the players what happened in the game since the last dispatch; False if nothing was new.

    Also writes the event feed (games.feed.services) in the same transaction; the people who got a
    new event are added to `told`, for the caller to nudge their streams once this has committed.
    """
    done = game_effects_run(game_id)
    if told is not None:
        told.extend(done.told)
    return done.new


def game_effects_run(game_id: int) -> Dispatched:
    """`game_effects_dispatch`, returning the table as it read it too (the task asks its bots from that).

    A handful of statements whatever the game's length and, but for the bot-played runs of missed deadlines,
    its number of seats (issue 16): the table in one read, the log in one, the notifications and events in bulk.
    Without Redis the cursor's `queued_at` is cleared in the same transaction (games.services.effects_mark): a
    change committed after the game was read here waits for the game's lock, so it finds the mark cleared and
    sends a new task.  With Redis the task deletes its mark before this reads the game.
    """
    with transaction.atomic():
        # The game first, like every write that touches its seats (games.locks): telling a turn
        # stamps the seat's turn_mailed_at, and a move meanwhile must not hold the game and wait for it.
        game, seats, cursor = _locked_table(game_id)  # read under the lock: the latest committed move
        if game is None:
            return Dispatched()
        done = Dispatched(game=game, seats=seats)
        if cursor.version == game.version and cursor.status == game.status:
            if cursor.queued_at is not None:
                GameEffects.objects.filter(game_id=game_id).update(queued_at=None)
            return done
        if game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
            after = max(cursor.version, 0)
            turns = [] if game.status == Game.Status.FINISHED else _turns_to_tell(game, seats)
            timeouts, played = _log_since(game, after, turns)
            tellings: list[Telling] = []
            if cursor.version < 0:
                tellings += _started(game, seats)
            if timeouts:
                tellings += _missed_deadlines_told(game, seats, after=after)
            if game.status == Game.Status.FINISHED:
                _turns_closed(game)
                tellings += _finished(game, seats)
            else:
                tellings += [_turn(game, seat, began) for seat, began in turns if seat.index not in played]
            notifications_tell(tellings, game=game)
            done.told = game_events_record(game, seats, after_version=cursor.version)
        GameEffects.objects.filter(game_id=game_id).update(
            version=game.version, status=game.status, queued_at=None, updated_at=timezone.now()
        )
    done.new = True
    return done


def games_behind(*, now=None, settle_seconds: int = 10, window_days: int = 2, limit: int = 200) -> list[int]:
    """Games changed a while ago whose effects were never dispatched (the sweep re-runs them).

    A game whose log has grown since its cursor only by decisions still private to their player (or taken
    back) is not behind: those send no dispatch (ruling S3, games.services.effects.after_private_decision),
    and her confirmation, which makes them public, sends the one that tells them.
    """
    now = now or timezone.now()
    public_since = Action.objects.filter(
        game=OuterRef("pk"), seq__gt=OuterRef("effects__version"), visibility=Action.Visibility.PUBLIC
    )
    rows = (
        Game.objects.filter(
            status__in=[Game.Status.RUNNING, Game.Status.FINISHED],
            updated_at__lte=now - timedelta(seconds=settle_seconds),
            updated_at__gte=now - timedelta(days=window_days),
        )
        .filter(
            Q(effects__isnull=True)
            | ~Q(effects__status=F("status"))
            | (~Q(effects__version=F("version")) & Exists(public_since))
        )
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )
    return list(rows)


def _players(seats):
    return [s for s in seats if s.user_id is not None]


def _started(game: Game, seats: list[Seat]) -> list[Telling]:
    params = texts.started_params(game, seats)
    return [
        Telling(seat.user, Event.STARTED, f"started:{game.pk}", params)
        for seat in _players(seats)
        if seat.user_id != game.created_by_id  # she started it herself
    ]


def _turns_to_tell(game: Game, seats: list[Seat]) -> list[tuple[Seat, int]]:
    """The seats that may be told of their turn, each with the version the turn began at (which names it)."""
    if game.pace == Pace.LIVE:
        return []  # at a live table everybody is watching the board
    turns = []
    for seat in _players(seats):
        if seat.index not in game.to_act or seat.abandoned:
            continue
        # A turn is named by the version at which it began (set with its clock, ruling S1), so the
        # further decisions of one turn tell nothing new, and two turns a moment apart are two turns.
        began = seat.turn_began if seat.turn_began is not None else game.version
        if began == 0 and seat.user_id == game.created_by_id:
            continue  # the turn her own start began: she pressed start and sees the board
        turns.append((seat, began))
    return turns


def _log_since(game: Game, after: int, turns: list[tuple[Seat, int]]) -> tuple[bool, set[int]]:
    """One read of the log's new end: was a deadline missed since `after`, and which of the seats in `turns` has
    played in her turn since it began (she is in the middle of it, at the board, and needs no "your turn")?"""
    wanted = Q(source=Action.Source.TIMEOUT, seq__gt=after) if game.version > after else Q()
    for seat, began in turns:
        wanted |= Q(source=Action.Source.PLAYER, seat=seat.index, seq__gt=began)
    bounds = [after] if game.version > after else []
    bounds += [began for _, began in turns]
    if not bounds:
        return False, set()
    # The lower bound on seq keeps this to the log's end on the (game, seq) index, however long the game.
    rows = set(
        Action.objects.filter(game=game, seq__gt=min(bounds))
        .filter(wanted)
        .order_by()  # not the log's order: DISTINCT would count it in and join the game for it
        .values_list("seat", "source")
        .distinct()
    )
    timeouts = any(source == Action.Source.TIMEOUT for _, source in rows)
    return timeouts, {seat for seat, source in rows if source == Action.Source.PLAYER}


def _turn(game: Game, seat: Seat, began: int) -> Telling:
    return Telling(
        seat.user, Event.YOUR_TURN, f"turn:{game.pk}:{seat.index}:v{began}", texts.your_turn_params(game, seat), seat
    )


def _turns_closed(game: Game) -> None:
    """A finished game has no turn to play: an unread "your turn" there would only be wrong (ruling S6)."""
    Notification.objects.filter(game=game, kind=Event.YOUR_TURN, read_at__isnull=True).update(read_at=timezone.now())


def _finished(game: Game, seats: list[Seat]) -> list[Telling]:
    return [
        Telling(seat.user, Event.FINISHED, f"finished:{game.pk}", texts.finished_params(game, seats, seat))
        for seat in _players(seats)
    ]


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


def _missed_deadlines_told(game: Game, seats: list[Seat], *, after: int) -> list[Telling]:
    """The missed deadlines since `after` (the caller saw one in the log) that their players are told of."""
    # A seat's leaving is a site entry, not a move the bot made for her (ruling S1): not part of any run.
    log = list(
        game.actions.exclude(action__type__in=LEAVE_TYPES).order_by("seq").values_list("seq", "seat", "source", "entry")
    )
    by_index = {s.index: s for s in seats}
    tellings = []
    for event in _missed_deadlines(game, log):
        seat = by_index[event["seat"]]
        if event["first_seq"] <= after or seat.user_id is None or event["in_a_row"] > 3:
            continue  # told before, a bot's own seat, or a seat the bot already plays for good
        if seat.abandoned and seat.missed_deadlines < 3:
            continue  # she resigned; the bot plays on and she asked for nothing more
        key = f"timeout:{game.pk}:{event['first_seq']}"
        params = texts.bot_played_params(game, seats, event["entries"], event["in_a_row"])
        tellings.append(Telling(seat.user, Event.BOT_PLAYED, key, params))
    return tellings


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
