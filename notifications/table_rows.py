"""The effects dispatch's reads and writes of the table in plain SQL (decision 28, point 3).

The dispatch runs in the worker after every decision that tells somebody something; most of its CPU was the
ORM's compiler building the same statements again each time (the table read with four models joined, the log's
end, the cursor's update).  As games.services.move_rows does for a move, these statements are written once from
the models' own fields, and the rows are made into the instances the ORM would make (its converters applied).
The same SQL runs on PostgreSQL and SQLite (which has no row locks: the lock clause is PostgreSQL's alone).
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Action, Game, GameEffects, Seat
from games.services.move_rows import row_instance, row_width, select_columns

# Nothing told reads the position, the biggest thing a game holds (a turn's label reads it apart, texts).
_GAME_LEFT_OUT = ("state",)


@cache
def _lock_sql() -> str:
    lock = " FOR NO KEY UPDATE OF g" if connection.features.has_select_for_no_key_update else ""
    return (
        f'SELECT g."version", g."status", e."version", e."status", e."queued_at" FROM "{Game._meta.db_table}" g '
        f'LEFT JOIN "{GameEffects._meta.db_table}" e ON e."game_id" = g."id" WHERE g."id" = %s{lock}'
    )


@cache
def _table_sql() -> str:
    user = get_user_model()
    tables = Game._meta.get_field("tournament_table")  # a later app's one-to-one: read by its own model's names
    tables_db, tables_column = tables.related_model._meta.db_table, tables.field.column
    return (
        f"SELECT {select_columns(Game, 'g', _GAME_LEFT_OUT)}, {select_columns(GameEffects, 'e')}, "
        f'EXISTS (SELECT 1 FROM "{tables_db}" t WHERE t."{tables_column}" = g."id"), '
        f"{select_columns(Seat, 's')}, {select_columns(user, 'u')} "
        f'FROM "{Game._meta.db_table}" g '
        f'LEFT JOIN "{GameEffects._meta.db_table}" e ON e."game_id" = g."id" '
        f'LEFT JOIN "{Seat._meta.db_table}" s ON s."game_id" = g."id" '
        f'LEFT JOIN "{user._meta.db_table}" u ON u."id" = s."user_id" '
        'WHERE g."id" = %s ORDER BY s."index"'
    )


def game_lock(game_id: int) -> tuple | None:
    """Lock the game's row (FOR NO KEY UPDATE, as games.services.locks.game_locked); None if there is no game, else
    the game's version and status and its cursor's version, status and whether its task's mark is set (None, None,
    False without a cursor).

    The game is as the lock found it (the latest committed); a cursor moved by a dispatch this lock waited for may
    be read as it was before (PostgreSQL reads a joined row from the statement's snapshot), so it is never ahead of
    the truth: equal to the game's, it is the cursor now (only a dispatch holding this lock moves it)."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(), [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    version, status, told, told_status, queued_at = row
    return version, status, told, told_status, queued_at is not None


def table_read(game_id: int) -> tuple[Game | None, list[Seat], GameEffects | None, bool]:
    """In one statement: the game without its state, its seats in order with their players (each seat's `game`
    that same object), its effects cursor (None if it has none yet) and whether it is a tournament's table."""
    user = get_user_model()
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(), [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None, [], None, False
    widths = [row_width(Game, _GAME_LEFT_OUT), row_width(GameEffects), 1, row_width(Seat), row_width(user)]
    cuts = [sum(widths[:n]) for n in range(len(widths) + 1)]
    first = rows[0]
    game = row_instance(Game, first[cuts[0] : cuts[1]], _GAME_LEFT_OUT)
    cursor_row = first[cuts[1] : cuts[2]]
    effects = None if cursor_row[0] is None else row_instance(GameEffects, cursor_row)
    if effects is not None:
        Game._meta.get_field("effects").set_cached_value(game, effects)
        GameEffects._meta.get_field("game").set_cached_value(effects, game)
    in_a_tournament = bool(first[cuts[2]])
    user_field, game_field = Seat._meta.get_field("user"), Seat._meta.get_field("game")
    seats = []
    for row in rows:
        if row[cuts[3]] is None:
            continue  # no seat (a table nobody sits at)
        seat = row_instance(Seat, row[cuts[3] : cuts[4]])
        user_field.set_cached_value(seat, None if seat.user_id is None else row_instance(user, row[cuts[4] : cuts[5]]))
        game_field.set_cached_value(seat, game)  # one game object, as game.seats would give
        seats.append(seat)
    return game, seats, effects, in_a_tournament


@cache
def _log_sql(with_timeouts: bool, turns: int) -> str:
    wanted = ['("source" = %s AND "seq" > %s)'] if with_timeouts else []
    wanted += ['("source" = %s AND "seat" = %s AND "seq" > %s)'] * turns
    return (
        f'SELECT DISTINCT "seat", "source" FROM "{Action._meta.db_table}" '
        f'WHERE "game_id" = %s AND "seq" > %s AND ({" OR ".join(wanted)})'
    )


def log_end_read(game_id: int, *, after: int | None, turns: list[tuple[int, int]]) -> set[tuple[int, str]]:
    """The (seat, source) pairs of the log's end: missed deadlines after `after` (None: none looked for), and each
    of `turns` (seat, the version her turn began at) played by her player since.  The lower bound on seq keeps it to
    the log's end on the (game, seq) index, however long the game."""
    params: list = []
    if after is not None:
        params += [Action.Source.TIMEOUT.value, after]
    for seat, began in turns:
        params += [Action.Source.PLAYER.value, seat, began]
    bounds = ([after] if after is not None else []) + [began for _, began in turns]
    with connection.cursor() as cursor:
        cursor.execute(_log_sql(after is not None, len(turns)), [game_id, min(bounds), *params])
        return set(cursor.fetchall())


@cache
def _cursor_sql() -> str:
    return (
        f'UPDATE "{GameEffects._meta.db_table}" SET "version" = %s, "status" = %s, "queued_at" = NULL, '
        '"updated_at" = %s WHERE "game_id" = %s'
    )


def cursor_move(game: Game, now) -> None:
    """The effects cursor moved to the game's version and status, its task's mark cleared."""
    stamp = GameEffects._meta.get_field("updated_at").get_db_prep_value(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(_cursor_sql(), [game.version, game.status, stamp, game.pk])


@cache
def _state_sql() -> str:
    return f'SELECT "state" FROM "{Game._meta.db_table}" WHERE "id" = %s AND "version" = %s'


def state_read(game_id: int, version: int):
    """The game's position as stored at `version` (Game.state, its converters applied); None if the game has moved
    on since (read ahead of the lock).  Read apart from the table, only when a turn told needs its label
    (notifications.texts)."""
    field = Game._meta.get_field("state")
    with connection.cursor() as cursor:
        cursor.execute(_state_sql(), [game_id, version])
        found = cursor.fetchone()
    if found is None:
        return None
    value, expression = found[0], field.get_col(Game._meta.db_table)
    for converter in connection.ops.get_db_converters(expression) + expression.get_db_converters(connection):
        value = converter(value, expression, connection)
    return value
