"""The watch list and challenges (decision 17): GET /api/tables/watch/, POST /api/challenges/.

The open tables keep their list (GET /api/tables/, games.api.views) with the same filters; both lists leave out an
open table without a free seat (games.selectors.lobby).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.views import APIView

from accounts import limits
from engine.core import all_games

from .. import selectors
from ..models import Pace
from ..selectors import lobby, spectating
from ..services.challenges import challenge_create
from .idempotency import idempotent
from .pagination import PageOut, _Pages, cursor_parameters
from .responses import TableDetailOut, TableSummaryOut, error
from .serializers import TableCreateIn, table_choices
from .views import IDEMPOTENCY, _detail, _lock_user


class WatchedTableOut(TableSummaryOut):
    spectators = serializers.IntegerField(
        help_text="Viewers with its page open within the last few minutes who do not sit at it."
    )
    updated_at = serializers.DateTimeField(help_text="Its latest activity (the list's order).")


class WatchPageOut(PageOut):
    results = WatchedTableOut(many=True)


class LobbyFilters(serializers.Serializer):
    """The lobby's filters (query parameters); a bad value is 400 naming the parameter."""

    game = serializers.ChoiceField(
        choices=sorted(all_games()), required=False, help_text="Only tables of this game (see /api/catalogue/)."
    )
    players = serializers.IntegerField(
        min_value=1, max_value=8, required=False, help_text="Only tables for this many players."
    )
    pace = serializers.ChoiceField(choices=Pace.values, required=False, help_text="Only tables of this pace.")
    rated = serializers.BooleanField(required=False, help_text="Only rated (true) or unrated (false) tables.")
    replies_within = serializers.ChoiceField(
        choices=["hour", "day", "3days"],
        required=False,
        help_text="Only tables whose seated people usually reply (median, by correspondence) within an hour, a day "
        "or three days, from their pace profiles (GET /api/players/{username}/, `pace`); people with no replies yet "
        "do not count as fast.",
    )


class WatchPages(_Pages):
    # The latest activity first: a game that moves while one reads the list comes back to its top.
    ordering = ("-updated_at", "-id")
    page_size = 50
    max_page_size = 200


class WatchListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tables_watch",
        summary="Running public games to watch, the latest activity first, "
        "a page at a time, each with its number of spectators",
        description="Filters: `game`, `players`, `pace`, `rated`. Ordered by the latest activity, so a "
        "game that moves while you page comes back at the top of the first page. A spectator "
        "gets a table's public view only (GET /api/tables/{id}/).",
        parameters=[LobbyFilters, *cursor_parameters(WatchPages)],
        responses={
            200: WatchPageOut,
            400: error(400, "A filter, cursor or page size that is not valid; `fields` names it."),
        },
    )
    def get(self, request):
        filters = LobbyFilters(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        pages = WatchPages()
        games = pages.paginate_queryset(lobby.tables_watchable(**filters.validated_data), request, view=self)
        user = request.user if request.user.is_authenticated else None
        counts = spectating.spectator_counts(games)
        results = [
            {**summary, "spectators": counts[game.pk], "updated_at": game.updated_at.isoformat()}
            for game, summary in zip(games, selectors.table_summaries(games, user), strict=True)
        ]
        return pages.get_paginated_response(results)


class ChallengeIn(TableCreateIn):
    # Not trimmed (as the invitation's): a name of spaces only is a player that does not exist (404).
    username = serializers.CharField(
        trim_whitespace=False,
        max_length=150,
        help_text="The player to challenge (a person or a bot account); she is "
        "invited to the table and answers at /api/invitations/.",
    )
    players = serializers.IntegerField(min_value=2, max_value=8, default=2)


class ChallengeView(APIView):
    @extend_schema(
        operation_id="challenge_create",
        summary="Challenge a player: open a table with these options and invite her",
        description="Takes the fields of `POST /api/tables/` and `username`. The table starts by itself "
        "when she accepts and the table is then full (`auto_start`, on by default). Refused "
        "as a whole (nothing is opened) if the player does not exist, is you, or the "
        "invitation limit ran out.",
        request=ChallengeIn,
        parameters=[IDEMPOTENCY],
        responses={
            201: TableDetailOut,
            400: error(400, "A malformed body, an option that is not valid, or yourself as opponent."),
            401: error(401, "Not logged in."),
            403: error(403, "Not allowed."),
            404: error(404, "No player by that name."),
            429: error(429, "Too many invitations in an hour; `Retry-After` says when to try again."),
        },
    )
    def post(self, request):
        body = ChallengeIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data

        def handler():
            game = challenge_create(
                user=request.user,
                username=d["username"],
                client_address=limits.client_address(request),
                **table_choices(d),
            )
            return _detail(game.pk, request, status=201)

        return idempotent(request, _lock_user(request), handler)
