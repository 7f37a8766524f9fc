"""/api/tournaments/: list (cursor pages, filters), create, one tournament, register, withdraw (decision 17).

Views only translate: input through the serializers below, writes through tournaments.services, the
answers from tournaments.selectors; every answer, refusals included, has a named schema.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.core import all_games
from games.api.errors import error_response
from games.api.idempotency import idempotent
from games.api.pagination import PageOut, _Pages, cursor_parameters
from games.api.responses import error
from games.api.views import IDEMPOTENCY
from games.errors import NotFound, ServiceError
from games.models import CORRESPONDENCE_DAYS, TIME_BANK_MAX_DAYS

from . import selectors, services
from .models import Tournament
from .pairings import MAX_ENTRANTS


class TournamentPages(_Pages):
    ordering = "-id"
    page_size = 50
    max_page_size = 200


# --- shapes -----------------------------------------------------------------------------------------------


class TournamentFilters(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=sorted(all_games()), required=False, help_text="Only tournaments of this game (see /api/catalogue/)."
    )
    status = serializers.ChoiceField(
        choices=Tournament.Status.values, required=False, help_text="Only tournaments in this state."
    )


class TournamentCreateIn(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="1 to 100 characters.")
    game = serializers.ChoiceField(choices=sorted(all_games()), help_text="The game (see /api/catalogue/).")
    players = serializers.IntegerField(
        min_value=2, max_value=8, help_text="Players at each table (within the game's own range)."
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="The tables' game options (see the catalogue), checked as a table's."
    )
    turn_days = serializers.ChoiceField(
        choices=list(CORRESPONDENCE_DAYS), default=3, help_text="Each table's clock per turn, in days (correspondence)."
    )
    time_bank_days = serializers.IntegerField(
        min_value=0,
        max_value=TIME_BANK_MAX_DAYS,
        default=0,
        help_text="Each seat's time bank, in days (ruling S4); 0: none.",
    )
    rated = serializers.BooleanField(default=True, help_text="Its tables change the players' ratings (ruling S5).")
    double = serializers.BooleanField(
        default=False, help_text="Two-player tables only: every pair meets twice, once in each seat."
    )
    starts_at = serializers.DateTimeField(
        help_text="When registration closes and the tables are dealt: at least 5 minutes and at most 90 days from now."
    )
    min_entrants = serializers.IntegerField(
        min_value=2,
        max_value=MAX_ENTRANTS,
        required=False,
        help_text="Fewer at the start time cancel it (default: one table's worth).",
    )
    max_entrants = serializers.IntegerField(
        min_value=2,
        max_value=MAX_ENTRANTS,
        required=False,
        help_text=f"Registration closes when full (default 8, at most {MAX_ENTRANTS}).",
    )
    join = serializers.BooleanField(default=True, help_text="Register yourself as its first entrant.")


class TournamentOut(serializers.Serializer):
    """A tournament as listed."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    players = serializers.IntegerField(help_text="Players at each table.")
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    starts_at = serializers.DateTimeField(help_text="When registration closes and the tables are dealt.")
    starts_at_text = serializers.CharField(
        help_text='The same in the reader\'s time zone, named by its IANA name: "2026-11-28 14:15 (Asia/Taipei)".'
    )
    entrants = serializers.IntegerField(help_text="How many are registered.")
    min_entrants = serializers.IntegerField()
    max_entrants = serializers.IntegerField()
    rated = serializers.BooleanField()
    double = serializers.BooleanField()
    turn_days = serializers.IntegerField()
    organiser = serializers.CharField()
    winner = serializers.CharField(allow_null=True, help_text="Once finished: first in the standings.")


class TournamentPageOut(PageOut):
    results = TournamentOut(many=True)


class EntrantOut(serializers.Serializer):
    username = serializers.CharField()
    registered_at = serializers.DateTimeField()
    number = serializers.IntegerField(
        allow_null=True, help_text="Her number in the pairing scheme, drawn at the start."
    )


class TableSeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True, help_text="Final rank (ruling S1) once the table is finished.")


class TournamentTableOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The table's id: /api/tables/<id>/.")
    number = serializers.IntegerField()
    status = serializers.CharField()
    seats = TableSeatOut(many=True)


class StandingOut(serializers.Serializer):
    place = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField(help_text="At a table of k: k-1 for first down to 0 for last, ties shared.")
    played = serializers.IntegerField(help_text="Finished tables.")
    wins = serializers.IntegerField()
    sonneborn_berger = serializers.FloatField(help_text="First tie-break.")
    score_sum = serializers.FloatField(
        help_text="Second tie-break: the games' own scores (fewer is better where they are penalties)."
    )
    head_to_head = serializers.FloatField(help_text="Third tie-break: among those still level.")


class TournamentDetailOut(TournamentOut):
    options = serializers.DictField()
    time_bank_days = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    games_each = serializers.IntegerField(help_text="Games each entrant plays (with the entrants as they stand).")
    registered = serializers.BooleanField(help_text="You are registered.")
    may_register = serializers.BooleanField()
    may_withdraw = serializers.BooleanField()
    may_organise = serializers.BooleanField(
        help_text="You organise it and it has not started: you may cancel it, "
        "or start it now once enough have registered."
    )
    entrant_list = EntrantOut(many=True)
    tables = TournamentTableOut(many=True)
    standings = StandingOut(many=True)


def _error(description: str) -> OpenApiResponse:
    return error(400, description)  # the API's one error shape; the schema hook sets each status


NOT_LOGGED_IN = {401: _error("No valid token or session."), 403: _error("Not allowed (a session without CSRF).")}
NOT_FOUND = _error("No such tournament.")


def _found(pk: int) -> Tournament:
    tournament = selectors.tournaments_listed().filter(pk=pk).first()
    if tournament is None:
        raise NotFound(_("There is no tournament #%(id)s.") % {"id": pk})
    return tournament


def _detail(request, pk: int, status: int = 200) -> Response:
    user = request.user if request.user.is_authenticated else None
    return Response(TournamentDetailOut(selectors.tournament_detail(_found(pk), user)).data, status=status)


def _lock(pk: int):
    def lock():
        Tournament.objects.select_for_update(no_key=True).filter(pk=pk).exists()

    return lock


# --- views ----------------------------------------------------------------------------------------------


class TournamentListView(APIView):
    def get_permissions(self):
        return [permissions.AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        operation_id="tournaments_list",
        summary="Tournaments, newest first, a page at a time",
        parameters=[TournamentFilters, *cursor_parameters(TournamentPages)],
        responses={200: TournamentPageOut, 400: _error("A filter, cursor or page size that is not valid.")},
    )
    def get(self, request):
        filters = TournamentFilters(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        pages = TournamentPages()
        rows = pages.paginate_queryset(
            selectors.tournaments_listed(
                kind=filters.validated_data.get("game"), status=filters.validated_data.get("status")
            ),
            request,
            view=self,
        )
        return pages.get_paginated_response(
            TournamentOut([selectors.tournament_summary(t) for t in rows], many=True).data
        )

    @extend_schema(
        operation_id="tournaments_create",
        summary="Open a round-robin tournament for registration",
        description="All its tables are dealt at `starts_at` (correspondence pace); with fewer than "
        "`min_entrants` it is cancelled then. See docs/tournaments.md for the pairings.",
        request=TournamentCreateIn,
        parameters=[IDEMPOTENCY],
        responses={
            201: TournamentDetailOut,
            400: _error("Malformed or invalid settings; `detail` says which."),
            409: _error("You already have 5 tournaments waiting to start."),
            422: _error("Idempotency-Key reused for a different request."),
            **NOT_LOGGED_IN,
        },
    )
    def post(self, request):
        body = TournamentCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data

        def lock():
            get_user_model().objects.select_for_update(no_key=True).filter(pk=request.user.pk).exists()

        def handler():
            tournament = services.tournament_create(
                user=request.user,
                name=d["name"],
                kind=d["game"],
                players=d["players"],
                options=d["options"],
                turn_seconds=d["turn_days"] * 86400,
                time_bank_days=d["time_bank_days"],
                rated=d["rated"],
                double=d["double"],
                starts_at=d["starts_at"],
                min_entrants=d.get("min_entrants"),
                max_entrants=d.get("max_entrants"),
                join=d["join"],
            )
            return _detail(request, tournament.pk, status=201)

        return idempotent(request, lock, handler)


class TournamentDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="tournament_detail",
        summary="A tournament: settings, entrants, tables, standings",
        responses={200: TournamentDetailOut, 404: NOT_FOUND},
    )
    def get(self, request, pk: int):
        try:
            return _detail(request, pk)
        except ServiceError as exc:
            return error_response(exc)


def _write(service, operation_id: str, summary: str, conflict: str):
    class View(APIView):
        @extend_schema(
            operation_id=operation_id,
            summary=summary,
            request=None,
            parameters=[IDEMPOTENCY],
            responses={
                200: TournamentDetailOut,
                404: NOT_FOUND,
                409: _error(conflict),
                422: _error("Idempotency-Key reused for a different request."),
                401: _error("No valid token or session."),
                403: _error("Not allowed: a session without CSRF, or (cancel, start) not its organiser."),
            },
        )
        def post(self, request, pk: int):
            def handler():
                service(user=request.user, tournament_id=pk)
                return _detail(request, pk)

            return idempotent(request, _lock(pk), handler)

    View.__name__ = f"{service.__name__.title().replace('_', '')}View"
    return View


RegisterView = _write(
    services.tournament_register,
    "tournament_register",
    "Register for a tournament",
    "Registration is closed, the tournament is full, or you are registered already.",
)
WithdrawView = _write(
    services.tournament_withdraw,
    "tournament_withdraw",
    "Withdraw before it starts",
    "Registration is closed (it has started), or you are not registered.",
)
CancelView = _write(
    services.tournament_cancel,
    "tournament_cancel",
    "Cancel a tournament before it starts (its organiser); the entrants are told",
    "It has already started, ended or been cancelled.",
)
StartNowView = _write(
    services.tournament_start_now,
    "tournament_start_now",
    "Close registration now and deal the tables at once (its organiser, once enough entered)",
    "It has already started, ended or been cancelled, or too few have registered.",
)
