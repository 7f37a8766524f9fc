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

from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone

from feed.announce import users_announce
from feed.services import answer_event_record, game_events_record, invitation_event_record, vacation_events_record
from games.models import Action, Game, GameEffects, Invitation, Pace, Seat, Vacation
from games.ranking import LEAVE_TYPES
from games.selectors.vacation import away_q

from . import table_rows, texts
from .models import Notification
from .models import NotificationEvent as Event
from .services import Moot, Telling, notification_create, notifications_moot, notifications_tell

# Reminders before a correspondence deadline (ruling S1); none at a live pace.
REMINDER_HOURS = (24, 1)


def _stamp(moment) -> int:
    return int(moment.timestamp())


def _table(game_id: int) -> tuple[Game | None, list[Seat], GameEffects | None]:
    """In one read (table_rows: plain SQL, decision 28, point 3) the game, its seats, their players and its cursor
    (made if the game has none yet).

    Called twice by a dispatch: before its transaction, unlocked, and after the game's lock (FOR NO KEY UPDATE,
    games.services.locks), which is its own statement: a read that waited for a move's lock inside it would see
    the game after the move but the seats (the new turn's `turn_began`) from before.  The game's state is left out:
    nothing told reads it but a turn's label (texts), and it is the biggest thing a game holds.  The cursor needs no
    lock of its own: every dispatch of the game holds the game's lock first.
    """
    game, seats, cursor, in_a_tournament = table_rows.table_read(game_id)
    if game is None:
        return None, [], None
    game._in_a_tournament = in_a_tournament
    if cursor is None:
        # Made here, or as a move marks it without Redis (games.services.effects_mark): either way nothing told yet.
        GameEffects.objects.bulk_create([GameEffects(game_id=game_id)], ignore_conflicts=True)
        cursor = GameEffects(game_id=game_id)
    return game, seats, cursor


def _news(game: Game, cursor: GameEffects) -> bool:
    return cursor.version != game.version or cursor.status != game.status


def _labels_ahead(game: Game, seats: list[Seat], cursor: GameEffects) -> dict[int, str | None]:
    """Before the dispatch's transaction (the embedded site's one writer waits while it is open, docs/embedded.md):
    the labels of the turns it will tell, if the table is still as read here (decision 29: forced, quick or deep;
    the engine's work, and the position's read, are most of what telling a turn costs).  By seat index."""
    if game.status != Game.Status.RUNNING or not _news(game, cursor):
        return {}
    return {
        seat.index: texts.turn_label_of(game, seat)
        for seat, _began in _turns_to_tell(game, seats, after=cursor.version)
    }


@dataclass
class Dispatched:
    """What one dispatch did and read: whether anything was new, who got a new event, and the table as read."""

    new: bool = False
    told: list[int] = field(default_factory=list)
    game: Game | None = None
    seats: list[Seat] = field(default_factory=list)


def game_effects_dispatch(*, game_id: int, told: list[int] | None = None) -> bool:
    """Tell the players what happened in the game since the last dispatch; False if nothing was new.

    Also writes the event feed (feed.services) in the same transaction; the people who got a
    new event are added to `told`, for the caller to nudge their streams once this has committed.
    """
    done = game_effects_run(game_id)
    if told is not None:
        told.extend(done.told)
    return done.new


def game_effects_run(game_id: int) -> Dispatched:
    """`game_effects_dispatch`, returning the table as it read it too (the task asks its bots from that).

    A handful of statements whatever the game's length and, but for the bot-played runs of missed deadlines,
    its number of seats (decision 16): the table in one read, the log in one, the notifications and events in bulk.
    Without Redis the cursor's `queued_at` is cleared in the same transaction (games.services.effects_mark): a
    change committed after the game was read here waits for the game's lock, so it finds the mark cleared and
    sends a new task.  With Redis the task deletes its mark before this reads the game.
    """
    # Read ahead, unlocked: what the dispatch will tell is prepared before its transaction, which only checks that
    # the table is still as read (its version) and writes.
    ahead, seats_ahead, cursor_ahead = _table(game_id)
    if ahead is None:
        return Dispatched()
    labels = _labels_ahead(ahead, seats_ahead, cursor_ahead)
    with transaction.atomic():
        # The game first, like every write that touches its seats (games.services.locks): telling a turn
        # stamps the seat's turn_mailed_at, and a move meanwhile must not hold the game and wait for it.
        locked = table_rows.game_lock(game_id)
        if locked is None:
            return Dispatched()
        version, status, told, told_status, queued = locked
        if (version, status) == (told, told_status) == (ahead.version, ahead.status):
            # Nothing new, and the game is as read ahead (the cursor is never ahead of the truth, game_lock).
            if queued:
                GameEffects.objects.filter(game_id=game_id).update(queued_at=None)
            return Dispatched(game=ahead, seats=seats_ahead)
        game, seats, cursor = _table(game_id)  # read under the lock: the latest committed move
        if game is None:
            return Dispatched()
        if game.version == ahead.version:
            game._labels_ahead = labels  # the position they were read from is this one
        done = Dispatched(game=game, seats=seats)
        if not _news(game, cursor):
            if cursor.queued_at is not None:
                GameEffects.objects.filter(game_id=game_id).update(queued_at=None)
            return done
        if game.status == Game.Status.ABORTED and game.started_at is not None:
            done.told = _aborted(game, seats, after_version=cursor.version)
        if game.status in (Game.Status.RUNNING, Game.Status.FINISHED):
            after = max(cursor.version, 0)
            turns = [] if game.status == Game.Status.FINISHED else _turns_to_tell(game, seats, after=cursor.version)
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
        table_rows.cursor_move(game, timezone.now())
    done.new = True
    return done


def _players(seats):
    return [s for s in seats if s.user_id is not None]


def _started(game: Game, seats: list[Seat]) -> list[Telling]:
    """One "started" per person at the table (its key), none to the one whose own click dealt it (ruling S6).

    Nobody else is told either where another notice says it already: a tournament's start lists its tables
    (tournaments.notify), and an acceptance that took the last seat is told to the inviter with the start.
    """
    if _in_a_tournament(game):
        return []
    dealer = game.started_by_id if game.started_by_id is not None else game.created_by_id
    told = set()
    if dealer != game.created_by_id:  # a join dealt it: an acceptance, told to the inviter with the start
        told = set(
            Notification.objects.filter(game=game, kind=Event.ANSWERED, params__started=True).values_list(
                "recipient_id", flat=True
            )
        )
    params = texts.started_params(game, seats)
    return [
        Telling(seat.user, Event.STARTED, f"started:{game.pk}", params)
        for seat in _players(seats)
        if seat.user_id != dealer and seat.user_id not in told
    ]


def _in_a_tournament(game: Game) -> bool:
    """Is the table one of a tournament's (read with the table by `_table`)?"""
    if hasattr(game, "_in_a_tournament"):
        return game._in_a_tournament
    try:
        return game.tournament_table is not None
    except ObjectDoesNotExist:
        return False


def _turns_to_tell(game: Game, seats: list[Seat], *, after: int) -> list[tuple[Seat, int]]:
    """The seats that may be told of their turn, each with the version the turn began at (which names it); only
    turns that began after the cursor's version `after`.

    A seat's turn_began is set whenever she comes to act (games.services.clock.restart_clocks: a new turn, or she
    was not to act before), so a seat to act now whose turn began at or before `after` was to act, in that same
    turn, when the dispatch that moved the cursor to `after` read the table: it was told then, or rightly not
    (she had played in it already, she had left, the pace is live), and nothing since makes it due.  Leaving it
    out changes nothing told (the keys would find her notice) and spares the label and the notices' read: in a
    Toppo round by correspondence every sealed claim is a public decision, and the others' round stays the one
    they were told of (decision 16).
    """
    if game.pace == Pace.LIVE:
        return []  # at a live table everybody is watching the board
    turns = []
    for seat in _players(seats):
        if seat.index not in game.to_act or seat.abandoned:
            continue
        if seat.turn_began is not None and seat.turn_began <= after:
            continue  # told by an earlier dispatch (above)
        # A turn is named by the version at which it began (set with its clock, ruling S1), so the
        # further decisions of one turn tell nothing new, and two turns a moment apart are two turns.
        # Whoever must act first at a new table is told too, she who dealt it included (ruling S6): the email
        # waits, as for any turn, unless she is at the board (feed.presence).
        began = seat.turn_began if seat.turn_began is not None else game.version
        turns.append((seat, began))
    return turns


def _log_since(game: Game, after: int, turns: list[tuple[Seat, int]]) -> tuple[bool, set[int]]:
    """One read of the log's new end: was a deadline missed since `after`, and which of the seats in `turns` has
    played in her turn since it began (she is in the middle of it, at the board, and needs no "your turn")?"""
    looked_after = after if game.version > after else None
    if looked_after is None and not turns:
        return False, set()
    rows = table_rows.log_end_read(game.pk, after=looked_after, turns=[(seat.index, began) for seat, began in turns])
    timeouts = any(source == Action.Source.TIMEOUT for _, source in rows)
    return timeouts, {seat for seat, source in rows if source == Action.Source.PLAYER}


def _turn(game: Game, seat: Seat, began: int) -> Telling:
    return Telling(
        seat.user, Event.YOUR_TURN, f"turn:{game.pk}:{seat.index}:v{began}", texts.your_turn_params(game, seat), seat
    )


def _turns_closed(game: Game) -> None:
    """A finished game has no turn to play nor invitation to answer: an unread "your turn" there would only be
    wrong, and its start is old news (ruling S6)."""
    notifications_moot(game_id=game.pk, event=Moot.CLOSED)


def _finished(game: Game, seats: list[Seat]) -> list[Telling]:
    return [
        Telling(seat.user, Event.FINISHED, f"finished:{game.pk}", texts.finished_params(game, seats, seat))
        for seat in _players(seats)
    ]


def _aborted(game: Game, seats: list[Seat], *, after_version: int) -> list[int]:
    """A game that ran has been aborted (ruling S1 turn 3, an agreement, the staff): everyone seated is told once,
    with who left and why, and no turn there is hers to play any more.  Returns who got a feed event."""
    _turns_closed(game)
    notifications_tell(
        [
            Telling(seat.user, Event.ABORTED, f"aborted:{game.pk}", texts.aborted_params(game, seats, seat))
            for seat in _players(seats)
        ],
        game=game,
    )
    return game_events_record(game, seats, after_version=after_version)


def _missed_deadlines(game: Game, log: list[tuple[int, int, str, list, int | None]]) -> list[dict]:
    """Each missed deadline in the log: its seat, its actions, and how many in a row it makes.

    By correspondence the bot plays the whole missed turn in one go: its rows carry the version at which the
    missed turn began (`Action.missed_turn`), which names the deadline, so each deadline counts once however
    its rows lie.  Two deadlines of one seat may follow each other with nothing in between (a Toppo renew ends
    one round and starts the next, ruling P4): they are two.  At a live pace each row is its own.  A move of
    the player's own ends the run (ruling S1).  Rows logged before deadlines were named are grouped as they
    were: the adjacent rows of one seat.
    """
    events: list[dict] = []
    in_a_row: dict[int, int] = {}
    latest: dict[int, dict] = {}  # each seat's last missed deadline, until a move of her own
    previous = None
    for seq, seat, source, entry, missed in log:
        if source == Action.Source.PLAYER:
            in_a_row[seat] = 0
            latest.pop(seat, None)
        elif source == Action.Source.TIMEOUT:
            last = latest.get(seat)
            if missed is None:
                same = last is not None and previous is not None and previous[1:] == (seat, Action.Source.TIMEOUT)
            else:
                same = last is not None and last["missed"] == missed
            if same and game.pace != Pace.LIVE:
                last["entries"].append(entry)
            else:
                in_a_row[seat] = in_a_row.get(seat, 0) + 1
                latest[seat] = {
                    "seat": seat,
                    "first_seq": seq,
                    "entries": [entry],
                    "in_a_row": in_a_row[seat],
                    "missed": missed,
                }
                events.append(latest[seat])
        previous = (seq, seat, source)
    return events


def _missed_deadlines_told(game: Game, seats: list[Seat], *, after: int) -> list[Telling]:
    """The missed deadlines since `after` (the caller saw one in the log) that their players are told of."""
    # A seat's leaving is a site entry, not a move the bot made for her (ruling S1): not part of any run.
    log = list(
        game.actions.exclude(action__type__in=LEAVE_TYPES)
        .order_by("seq")
        .values_list("seq", "seat", "source", "entry", "missed_turn")
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


def invitation_answered_notify(invitation: Invitation, *, accepted: bool, closed: bool = False) -> list[int]:
    """Her answer to `invitation` is told (ruling S6): to the one who invited her, and, when a decline closed the
    table (a challenge or a rematch), to whoever else sits there.  Her own "invited" is moot now.

    Called inside the transaction that answered (a join of hers, a decline), so both commit or neither; the
    emails leave on commit.  An acceptance that took the last seat says the table started, and the inviter gets
    no "started" of it besides (`_started`).  Returns the ids of the people told, whose streams are to be nudged.
    """
    game = invitation.game
    notifications_moot(event=Moot.ANSWERED, game_id=game.pk, recipient_ids=[invitation.user_id])
    recipients = {invitation.invited_by_id: invitation.invited_by}
    if closed:
        for seat in game.seats.select_related("user").filter(user__isnull=False).exclude(user=invitation.user_id):
            recipients.setdefault(seat.user_id, seat.user)
    recipients.pop(invitation.user_id, None)
    key = f"answered:{game.pk}:{invitation.pk}"
    started = accepted and game.status == Game.Status.RUNNING
    for recipient in recipients.values():
        params = texts.answered_params(
            game,
            invitation,
            accepted=accepted,
            started=started,
            closed=closed,
            yours=recipient.pk == invitation.invited_by_id,
        )
        notification_create(recipient=recipient, kind=Event.ANSWERED, key=key, params=params, game=game)
    return answer_event_record(invitation, list(recipients), key=key, accepted=accepted)


def vacation_notify(*, vacation_id: int, event: str) -> int:
    """Tell her opponents at her running correspondence tables that her vacation started or ended (ruling S4: they
    see it); one notice per person, vacation and event (its key), listing the tables they share.  How many it told.

    Run by a task queued on the commit of the start or the end (by her, or by the beat at its planned end).
    The notice that it started is moot once it has ended (ruling S6).
    """
    vacation = Vacation.objects.select_related("user").filter(pk=vacation_id).first()
    if vacation is None:
        return 0
    away = vacation.user
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.RUNNING,
            game__pace=Pace.CORRESPONDENCE,
            game__seats__user=away,
            game__seats__abandoned=False,
            user__isnull=False,
            abandoned=False,
        )
        .exclude(user=away)
        .select_related("user", "game")
        .defer("game__state")
        .order_by("game_id", "index")
    )
    tables: dict[int, list[Game]] = {}
    people = {}
    for seat in seats:
        tables.setdefault(seat.user_id, []).append(seat.game)
        people[seat.user_id] = seat.user
    told = 0
    key = f"vacation:{vacation.pk}:{event}"
    with transaction.atomic():
        if event == "ended":
            notifications_moot(event=Moot.VACATION_ENDED, keys=[f"vacation:{vacation.pk}:started"])
        for user_id, games in tables.items():
            made = notification_create(
                recipient=people[user_id],
                kind=Event.VACATION,
                key=key,
                params=texts.vacation_params(away, vacation, event, games),
                game=games[0] if len(games) == 1 else None,
            )
            told += made is not None
        until = vacation.ends_at.isoformat() if event == "started" else None
        fed = vacation_events_record(tables, key=key, data={"user": away.username, "event": event, "until": until})
        transaction.on_commit(lambda: users_announce(fed))  # their streams (with Redis) look at once
    return told


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
