"""The effects dispatch's statements about notices in plain SQL (decision 28, point 3), as notifications.table_rows
does for the table: written once from the models' own fields, the rows made into the instances the ORM would make.
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from games.models import Seat
from games.services.move_rows import row_instance, select_columns

from .models import Notification, NotificationEvent


@cache
def _told_sql(keys: int, recipients: int, turns_of: int) -> str:
    table = Notification._meta.db_table
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    told = f'"key" IN ({", ".join(["%s"] * keys)})'
    if turns_of:
        told = (
            f'({told} OR ("recipient_id" IN ({", ".join(["%s"] * turns_of)}) AND "game_id" = %s AND "kind" = %s '
            'AND "read_at" IS NULL))'
        )
    return (
        f'SELECT {select_columns(Notification, "n")} FROM "{table}" n '
        f'WHERE {told} AND "recipient_id" IN ({", ".join(["%s"] * recipients)}) '
        f'ORDER BY "created_at" DESC, "id" DESC{lock}'
    )


def told_locked(*, keys: set[str], recipient_ids: set[int], turns_of: set[int], game_id: int) -> list[Notification]:
    """The notices of these people with one of these keys, and the unread "your turn" at the game of those in
    `turns_of`; newest first, locked (FOR UPDATE) to the end of the transaction."""
    params = [*keys]
    if turns_of:
        params += [*turns_of, game_id, NotificationEvent.YOUR_TURN.value]
    params += [*recipient_ids]
    with connection.cursor() as cursor:
        cursor.execute(_told_sql(len(keys), len(recipient_ids), len(turns_of)), params)
        return [row_instance(Notification, row) for row in cursor.fetchall()]


def turns_mailed(seat_ids: list[int], now) -> None:
    """Her turn at each of these seats was queued for email at `now` (feed.presence.turn_mail_due reads it)."""
    stamp = Seat._meta.get_field("turn_mailed_at").get_db_prep_value(now, connection)
    holes = ", ".join(["%s"] * len(seat_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{Seat._meta.db_table}" SET "turn_mailed_at" = %s WHERE "id" IN ({holes})', [stamp, *seat_ids]
        )
