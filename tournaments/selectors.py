"""Reads of tournaments: lists, standings, and one tournament as the pages and the API show it.

Everything here is public: who entered, the tables, and the final ranks and scores of finished tables
(a running table contributes nothing until it is over, so no hidden information is read).
"""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.utils import timezone

from accounts.personal import local_time
from engine.core import get_game
from games.models import Game, Seat

from .models import Entrant, Tournament, TournamentTable
from .pairings import games_each
from .standings import EntrantKey, SeatResult, Standing, TableResult, standings


def tournaments_listed(*, kind: str | None = None, status: str | None = None):
    """Tournaments newest first, with their number of entrants (`entrant_count`)."""
    rows = Tournament.objects.select_related("organiser", "winner").annotate(entrant_count=Count("entrants"))
    if kind:
        rows = rows.filter(kind=kind)
    if status:
        rows = rows.filter(status=status)
    return rows


def _tables(tournament: Tournament) -> list[TournamentTable]:
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("index"))
    return list(tournament.tables.select_related("game").prefetch_related(seats).order_by("number"))


def _higher_is_better(kind: str) -> bool:
    return get_game(kind).higher_is_better


def tournament_standings(tournament: Tournament, tables: list[TournamentTable] | None = None) -> list[Standing]:
    tables = _tables(tournament) if tables is None else tables
    entrants = [EntrantKey(user_id=e.user_id, order=(e.registered_at, e.pk)) for e in tournament.entrants.all()]
    results = [
        TableResult(
            finished=t.game.status == Game.Status.FINISHED,
            seats=[
                SeatResult(user_id=s.user_id, rank=s.rank, score=s.score)
                for s in t.game.seats.all()
                if s.user_id is not None
            ],
        )
        for t in tables
    ]
    return standings(entrants, results, higher_is_better=_higher_is_better(tournament.kind))


def _number(value: float):
    """Points as people write them: 2, 1.5 (never 2.0)."""
    return int(value) if float(value).is_integer() else round(value, 2)


def may_register(tournament: Tournament, user, registered: bool, count: int, now=None) -> bool:
    now = now or timezone.now()
    return (
        user is not None
        and not registered
        and tournament.is_registering
        and tournament.starts_at > now
        and count < tournament.max_entrants
    )


def tournament_summary(tournament: Tournament) -> dict:
    count = getattr(tournament, "entrant_count", None)
    if count is None:
        count = tournament.entrants.count()
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.kind,
        "players": tournament.players,
        "status": tournament.status,
        "starts_at": tournament.starts_at,
        "starts_at_text": local_time(tournament.starts_at),  # in the reader's zone, named
        "entrants": count,
        "min_entrants": tournament.min_entrants,
        "max_entrants": tournament.max_entrants,
        "rated": tournament.rated,
        "double": tournament.double,
        "turn_days": tournament.turn_seconds // 86400,
        "organiser": tournament.organiser.username,
        "winner": tournament.winner.username if tournament.winner_id else None,
    }


def tournament_detail(tournament: Tournament, user=None, now=None) -> dict:
    """One tournament: its settings, entrants, tables and standings, and what `user` may do."""
    user = user if user is not None and user.is_authenticated else None
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
    tables = _tables(tournament)
    rows = tournament_standings(tournament, tables)
    names = {e.user_id: e.user.username for e in entrants}
    registered = user is not None and any(e.user_id == user.pk for e in entrants)
    still_open = tournament.is_registering and tournament.starts_at > (now or timezone.now())
    n = len(entrants)
    fits = tournament.players <= n
    data = tournament_summary(tournament)
    data.update(
        {
            "entrants": n,
            "options": tournament.options,
            "time_bank_days": tournament.time_bank_days,
            "created_at": tournament.created_at,
            "started_at": tournament.started_at,
            "finished_at": tournament.finished_at,
            "games_each": games_each(n, tournament.players, double=tournament.double) if fits else 0,
            "registered": registered,
            "may_register": may_register(tournament, user, registered, n, now),
            "may_withdraw": registered and still_open,
            "may_organise": user is not None and user.pk == tournament.organiser_id and still_open,
            "entrant_list": [
                {"username": e.user.username, "registered_at": e.registered_at, "number": e.number} for e in entrants
            ],
            "tables": [
                {
                    "id": t.game_id,
                    "number": t.number,
                    "status": t.game.status,
                    "seats": [
                        {
                            "index": s.index,
                            "username": s.user.username if s.user_id else None,
                            "rank": s.rank if t.game.status == Game.Status.FINISHED else None,
                        }
                        for s in t.game.seats.all()
                    ],
                }
                for t in tables
            ],
            "standings": [
                {
                    "place": r.place,
                    "username": names.get(r.user_id, ""),
                    "points": _number(r.points),
                    "played": r.played,
                    "wins": r.wins,
                    "sonneborn_berger": _number(r.sonneborn_berger),
                    "score_sum": _number(r.score_sum),
                    "head_to_head": _number(r.head_to_head),
                }
                for r in rows
            ],
        }
    )
    return data
