"""The REST API: everything a browser can do, for apps, scripts and outside bots."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.bots import levels as bot_levels
from engine.core import all_games

from .. import selectors, services
from ..errors import NotFound, ServiceError, StaleVersion
from ..models import Game
from .errors import error_response
from .idempotency import HEADER, idempotent
from .serializers import ActionIn, BotIn, InviteIn, JoinIn, StartIn, TableCreateIn

IDEMPOTENCY = OpenApiParameter(HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
                               description="Retries with the same key return the first answer and apply nothing twice.")
ERRORS = {
    400: OpenApiResponse(description="Malformed body or illegal action; `detail` says why."),
    403: OpenApiResponse(description="Not your seat or table."),
    404: OpenApiResponse(description="No such table."),
    409: OpenApiResponse(description="Stale version or a table in the wrong state."),
}


def _visible(request, pk: int) -> Game:
    game = selectors.visible_games(request.user).filter(pk=pk).select_related("created_by").first()
    if game is None:
        raise NotFound(_("There is no table #%(id)s that you can see.") % {"id": pk})
    return game


def _lock(pk: int):
    def lock():
        if not Game.objects.select_for_update().filter(pk=pk).exists():
            raise NotFound(_("There is no table #%(id)s.") % {"id": pk})
    return lock


def _lock_user(request):
    def lock():
        type(request.user).objects.select_for_update().filter(pk=request.user.pk).exists()
    return lock


def _detail(pk: int, request, status: int = 200) -> Response:
    game = Game.objects.select_related("created_by").get(pk=pk)
    return Response(selectors.table_detail(game, request.user), status=status)


class CatalogueView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(summary="The games, their player counts and options, and the bot levels", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({
            "games": [g.metadata() for _, g in sorted(all_games().items())],
            "bot_levels": {name: {"label": lvl.get("label", name)} for name, lvl in bot_levels().items()},
        })


class TableListView(APIView):
    @extend_schema(operation_id="tables_list_open", summary="Open tables anyone can join", responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response({"results": [selectors.table_summary(g, request.user) for g in selectors.tables_open()[:100]]})

    @extend_schema(summary="Open a table", request=TableCreateIn, parameters=[IDEMPOTENCY],
                   responses={201: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request):
        body = TableCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data

        def handler():
            game = services.game_create(user=request.user, kind=d["game"], players=d["players"],
                                        options=d["options"], pace=d["pace"], turn_seconds=d.get("turn_seconds"),
                                        private=d["private"], bots=d["bots"])
            return _detail(game.pk, request, status=201)

        return idempotent(request, _lock_user(request), handler)


class MyTablesView(APIView):
    @extend_schema(summary="My games: running and open (waiting for me first), or finished with ?finished=1",
                   responses=OpenApiTypes.OBJECT)
    def get(self, request):
        if request.query_params.get("finished") in ("1", "true"):
            games = selectors.tables_of_user(user=request.user, finished=True).order_by("-finished_at")[:200]
        else:
            games = selectors.games_of_user_sorted(user=request.user)
        return Response({"results": [selectors.table_summary(g, request.user) for g in games]})


class TableDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="table_detail", summary="A table and the game as I see it, with my legal actions", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(selectors.table_detail(game, request.user))


class LegalActionsView(APIView):
    @extend_schema(summary="My legal actions now", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
        except ServiceError as exc:
            return error_response(exc)
        detail = selectors.table_detail(game, request.user)
        return Response({"version": game.version, "seat": detail["my_seat"], "my_turn": detail["my_turn"],
                         "undoable": detail["undoable"], "actions": detail["legal_actions"]})


class ActionsView(APIView):
    @extend_schema(summary="The action log, as I may read it", responses={200: OpenApiTypes.OBJECT, **ERRORS},
                   parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="Only entries after this seq.")])
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
            after = int(request.query_params.get("after", 0))
        except ServiceError as exc:
            return error_response(exc)
        except ValueError:
            return Response({"error": "bad_request", "detail": "'after' must be a whole number."}, status=400)
        return Response({"version": game.version, "results": selectors.action_log(game, request.user, after=after)})

    @extend_schema(summary="Submit an action", request=ActionIn, parameters=[IDEMPOTENCY],
                   responses={200: OpenApiTypes.OBJECT, 422: OpenApiResponse(description="Idempotency-Key reused."),
                              **ERRORS})
    def post(self, request, pk: int):
        body = ActionIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data

        def handler():
            try:
                result = services.action_submit(game_id=pk, user=request.user, action=d["action"],
                                                expected_version=d["expected_version"], seat=d.get("seat"))
            except StaleVersion as exc:
                # Say what the game looks like now, so the client can decide again.
                game = Game.objects.select_related("created_by").get(pk=pk)
                exc.extra["game"] = selectors.table_detail(game, request.user)
                raise
            return Response({"seq": result.action.seq, "description": result.action.description,
                             **selectors.table_detail(result.game, request.user)})

        return idempotent(request, _lock(pk), handler)


def _table_write(service, serializer=None, summary=""):
    """A POST endpoint that calls one table service and answers with the table as I see it."""

    class View(APIView):
        @extend_schema(summary=summary, request=serializer, parameters=[IDEMPOTENCY],
                       responses={200: OpenApiTypes.OBJECT, **ERRORS})
        def post(self, request, pk: int):
            data = {}
            if serializer is not None:
                body = serializer(data=request.data)
                body.is_valid(raise_exception=True)
                data = body.validated_data

            def handler():
                service(user=request.user, game_id=pk, **data)
                return _detail(pk, request)

            return idempotent(request, _lock(pk), handler)

    View.__name__ = f"{service.__name__.title().replace('_', '')}View"
    return View


JoinView = _table_write(services.game_join, JoinIn, "Take a free seat")
LeaveView = _table_write(services.game_leave, None, "Leave a table that has not started")
AddBotView = _table_write(services.game_add_bot, BotIn, "Seat a bot (the table's creator)")
StartView = _table_write(services.game_start, StartIn, "Start the game (the table's creator)")
AbortView = _table_write(services.game_abort, None, "Abort a table, or a game nobody has moved in")
InviteView = _table_write(services.game_invite, InviteIn, "Invite a player by name")


class ResignView(APIView):
    @extend_schema(summary="Resign: your seat loses and a bot finishes it", request=None, parameters=[IDEMPOTENCY],
                   responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def post(self, request, pk: int):
        def handler():
            services.game_resign(user=request.user, game_id=pk)
            return _detail(pk, request)

        return idempotent(request, _lock(pk), handler)
