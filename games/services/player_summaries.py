"""The per-player per-game summaries behind a player's statistics (decision 16, point 4: `PlayerGameStats`).

A player's page reads one row per game she has finished instead of counting over every seat she ever had.  The
rows are kept by the end of each game (`player_summaries_record`, called by `ranks_settle` in the transaction
that finishes it), and can be built again from the seats (`player_summaries_rebuild`: the data migration and
the benchmarks), with the same definitions as `games.selectors.player_stats` states: finished games only (an aborted
game has no ranks and never comes here), won is rank 1 and still playing at the end, left is resigned or three
missed deadlines.
"""

from __future__ import annotations

from django.db.models import Count, F, Max, Q, Sum

from ..models import Game, PlayerGameStats, Seat


def player_summaries_record(game: Game, seats: list[Seat]) -> None:
    """Add a game that finishes now to the summaries of the people at it (bots have none).

    Each person's row is created if need be, then raised in place (UPDATE ... SET played = played + 1), so two
    games of hers finishing at once both count; rows are taken in the order of their users to never deadlock."""
    people = sorted((s for s in seats if s.user_id is not None), key=lambda s: s.user_id)
    PlayerGameStats.objects.bulk_create(
        [PlayerGameStats(user_id=s.user_id, kind=game.kind) for s in people], ignore_conflicts=True
    )
    for seat in people:
        won = seat.rank == 1 and not seat.abandoned
        # The game finishing now is her latest finished game of this kind.
        PlayerGameStats.objects.filter(user_id=seat.user_id, kind=game.kind).update(
            played=F("played") + 1,
            won=F("won") + int(won),
            left=F("left") + int(seat.abandoned),
            rank_total=F("rank_total") + seat.rank,
            seats_total=F("seats_total") + game.players,
            last_finished=game.finished_at,
        )


def player_summaries_rebuild(seat_model=Seat, stats_model=PlayerGameStats) -> int:
    """Every summary made again from the seats of finished games; the rows written.  The models are parameters
    so the data migration passes its historical ones."""
    rows = (
        seat_model.objects.filter(rank__isnull=False, user__isnull=False, game__status="finished")
        .values("user_id", "game__kind")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(rank=1, abandoned=False)),
            left=Count("pk", filter=Q(abandoned=True)),
            rank_total=Sum("rank"),
            seats_total=Sum("game__players"),
            last_finished=Max("game__finished_at"),
        )
        .order_by()
    )
    stats_model.objects.all().delete()
    made = stats_model.objects.bulk_create(
        [
            stats_model(
                user_id=r["user_id"],
                kind=r["game__kind"],
                played=r["played"],
                won=r["won"],
                left=r["left"],
                rank_total=r["rank_total"],
                seats_total=r["seats_total"],
                last_finished=r["last_finished"],
            )
            for r in rows.iterator()
        ],
        batch_size=5000,
    )
    return len(made)
