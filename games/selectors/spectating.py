"""How many people watch a table: the spectators counted from the rows `games.services.spectators` writes (decision 17).

Reads only, so the table detail (games.selectors), the lobby lists and the watch page share them without importing
each other.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache

from django.conf import settings
from django.db import connection
from django.utils import timezone

from ..models import Game, Spectator


def spectator_window() -> timedelta:
    """A viewer counts while her page asked within this long (TOPOS_SPECTATOR_SECONDS)."""
    return timedelta(seconds=settings.TOPOS_SPECTATOR_SECONDS)


def spectator_counts(games, *, now=None) -> dict[int, int]:
    """Spectators per game for a page of games, in one query; people seated at a game are not counted."""
    games = list(games)
    if not games:
        return {}
    now = now or timezone.now()
    seated = {g.pk: {s.user_id for s in g.seats.all() if s.user_id} for g in games}
    counts = dict.fromkeys(seated, 0)
    rows = Spectator.objects.filter(game__in=list(seated), seen_at__gte=now - spectator_window()).values_list(
        "game", "user"
    )
    for game_id, user_id in rows:
        if user_id is None or user_id not in seated[game_id]:
            counts[game_id] += 1
    return counts


def spectator_count(game: Game, *, now=None) -> int:
    """spectator_counts of one game (a table's answer, a move's among them), by a query written out once: building
    and compiling it with the ORM cost more than running it (decision 16)."""
    if hasattr(game, "_spectators"):
        return game._spectators  # read with the game under a move's lock (games.services.move_rows), a moment ago
    now = now or timezone.now()
    seated = {s.user_id for s in game.seats.all() if s.user_id}
    since = connection.ops.adapt_datetimefield_value(now - spectator_window())
    with connection.cursor() as cursor:
        cursor.execute(_viewers_sql(), [game.pk, since])
        return sum(1 for (user_id,) in cursor.fetchall() if user_id is None or user_id not in seated)


@cache
def _viewers_sql() -> str:
    q = connection.ops.quote_name
    return (
        f"SELECT {q('user_id')} FROM {q(Spectator._meta.db_table)} WHERE {q('game_id')} = %s AND {q('seen_at')} >= %s"
    )
