"""A move's reads and writes in plain SQL, with the rows made into the same model instances the ORM would make.

Decision 28: a move POST spent 40 % of its CPU building ORM queries (the locked game, its seats with their players,
ratings and vacations) and more in the clocks' CASE update.  The statements here are written once, from the
models' own fields (so a new column is read without a change here), and each value goes through the same
conversions as the ORM's (`from_db_value`, the backend's converters; `get_db_prep_value` on the way in), so the
instances are those a queryset gives: the game with its creator, its seats in order with their users, the
ratings (the seats_annotated hook, games.hooks) and vacations (games.selectors) the answer shows.  The same
SQL runs on PostgreSQL and SQLite (which has no row locks: the game's lock clause is PostgreSQL's alone).
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from .. import hooks
from ..models import Game, Seat


@cache
def _shape(model, leave_out: tuple[str, ...] = ()) -> tuple[list[str], list[str], list]:
    """(columns, attnames, converters of each column) of `model`'s concrete fields but `leave_out`, in their order."""
    fields = [field for field in model._meta.concrete_fields if field.name not in leave_out]
    columns = [field.column for field in fields]
    converters = []
    for field in fields:
        expression = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
        converters.append([(converter, expression) for converter in found])
    return columns, [field.attname for field in fields], converters


@cache
def _converted_columns(model, leave_out: tuple[str, ...] = ()) -> tuple[list[str], list[tuple[int, list]]]:
    """(attnames, (place, converters) of the columns that have any): most columns need none, so a row is
    converted only where it must be."""
    _, attnames, converters = _shape(model, leave_out)
    return attnames, [(place, steps) for place, steps in enumerate(converters) if steps]


def _instance(model, values, leave_out: tuple[str, ...] = ()):
    """The instance the ORM would make of a row read by `_select` (the fields left out deferred, as .defer())."""
    attnames, converting = _converted_columns(model, leave_out)
    converted = list(values)
    for place, steps in converting:
        value = converted[place]
        for converter, expression in steps:
            value = converter(value, expression, connection)
        converted[place] = value
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(connection.alias, attnames, converted)
    # Decision 28: what Model.from_db leaves, without __init__'s walk over every field (a quarter of a move's locked
    # read, six instances): each value in the instance's own dict, where __init__'s setattr puts it on a new
    # instance (a field's own descriptor either has no setter or stores it there: a foreign key's id, a file), a
    # field left out absent, so deferred; no signal is sent, as none has a receiver (checked above).
    instance = model.__new__(model)
    instance.__dict__.update(zip(attnames, converted))
    state = instance._state = ModelState()
    state.adding, state.db = False, connection.alias
    return instance


def _select(model, alias: str, leave_out: tuple[str, ...] = ()) -> str:
    return ", ".join(f'{alias}."{column}"' for column in _shape(model, leave_out)[0])


def _width(model, leave_out: tuple[str, ...] = ()) -> int:
    return len(_shape(model, leave_out)[0])


# For the other plain-SQL reads of a table's rows (notifications.table_rows, the effects dispatch).
select_columns, row_instance, row_width = _select, _instance, _width


def _seat_extras() -> list[dict]:
    """What later apps read with each seat in this statement (games.hooks, locked_seat_sql): ratings' value and
    games in the game's key, set on each seat as the queryset's annotations would be."""
    return hooks.locked_seat_sql()


@cache
def _locked_game_sql() -> str:
    user = get_user_model()
    lock = " FOR NO KEY UPDATE OF g" if connection.features.has_select_for_no_key_update else ""
    extras = _seat_extras()
    extra_columns = "".join(f"{column}, " for extra in extras for column in extra["columns"])
    extra_joins = "".join(extra["join"] for extra in extras)
    return (
        f"SELECT {_select(Game, 'g')}, {_select(user, 'c')}, {_select(Seat, 's')}, {_select(user, 'u')}, "
        # Her vacation under way now (at most one is open: vacation_one_at_a_time), as vacation.away_annotation,
        # then what later apps read with each seat (ratings: her rating in the game's key).
        f'v."ends_at", {extra_columns}'
        # Who looks at the table without a seat there (games.selectors.spectating.spectator_count), for the move's
        # answer.
        '(SELECT count(*) FROM "games_spectator" sp WHERE sp."game_id" = g."id" AND sp."seen_at" >= %s AND '
        '(sp."user_id" IS NULL OR sp."user_id" NOT IN (SELECT s2."user_id" FROM "games_seat" s2 '
        'WHERE s2."game_id" = g."id" AND s2."user_id" IS NOT NULL))) '
        f'FROM "{Game._meta.db_table}" g '
        f'INNER JOIN "{user._meta.db_table}" c ON c."id" = g."created_by_id" '
        f'LEFT JOIN "{Seat._meta.db_table}" s ON s."game_id" = g."id" '
        f'LEFT JOIN "{user._meta.db_table}" u ON u."id" = s."user_id" '
        'LEFT JOIN "games_vacation" v ON v."user_id" = s."user_id" AND v."ended_at" IS NULL AND v."started_at" <= %s '
        f"{extra_joins}"
        f'WHERE g."id" = %s ORDER BY s."index"{lock}'
    )


def locked_game_with_seats(game_id: int, now) -> Game | None:
    """The game row locked for a write (as games.services.locks.game_locked), with its creator, and its seats in order
    with
    their users, each person's rating in the game's key and the planned end of her vacation under way at `now`
    (games.selectors.prefetch_seats_with_standing), in one statement; None if there is no such game."""
    user = get_user_model()
    from ..selectors.spectating import spectator_window

    stamp = Game._meta.get_field("updated_at")
    when, since = (stamp.get_db_prep_value(moment, connection) for moment in (now, now - spectator_window()))
    with connection.cursor() as cursor:
        cursor.execute(_locked_game_sql(), [since, when, game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    widths = [len(_shape(model)[0]) for model in (Game, user, Seat, user)]
    attrs = [attr for extra in _seat_extras() for attr in extra["attrs"]]
    cuts = [sum(widths[:n]) for n in range(5)]
    first = rows[0]
    game = _instance(Game, first[cuts[0] : cuts[1]])
    Game._meta.get_field("created_by").set_cached_value(game, _instance(user, first[cuts[1] : cuts[2]]))
    seats, away = [], {}
    user_field, game_field = Seat._meta.get_field("user"), Seat._meta.get_field("game")
    vacation_end = Seat._meta.get_field("deadline")  # a DateTimeField: its converters read the vacation's end
    for row in rows:
        if row[cuts[2]] is None:
            continue  # no seat yet (an empty open table)
        seat = _instance(Seat, row[cuts[2] : cuts[3]])
        seat.vacation_ends_at = _converted(vacation_end, row[cuts[4]])
        for attr, value in zip(attrs, row[cuts[4] + 1 : cuts[4] + 1 + len(attrs)]):
            setattr(seat, attr, value)
        user_field.set_cached_value(seat, None if seat.user_id is None else _instance(user, row[cuts[3] : cuts[4]]))
        game_field.set_cached_value(seat, game)  # as the prefetch leaves each seat: its game is this one
        seats.append(seat)
        if seat.vacation_ends_at is not None:
            away[seat.user_id] = seat.vacation_ends_at
    # As prefetch_related_objects leaves it: game.seats.all() is these, a filter on it asks the database.
    queryset = game.seats.get_queryset()
    queryset._result_cache, queryset._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": queryset}
    hooks.seats_annotated(game=game)
    game._away_until = away
    game._spectators = first[cuts[4] + 1 + len(attrs)]
    return game


def _converted(field, value):
    expression = field.get_col(Seat._meta.db_table)
    for converter in connection.ops.get_db_converters(expression) + expression.get_db_converters(connection):
        value = converter(value, expression, connection)
    return value


def seats_clock_update(seats: list[Seat], fields: list[str]) -> None:
    """Seat.objects.bulk_update(seats, fields) in one statement built without the ORM (games.services.clock)."""
    if not seats:
        return
    sets, params = [], []
    for name in fields:
        field = Seat._meta.get_field(name)
        whens = []
        for seat in seats:
            whens.append("WHEN %s THEN %s")
            params += [seat.pk, field.get_db_prep_value(getattr(seat, field.attname), connection)]
        case = f'CASE "id" {" ".join(whens)} END'
        if connection.features.requires_casted_case_in_updates:  # as bulk_update casts it (PostgreSQL)
            case = f"CAST({case} AS {field.db_type(connection)})"
        sets.append(f'"{field.column}" = {case}')
    params += [seat.pk for seat in seats]
    holes = ", ".join(["%s"] * len(seats))
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{Seat._meta.db_table}" SET {", ".join(sets)} WHERE "id" IN ({holes})', params)


def _insert_sql(instance) -> tuple[str, list]:
    """The INSERT of a new row (its `auto_now_add` stamped), as instance.save() would send it."""
    meta = instance._meta
    fields = [field for field in meta.local_concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    columns = ", ".join(f'"{field.column}"' for field in fields)
    return f'INSERT INTO "{meta.db_table}" ({columns}) VALUES ({", ".join(["%s"] * len(fields))})', values


def _update_sql(instance, fields: list[str]) -> tuple[str, list]:
    """The UPDATE of `fields` of a row (`auto_now` stamped), as instance.save(update_fields=fields) would send it."""
    meta = instance._meta
    chosen = [meta.get_field(name) for name in fields]
    values = [field.get_db_prep_save(field.pre_save(instance, False), connection) for field in chosen]
    sets = ", ".join(f'"{field.column}" = %s' for field in chosen)
    return f'UPDATE "{meta.db_table}" SET {sets} WHERE "{meta.pk.column}" = %s', [*values, instance.pk]


def _inserted(instance, pk) -> None:
    instance.pk = pk
    instance._state.adding, instance._state.db = False, connection.alias


def row_insert(instance) -> None:
    """instance.save() of a new row (its `auto_now_add` stamped, its primary key read back), in one INSERT built
    without the ORM's compiler; for models no signal listens to (a move's Action)."""
    meta = instance._meta
    sql, values = _insert_sql(instance)
    returning = connection.features.can_return_columns_from_insert
    with connection.cursor() as cursor:
        cursor.execute(sql + (f' RETURNING "{meta.pk.column}"' if returning else ""), values)
        pk = cursor.fetchone()[0] if returning else connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    _inserted(instance, pk)


def row_update(instance, fields: list[str]) -> int:
    """instance.save(update_fields=fields) in one UPDATE built without the ORM's compiler (`auto_now` stamped), for
    a save no signal needs to hear of (tournaments.receivers listens only for a game that ends); the rows written."""
    sql, values = _update_sql(instance, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return cursor.rowcount


def row_insert_and_update(new, instance, fields: list[str]) -> None:
    """row_insert(new), then row_update(instance, fields): a move's log line and its game row.

    Decision 28: on PostgreSQL both go in one statement (an INSERT in a WITH clause runs whether or not it is read,
    before the UPDATE that returns its key), one round trip fewer on every move.  SQLite has no writes in WITH
    clauses: there they are the two statements.  `instance`'s row must exist (the move holds its lock)."""
    if connection.vendor != "postgresql":
        row_insert(new)
        if not row_update(instance, fields):
            raise _gone(instance)
        return
    insert, inserted = _insert_sql(new)
    update, updated = _update_sql(instance, fields)
    pk = new._meta.pk.column
    with connection.cursor() as cursor:
        cursor.execute(
            f'WITH "written" AS ({insert} RETURNING "{pk}") {update} RETURNING (SELECT "{pk}" FROM "written")',
            [*inserted, *updated],
        )
        row = cursor.fetchone()
    if row is None:
        raise _gone(instance)
    _inserted(new, row[0])


def _gone(instance) -> Exception:
    # No such row to update: the caller's transaction must not commit the new row alone.
    return instance.DoesNotExist(f"{instance._meta.object_name} {instance.pk} is gone")


def rows_insert(
    instances: list, *, skip_on: tuple[str, ...] = (), returning: tuple[str, ...] = ()
) -> list[tuple] | None:
    """Model.objects.bulk_create(instances) in one INSERT built without the ORM's compiler (`auto_now_add` stamped);
    `skip_on`: the fields of a unique constraint whose existing rows are kept and the new ones skipped (ON CONFLICT
    DO NOTHING, as ignore_conflicts); `returning`: the columns read back, one tuple per row written, in the order
    written (a row skipped has none).  Without `skip_on` each instance gets its primary key, as bulk_create gives.
    None (nothing written) where the database cannot return rows from an insert: the caller then uses the ORM."""
    if not instances:
        return []
    if not connection.features.can_return_rows_from_bulk_insert:
        return None
    meta = instances[0]._meta
    fields = [field for field in meta.local_concrete_fields if not field.primary_key]
    values, holes = [], []
    for instance in instances:
        values += [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
        holes.append(f"({', '.join(['%s'] * len(fields))})")
    columns = ", ".join(f'"{field.column}"' for field in fields)
    sql = f'INSERT INTO "{meta.db_table}" ({columns}) VALUES {", ".join(holes)}'
    if skip_on:
        unique = ", ".join(f'"{meta.get_field(name).column}"' for name in skip_on)
        sql += f" ON CONFLICT ({unique}) DO NOTHING"
    back = returning if skip_on else (meta.pk.column, *returning)
    if back:
        sql += " RETURNING " + ", ".join(f'"{column}"' for column in back)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        rows = cursor.fetchall() if back else []
    if not skip_on:
        for instance, row in zip(instances, rows):
            instance.pk = row[0]
            instance._state.adding, instance._state.db = False, connection.alias
        rows = [row[1:] for row in rows]
    return rows
