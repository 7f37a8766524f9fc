"""Writes of ratings (ruling S5): a finished rated game changes its players' ratings; a recompute replays them all.

`game_rate` runs inside the transaction that finishes the game (games.services.moves, .leaving), with the
game row locked: the ratings change exactly when the game is over, never twice (one RatedGame per game,
one RatingChange per game and player) and never lost.  The players' Rating rows are locked in user-id order,
so two games finishing at once for the same player queue on her row, each reading what the other wrote.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from engine.ranking import replayed_ranks
from games.models import Action, Game

from . import system
from .keys import rating_key
from .models import RatedGame, Rating, RatingChange


def game_is_ratable(game: Game, seats) -> bool:
    """Rated table, finished, at least two seats and every one of them a person (a bot's table is never rated)."""
    return (
        game.rated
        and game.status == Game.Status.FINISHED
        and len(seats) >= 2
        and all(s.user_id is not None and s.rank is not None for s in seats)
    )


def game_rate(game: Game) -> RatedGame | None:
    """Change the players' ratings by the finished game's final ranks (ruling S1); None when it is not rated."""
    seats = list(game.seats.order_by("index"))
    if not game_is_ratable(game, seats) or RatedGame.objects.filter(game=game).exists():
        return None
    placings = [(s.user_id, s.rank) for s in seats]
    return _apply(game, rating_key(game.kind, game.pace), placings, rated=None, now=timezone.now())


def _locked_ratings(key: str, user_ids: list[int], now) -> dict[int, Rating]:
    """The players' Rating rows in `key`, created at the prior when missing, locked in user-id order."""
    ordered = sorted(set(user_ids))
    # ON CONFLICT DO NOTHING: a row another finishing game is creating is waited for, not a unique error.
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=u,
                key=key,
                mu=system.MU,
                sigma=system.SIGMA,
                value=system.shown_value(system.MU, system.SIGMA),
                games=0,
                updated_at=now,
            )
            for u in ordered
        ],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(key=key, user_id__in=ordered).order_by("user_id")
    return {row.user_id: row for row in rows}


def _apply(game: Game, key: str, placings: list[tuple[int, int]], *, rated: RatedGame | None, now) -> RatedGame:
    rows = _locked_ratings(key, [u for u, _ in placings], now)
    if rated is None:  # numbered only now, under the players' locks: the order a recompute replays
        rated = RatedGame.objects.create(game=game, key=key, rated_at=now)
    when = rated.rated_at
    new = system.rate([(rows[u].mu, rows[u].sigma) for u, _ in placings], [rank for _, rank in placings])
    changes = []
    for (user_id, rank), (mu, sigma) in zip(placings, new):
        row = rows[user_id]
        changes.append(
            RatingChange(
                rated_game=rated,
                game=game,
                user_id=user_id,
                key=key,
                rank=rank,
                mu_before=row.mu,
                sigma_before=row.sigma,
                value_before=row.value,
                games_before=row.games,
                mu_after=mu,
                sigma_after=sigma,
                value_after=system.shown_value(mu, sigma),
                created_at=when,
            )
        )
        row.mu, row.sigma, row.value, row.games, row.updated_at = (
            mu,
            sigma,
            system.shown_value(mu, sigma),
            row.games + 1,
            when,
        )
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "value", "games", "updated_at"])
    return rated


def game_unrate(game: Game) -> None:
    """Forget that a game was rated: it turned out never to have been played (ruling S1, turn 3, applied to a game
    that ended before it).  Later games started from its numbers, so the caller recomputes every rating after."""
    RatedGame.objects.filter(game=game).delete()  # and its RatingChange rows (cascade)


@dataclass
class Recomputed:
    games: int
    players: int
    recorded: int  # finished rated games that had no RatedGame yet, numbered after the others
    differing: list[int]  # with from_logs: games whose published ranks differ from their replayed log's


def _placings(game: Game, seats, from_logs: bool) -> list[tuple[int, int]]:
    """(user id, final rank) per seat: the published ranks, or those re-computed from the seed and the log."""
    if not from_logs:
        return [(s.user_id, s.rank) for s in seats]
    log = Action.objects.filter(game=game).order_by("seq").values_list("seat", "action")
    ranks = replayed_ranks(game.kind, game.players, game.options, game.seed, list(log))  # rulings S1, G0.2
    return [(s.user_id, ranks[s.index]) for s in seats]


@transaction.atomic
def ratings_recompute(*, from_logs: bool = False) -> Recomputed:
    """Wipe every rating and replay every rated game in the order it was rated (ruling S5): the same numbers.

    `from_logs` re-runs each game's seed and log for its ranks (slow) instead of reading the published ones,
    and lists the games where they differ (the log's ranks are used).  Games finishing meanwhile wait for
    the end (the tables are locked on PostgreSQL), then apply on top.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"LOCK TABLE {Rating._meta.db_table}, {RatingChange._meta.db_table}, "
                f"{RatedGame._meta.db_table} IN EXCLUSIVE MODE"
            )
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    count, differing = 0, []
    # Only finished games: an aborted one has no result to rate, whatever rows it left (ruling S1, turn 3).
    for rated in RatedGame.objects.select_related("game").filter(game__status=Game.Status.FINISHED).order_by("id"):
        seats = list(rated.game.seats.order_by("index"))
        placings = _placings(rated.game, seats, from_logs)
        if [rank for _, rank in placings] != [s.rank for s in seats]:
            differing.append(rated.game_id)
        _apply(rated.game, rated.key, placings, rated=rated, now=rated.rated_at)
        count += 1
    # A rated game finished without its RatedGame (made outside the site's services): rated now, after the others.
    missing = Game.objects.filter(rated=True, status=Game.Status.FINISHED, rated_as__isnull=True)
    recorded = sum(1 for game in missing.order_by("finished_at", "id") if game_rate(game) is not None)
    # Ruling S8: a deleted account's ratings left the leaderboards for good; her games still count for the others.
    RatingChange.objects.filter(user__deleted_at__isnull=False).delete()
    Rating.objects.filter(user__deleted_at__isnull=False).delete()
    return Recomputed(
        games=count + recorded,
        players=Rating.objects.values("user").distinct().count(),
        recorded=recorded,
        differing=differing,
    )
