"""A player's statistics and her recent finished games, for her public page and the API (issue 11, point 5).

What counts: finished games only.  An aborted game ended with no result (issue 14), so it counts for
nothing; a game she left (resigned, or three missed deadlines) counts as played, at the rank the site gave
her (ruling S1: after everyone who stayed), and never as won.  Won means rank 1 and still playing at the end,
the winners of the table's headline.  Private tables count too: a count names no table, and ratings (ruling
S5) are made of the same games; the list of games shows only the tables the viewer may see.

The statistics are one aggregate query grouped by game, on indexed columns (the seat's user and the covering
index `seat_user_results`, migration games 0011): no loop over games.
"""
from __future__ import annotations

from django.db.models import Avg, Count, Max, Prefetch, Q, QuerySet

from engine.core import all_games, get_game

from .engine_texts import game_title
from .models import Game, Seat
from .selectors import visible_q

_SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def game_stats(person) -> list[dict]:
    """Per game she has finished: played, won, left, average rank and average seats at the table, last finished."""
    rows = (Seat.objects.filter(user=person, game__status=Game.Status.FINISHED)
            .values("game__kind")
            .annotate(played=Count("pk"), won=Count("pk", filter=Q(rank=1, abandoned=False)),
                      left=Count("pk", filter=Q(abandoned=True)), average_rank=Avg("rank"),
                      average_seats=Avg("game__players"), last_finished=Max("game__finished_at"))
            .order_by("game__kind"))
    known = all_games()
    stats = []
    for row in rows:
        kind = row["game__kind"]
        stats.append({
            "game": kind,
            "title": game_title(get_game(kind).title) if kind in known else kind,
            "played": row["played"],
            "won": row["won"],
            "left": row["left"],
            "win_rate": round(row["won"] / row["played"], 3),
            "average_rank": _rounded(row["average_rank"]),
            "average_seats": _rounded(row["average_seats"]),
            "last_finished": row["last_finished"],
        })
    return stats


def _rounded(value) -> float | None:
    return None if value is None else round(float(value), 2)


def recent_games(person, viewer=None, kind: str | None = None) -> QuerySet[Game]:
    """Her finished games, newest first, among those `viewer` may see (games.selectors.visible_q)."""
    qs = Game.objects.filter(status=Game.Status.FINISHED, seats__user=person)
    if viewer is None or not viewer.is_authenticated or viewer.pk != person.pk:
        qs = qs.filter(visible_q(viewer))
    if kind:
        qs = qs.filter(kind=kind)
    return qs.select_related("created_by").prefetch_related(_SEATS).order_by("-finished_at", "-pk")


def game_result(game: Game, person) -> dict:
    """One finished game from her side: her seat, rank and score, and every other seat (people and bots)."""
    seats = list(game.seats.all())
    mine = next(s for s in seats if s.user_id == person.pk)
    return {
        "id": game.pk,
        "game": game.kind,
        "title": game_title(get_game(game.kind).title) if game.kind in all_games() else game.kind,
        "pace": game.pace,
        "players": game.players,
        "private": game.private,
        "finished_at": game.finished_at,
        "seat": mine.index,
        "rank": mine.rank,
        "score": mine.score,
        "won": mine.rank == 1 and not mine.abandoned,
        "left": mine.abandoned,
        "opponents": [{"seat": s.index, "player": s.user.username if s.user_id else None,
                       "bot_level": s.bot_level or None, "rank": s.rank, "score": s.score, "left": s.abandoned}
                      for s in seats if s.pk != mine.pk],
    }
