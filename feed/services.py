"""Writes of the event feed: one row per event and person, in the transaction that decided it.

A person's events are written under a transaction-long lock of hers (PostgreSQL advisory lock;
SQLite writes one transaction at a time anyway), so they commit in the order of their ids: a
reader who has seen id 41 and then sees 43 will never find a 42 committed later.  Each event
has a key naming it, unique per person, so a retried dispatch writes nothing twice.

Events are data for clients (ids, kinds, versions and what the table page shows anyway), never
hidden information: a move event names the table and its new version, not the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game, Invitation, Seat
from games.services.move_rows import rows_insert

from .models import Event

Kind = Event.Kind
# "Topo" in the high half of the advisory lock's 64-bit key; the person's id in the low half.
_LOCK_SPACE = 0x546F706F << 32


@dataclass(frozen=True)
class NewEvent:
    user_id: int
    kind: str
    key: str
    game_id: int | None = None
    data: dict = field(default_factory=dict)


def _lock_people(user_ids) -> None:
    """Hold each person's feed lock to the end of the transaction, in id order (so two writers never deadlock)."""
    if connection.vendor != "postgresql":
        return
    keys = [_LOCK_SPACE + user_id for user_id in sorted(set(user_ids))]
    if not keys:
        return
    # One statement for all of them: unnest reads the array out in its order, and each row takes its lock in turn.
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_advisory_xact_lock(k)) FROM unnest(%s::bigint[]) AS k", [keys])


def events_record(events: list[NewEvent]) -> list[int]:
    """Write the events nobody wrote yet; the ids of the people who got a new one.  Inside a transaction."""
    if not events:
        return []
    with transaction.atomic(savepoint=False):  # inside the caller's transaction, no savepoint needed
        _lock_people(e.user_id for e in events)
        rows = [Event(user_id=e.user_id, kind=e.kind, key=e.key, game_id=e.game_id, data=e.data) for e in events]
        # One INSERT that skips the events a person has already (decision 28, point 3: no read before it, no ORM).
        written = rows_insert(rows, skip_on=("user", "key"), returning=("user_id",))
        if written is not None:
            return sorted({user_id for (user_id,) in written})
        known = set(
            Event.objects.filter(user_id__in={e.user_id for e in events}, key__in={e.key for e in events}).values_list(
                "user_id", "key"
            )
        )
        new = [e for e in events if (e.user_id, e.key) not in known]
        Event.objects.bulk_create(
            [Event(user_id=e.user_id, kind=e.kind, key=e.key, game_id=e.game_id, data=e.data) for e in new]
        )
    return sorted({e.user_id for e in new})


def _table_data(game: Game) -> dict:
    """What anyone who may see the table sees of it anyway."""
    return {
        "table": game.pk,
        "game": game.kind,
        "version": game.version,
        "status": game.status,
        "to_act": list(game.to_act or []),
    }


def game_events_record(game: Game, seats: list[Seat], *, after_version: int) -> list[int]:
    """The events of a running, finished or aborted game since `after_version` (-1: not even its start was told).

    Called by the effects dispatch (notifications.events) under its cursor lock.  Every person
    seated hears of the start, of the moves (one event per dispatch, with the version reached) and
    of the end; a person whose decision it is hears of her turn once per turn, at every pace (a
    client at a live table needs it as much as a correspondence player).
    """
    people = [s for s in seats if s.user_id is not None]
    data = _table_data(game)
    events: list[NewEvent] = []
    for seat in people:
        if after_version < 0:
            events.append(NewEvent(seat.user_id, Kind.STARTED, f"started:{game.pk}", game.pk, data))
        if game.version > max(after_version, 0):
            events.append(NewEvent(seat.user_id, Kind.MOVE, f"move:{game.pk}:v{game.version}", game.pk, data))
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):  # over either way; `status` says which
            events.append(NewEvent(seat.user_id, Kind.FINISHED, f"finished:{game.pk}", game.pk, data))
        elif seat.index in game.to_act and not seat.abandoned:
            # A turn is named by the version at which it began (ruling S1), as in the notifications.
            began = seat.turn_began if seat.turn_began is not None else game.version
            if began <= after_version:
                # She was to act in this same turn when the cursor reached `after_version` (turn_began is set
                # whenever she comes to act, games.services.clock): recorded then; its key would find it.
                continue
            events.append(
                NewEvent(
                    seat.user_id,
                    Kind.YOUR_TURN,
                    f"turn:{game.pk}:{seat.index}:v{began}",
                    game.pk,
                    {**data, "seat": seat.index, "turn_began": began},
                )
            )
    return events_record(events)


def invitation_event_record(invitation: Invitation) -> list[int]:
    """In the invitation's own transaction: both are kept or neither."""
    game = invitation.game
    return events_record(
        [
            NewEvent(
                invitation.user_id,
                Kind.INVITED,
                f"invited:{game.pk}",
                game.pk,
                {**_table_data(game), "invited_by": invitation.invited_by.username},
            )
        ]
    )


def answer_event_record(invitation: Invitation, user_ids: list[int], *, key: str, accepted: bool) -> list[int]:
    """In the answer's own transaction (notifications.events.invitation_answered_notify): the people told."""
    game = invitation.game
    data = {**_table_data(game), "invitee": invitation.user.username, "answer": "accepted" if accepted else "declined"}
    return events_record([NewEvent(user_id, Kind.ANSWERED, key, game.pk, data) for user_id in user_ids])


def vacation_events_record(tables: dict[int, list[Game]], *, key: str, data: dict) -> list[int]:
    """An opponent's vacation started or ended, to each person with the tables she shares with her (the notification
    task's transaction, notifications.events.vacation_notify): the people told."""
    return events_record(
        [
            NewEvent(
                user_id,
                Kind.VACATION,
                key,
                games[0].pk if len(games) == 1 else None,
                {**data, "tables": [g.pk for g in games]},
            )
            for user_id, games in tables.items()
        ]
    )


def events_purge(*, now=None) -> int:
    """Forget events older than TOPOS_EVENTS_RETENTION_DAYS (beat, hourly); how many went."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.TOPOS_EVENTS_RETENTION_DAYS)
    deleted, _ = Event.objects.filter(created_at__lt=cutoff).delete()
    return deleted
