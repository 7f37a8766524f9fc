"""Reads of the lobby and the watch list (decision 17): which tables are listed as open, which games may be
watched, and how many are watching each.

- An open table is listed while a seat is free: a full one (its `auto_start` off, waiting for its creator) or a
  started one never is, whatever list asks.  Nor is one where someone sits who has a block with the viewer, either
  way (ruling S7: the lobby never seats them together; joining is refused too, games.services.tables).
- A game to watch is a running public one; the list is ordered by the latest activity (a move, a join), newest
  first.
- Spectators: viewers with the table's page open within TOPOS_SPECTATOR_SECONDS who do not sit at it
  (games.services.spectators writes them).
"""

from __future__ import annotations

from django.db.models import Count, Exists, ExpressionWrapper, F, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from accounts.selectors import blocked_with

from ..models import Game, Invitation, Seat
from . import tables as selectors
from .pace import REPLY_WITHIN, replying_within_q


def seats_taken():
    """The number of seats taken at each table, as an expression (a subquery: no GROUP BY over the games)."""
    taken = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(taken), 0)


def filter_tables(
    queryset,
    *,
    game: str | None = None,
    players: int | None = None,
    pace: str | None = None,
    rated: bool | None = None,
    replies_within: str | None = None,
):
    """The lobby's filters; None leaves a filter out.  `replies_within` (a key of games.selectors.pace.REPLY_WITHIN):
    only
    tables whose seated people usually reply that fast by correspondence (decision 29), from their kept profiles."""
    lookups = {"kind": game, "players": players, "pace": pace, "rated": rated}
    queryset = queryset.filter(**{field: value for field, value in lookups.items() if value is not None})
    if replies_within in REPLY_WITHIN:
        queryset = queryset.filter(replying_within_q(REPLY_WITHIN[replies_within]))
    return queryset


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


def blocked_seated(viewer):
    """Tables where someone sits who blocked `viewer` or whom she blocked (an EXISTS joined into the list's query);
    None for a visitor or nobody."""
    with_block = blocked_with(viewer, "user")
    if with_block is None:
        return None
    return Exists(Seat.objects.filter(game=OuterRef("pk")).filter(with_block))


def tables_listed(viewer=None):
    """Public tables in any state, minus open ones without a free seat for a newcomer: full, or every free seat held
    for an invited player (a challenge is not offered to the whole lobby; she who has the link may still join), and
    minus the open ones `viewer` may not join because of a block (ruling S7)."""
    full_open = Q(status=Game.Status.OPEN, seats_taken__gte=F("players") - F("seats_held"))
    listed = selectors.tables_public().annotate(seats_taken=seats_taken(), seats_held=seats_held()).exclude(full_open)
    kept_apart = blocked_seated(viewer)
    return listed if kept_apart is None else listed.exclude(Q(status=Game.Status.OPEN) & kept_apart)


def tables_open_listed(viewer=None, **filters):
    """Open public tables with a free seat `viewer` may take, newest first, filtered as the lobby asks."""
    listed = tables_listed(viewer).filter(status=Game.Status.OPEN)
    return filter_tables(listed, **filters).order_by("-created_at", "-id")


def tables_watchable(**filters):
    """Running public games, the latest activity first (the partial index game_watchable)."""
    running = selectors.tables_public().filter(status=Game.Status.RUNNING)
    return filter_tables(running, **filters).order_by("-updated_at", "-id")


def invitations_pending(user):
    """Her invitations to tables still open where she does not sit yet, oldest first (what she may accept), each
    with the seats still free at its table (`seats_free`: the page says when it starts)."""
    return (
        Invitation.objects.filter(user=user, game__status=Game.Status.OPEN)
        .exclude(game__seats__user=user)
        .select_related("game__created_by", "invited_by")
        .annotate(seats_free=ExpressionWrapper(F("game__players") - Count("game__seats"), IntegerField()))
        .order_by("created_at", "pk")
    )
