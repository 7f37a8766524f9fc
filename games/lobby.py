"""Reads of the lobby and the watch list (issue 17): which tables are listed as open, which games may be
watched, and how many are watching each.

- An open table is listed while a seat is free: a full one (its `auto_start` off, waiting for its creator) or a
  started one never is, whatever list asks.
- A game to watch is a running public one; the list is ordered by the latest activity (a move, a join), newest
  first.
- Spectators: viewers with the table's page open within TOPOS_SPECTATOR_SECONDS who do not sit at it
  (games.services.spectators writes them).
"""

from __future__ import annotations

from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from . import selectors
from .models import Game, Invitation, Seat


def seats_taken():
    """The number of seats taken at each table, as an expression (a subquery: no GROUP BY over the games)."""
    taken = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(taken), 0)


def filter_tables(
    queryset, *, game: str | None = None, players: int | None = None, pace: str | None = None, rated: bool | None = None
):
    """The lobby's filters; None leaves a filter out."""
    lookups = {"kind": game, "players": players, "pace": pace, "rated": rated}
    return queryset.filter(**{field: value for field, value in lookups.items() if value is not None})


def seats_held():
    """The number of invitations pending at each table (to people not seated there): seats held for them, as a
    challenge's seat is for the one challenged."""
    seated = Seat.objects.filter(game=OuterRef(OuterRef("pk")), user__isnull=False).values("user")
    pending = (
        Invitation.objects.filter(game=OuterRef("pk"))
        .exclude(user__in=seated)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(pending), 0)


def tables_listed():
    """Public tables in any state, minus open ones without a free seat for a newcomer: full, or every free seat held
    for an invited player (a challenge is not offered to the whole lobby; she who has the link may still join)."""
    full_open = Q(status=Game.Status.OPEN, seats_taken__gte=F("players") - F("seats_held"))
    return selectors.tables_public().annotate(seats_taken=seats_taken(), seats_held=seats_held()).exclude(full_open)


def tables_open_listed(**filters):
    """Open public tables with a free seat, newest first, filtered as the lobby asks."""
    return filter_tables(tables_listed().filter(status=Game.Status.OPEN), **filters).order_by("-created_at", "-id")


def tables_watchable(**filters):
    """Running public games, the latest activity first (the partial index game_watchable)."""
    running = selectors.tables_public().filter(status=Game.Status.RUNNING)
    return filter_tables(running, **filters).order_by("-updated_at", "-id")


def invitations_pending(user):
    """Her invitations to tables still open where she does not sit yet, oldest first (what she may accept)."""
    return (
        Invitation.objects.filter(user=user, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .select_related("game", "invited_by")
        .order_by("created_at", "pk")
    )
