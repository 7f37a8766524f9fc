"""A values_list queryset compiled once per shape, run again with other values (decision 28, point 3).

Some reads on the worker's hot path are built from parts other apps add (notifications.channels: the outbound
app's annotations and columns), so they cannot be written out in plain SQL as games.services.move_rows does.  Yet
their SQL depends only on how many values each list holds: the ORM builds the queryset once with stand-in values
of each list's length, its compiler writes the SQL once, and later reads put the real values where the stand-ins
stood and convert the rows with that same compiler (its converters), as the queryset itself would.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection

# Per thread, as Django's connections are: a compiler keeps the connection it was made for (its converters read it).
_local = threading.local()
# Stand-ins no real value equals: ids far below any sequence's, strings in Unicode's private use area.
_INT_BASE = -(10**15)
_STR_MARK = "\ue000"


def _stand_ins(n: int, like, at: int) -> list:
    if isinstance(like, int) and not isinstance(like, bool):
        return [_INT_BASE - at * 10_000 - i for i in range(n)]
    if isinstance(like, str):
        return [f"{_STR_MARK}{at}:{i}" for i in range(n)]
    raise TypeError(f"no stand-in for {type(like).__name__} values")


def shaped_rows(name: tuple, build: Callable[..., object], **lists: list) -> list[tuple]:
    """The rows of `build(**lists)` (a values_list queryset), its SQL compiled once per `name` and lists' lengths.

    `name` must tell apart every queryset `build` may make besides the lists' lengths (what else it depends on);
    each list is non-empty and of one type (int or str) that the query passes to the database as it is.
    """
    key = (*name, *((arg, len(values)) for arg, values in lists.items()))
    compiled = getattr(_local, "compiled", None)
    if compiled is None:
        compiled = _local.compiled = {}
    found = compiled.get(key)
    if found is None:
        marks, stand_ins = {}, {}
        for at, (arg, values) in enumerate(lists.items()):
            stand_ins[arg] = _stand_ins(len(values), next(iter(values)), at)
            for i, mark in enumerate(stand_ins[arg]):
                marks[mark] = (arg, i)
        queryset = build(**stand_ins)
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        slots = [marks.get(param) if isinstance(param, int | str) else None for param in params]
        if sum(slot is not None for slot in slots) != len(marks):
            raise ValueError("a stand-in value did not reach the SQL as it was")
        found = compiled[key] = (sql, params, slots, compiler)
    sql, params, slots, compiler = found
    real = {arg: list(values) for arg, values in lists.items()}
    values = [param if slot is None else real[slot[0]][slot[1]] for param, slot in zip(params, slots)]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        rows = cursor.fetchall()
    return list(compiler.results_iter(results=[rows], tuple_expected=True))
