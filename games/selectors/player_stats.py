"""A player's statistics and her recent finished games, for her public page and the API (decision 11, point 5).

What counts: finished games only.  An aborted game ended with no result (decision 14), so it counts for
nothing; a game she left (resigned, or three missed deadlines) counts as played, at the rank the site gave
her (ruling S1: after everyone who stayed), and never as won.  Won means rank 1 and still playing at the end,
the winners of the table's headline.  Private tables count too: a count names no table, and ratings (ruling
S5) are made of the same games; the list of games shows only the tables the viewer may see.

The statistics are her summary rows (`PlayerGameStats`, one per game she has finished), added to by
`ranks_settle` when, and only when, a game finishes (games.services.player_summaries): her page costs the
same after 10 games as after 10,000 (`bench/bench_lists.py`).  The list of her games is driven by her seats
with a final rank (the partial index `seat_user_results`), each seat's game looked up by its key in a
subquery rather than joined: with a join, for a player of thousands of games PostgreSQL's default costs
prefer to scan every game there is (`bench/bench_player_stats.py`).  No loop over games in Python.
"""

from __future__ import annotations

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from engine.core import all_games, get_game

from ..engine_texts import game_title
from ..models import Game, PlayerGameStats, Seat
from .tables import visible_q

_SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def _finished_game() -> QuerySet[Game]:
    """The seat's game, if it is finished (for subqueries on Seat)."""
    return Game.objects.filter(pk=OuterRef("game_id"), status=Game.Status.FINISHED).order_by()


def game_stats(person) -> list[dict]:
    """Per game she has finished: played, won, left, average rank and average seats at the table, last finished.
    Read from her summaries (PlayerGameStats, kept as games end): one short query whatever her number of games."""
    known = all_games()
    return [
        {
            "game": row.kind,
            "title": game_title(get_game(row.kind).title) if row.kind in known else row.kind,
            "played": row.played,
            "won": row.won,
            "left": row.left,
            "win_rate": round(row.won / row.played, 3),
            "average_rank": _rounded(row.rank_total / row.played),
            "average_seats": _rounded(row.seats_total / row.played),
            "last_finished": row.last_finished,
        }
        for row in PlayerGameStats.objects.filter(user=person, played__gt=0).order_by("kind")
    ]


def _rounded(value) -> float | None:
    return None if value is None else round(float(value), 2)


# The results a list of her finished games can be narrowed to (the API's `result` filter).
RESULTS = {"won": Q(rank=1, abandoned=False), "lost": ~Q(rank=1, abandoned=False), "left": Q(abandoned=True)}


def recent_games(
    person,
    viewer=None,
    kind: str | None = None,
    *,
    pace: str | None = None,
    players: int | None = None,
    rated: bool | None = None,
    result: str | None = None,
) -> QuerySet[Seat]:
    """Her seats at finished games `viewer` may see (games.selectors.visible_q), newest first: to count and to
    page through (then `games_of`).  Driven by her seats, as the statistics, for the same reason.

    Narrowed to one game `kind`, `pace`, number of `players`, `rated` or not, and her `result` (RESULTS: won is
    rank 1 still playing at the end, as in the statistics; lost is every other; left, resigned or timed out)."""
    game = _finished_game()
    if viewer is None or not viewer.is_authenticated or viewer.pk != person.pk:
        game = game.filter(visible_q(viewer))
    lookups = {"kind": kind, "pace": pace, "players": players, "rated": rated}
    game = game.filter(**{field: value for field, value in lookups.items() if value is not None and value != ""})
    # A scalar subquery, not EXISTS: PostgreSQL would turn EXISTS into a join, and scan every game.
    when = game.values(when=Coalesce("finished_at", "updated_at"))[:1]
    seats = Seat.objects.filter(user=person, rank__isnull=False)
    if result:
        seats = seats.filter(RESULTS[result])
    return seats.annotate(finished=Subquery(when)).filter(finished__isnull=False).order_by("-finished", "-game_id")


def games_of(seats) -> list[Game]:
    """The games of a page of `recent_games`, in its order, with their seats and players."""
    ids = [seat.game_id for seat in seats]
    games = Game.objects.select_related("created_by").prefetch_related(_SEATS).in_bulk(ids)
    return [games[pk] for pk in ids if pk in games]


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
        "opponents": [
            {
                "seat": s.index,
                "player": s.user.username if s.user_id else None,
                "bot_level": s.bot_level or None,
                "rank": s.rank,
                "score": s.score,
                "left": s.abandoned,
            }
            for s in seats
            if s.pk != mine.pk
        ],
    }
