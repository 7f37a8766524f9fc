"""The REST API: everything a browser can do, for apps, scripts and outside bots."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import limits
from engine.bots import levels as bot_levels
from engine.core import all_games

from .. import hooks, selectors, services
from ..engine_texts import bot_level_description, engine_text, game_title
from ..errors import BadRequest, Conflict, ServiceError, StaleVersion
from ..log_words import entry_words, seat_names
from ..models import Game
from ..selectors import lobby, replay
from ..selectors.export import game_export
from ..services.table_access import game_lock_for, table_not_found
from ..views.rules import rules_url
from .errors import error_response
from .idempotency import HEADER, idempotent
from .pagination import LogPages, TableFilters, TablePages, UrgencyPages, cursor_parameters
from .responses import (
    ActionResultOut,
    CatalogueOut,
    ExportOut,
    LegalActionsOut,
    LogPageOut,
    PositionOut,
    TableDetailOut,
    TablePageOut,
    error,
    errors,
)
from .serializers import (
    AbortAgreeIn,
    ActionIn,
    BotIn,
    InviteIn,
    JoinIn,
    LogFilters,
    StartIn,
    TableCreateIn,
    table_choices,
)
from .throttles import MoveBurstThrottle, throttle_waits

# 1 to 200 characters, not all spaces (games.api.idempotency refuses anything else with 400).
IDEMPOTENCY = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"\S"},
    OpenApiParameter.HEADER,
    required=False,
    description="Retries with the same key return the first answer and apply nothing twice "
    f"(answers are kept {settings.TOPOS_IDEMPOTENCY_RETENTION_HOURS} hours). "
    "1 to 200 characters, not only spaces. The same key with a different "
    "request is refused with 422.",
)
ERRORS = errors(
    400,
    403,
    404,
    409,
    s400="Malformed body or illegal action; `detail` says why.",
    s403="Not your seat or table.",
    s404="No such table.",
    s409="Stale version (`stale_version`, with the table as it is now) or a table in the wrong state.",
)
READ_ERRORS = errors(404, s404="No such table, or a private one you may not see.")
LIMITED = errors(
    429,
    s429="Too many requests, or a limit on abuse ran out (e.g. too many invitations in an hour): "
    "`Retry-After` says in how many seconds to try again.",
)


def _visible(request, pk: int) -> Game:
    # Seats and their players read once: a table's answer looks at them many times (decision 16).
    game = (
        selectors.visible_games(request.user)
        .filter(pk=pk)
        .select_related("created_by")
        .prefetch_related(selectors.SEATS_WITH_PLAYERS)
        .first()
    )
    if game is None:
        raise table_not_found(pk)
    return game


def _lock(request, pk: int):
    """Lock the table before an idempotent write, refusing one she may not see like one that does not exist
    (before anything is recorded, so even a retried key cannot tell them apart)."""

    def lock():
        data = request.data if isinstance(request.data, dict) else {}
        game_lock_for(request.user, pk, invite_code=str(data.get("invite_code") or ""))

    return lock


def _lock_user(request):
    # Not type(request.user): under session authentication that is Django's SimpleLazyObject.
    def lock():
        get_user_model().objects.select_for_update(no_key=True).filter(pk=request.user.pk).exists()

    return lock


def _detail(pk: int, request, status: int = 200) -> Response:
    game = Game.objects.select_related("created_by").get(pk=pk)
    return Response(selectors.table_detail(game, request.user), status=status)


class CatalogueView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="catalogue",
        summary="The games, their player counts and options, and the bot levels",
        responses={200: CatalogueOut},
    )
    def get(self, request):
        strengths = hooks.bot_level_ratings.merged()  # ratings' calibration (games.hooks)
        return Response(
            {
                "games": [
                    {**_in_her_words(g.metadata()), "rules_url": request.build_absolute_uri(rules_url(name))}
                    for name, g in sorted(all_games().items())
                ],  # decision 13: words in the reader's language
                "bot_levels": {
                    name: {
                        "label": engine_text(lvl.get("label", name)),
                        "description": bot_level_description(name),
                        "ratings": strengths.get(name, {}),
                    }
                    for name, lvl in bot_levels().items()
                },
            }
        )


def _in_her_words(metadata: dict) -> dict:
    """A game's catalogue entry with its name and its options' labels and help in the reader's language (the
    engine names them in the catalogue's source language; games.engine_texts holds their translations)."""
    options = [
        {**option, "label": engine_text(option.get("label", "")), "help": engine_text(option.get("help", ""))}
        for option in metadata.get("options", [])
    ]
    return {**metadata, "title": game_title(metadata.get("title", "")), "options": options}


TABLE_PAGE = TablePageOut
BAD_FILTER = error(
    400, "A filter, cursor or page size that is not valid; `detail` says which (`fields` names the parameter)."
)


def _table_page(request, view, queryset, filters: TableFilters, pages_class=TablePages) -> Response:
    filters.is_valid(raise_exception=True)
    pages = pages_class()
    games = pages.paginate_queryset(filters.filter(queryset), request, view=view)
    return pages.get_paginated_response(selectors.table_summaries(games, request.user))


class TableListView(APIView):
    @extend_schema(
        operation_id="tables_list_open",
        summary="Tables anyone may look at (open ones unless `status` says otherwise), newest first, a page at a time",
        parameters=[TableFilters, *cursor_parameters(TablePages)],
        responses={200: TABLE_PAGE, 400: BAD_FILTER},
    )
    def get(self, request):
        filters = TableFilters(data={"status": Game.Status.OPEN, **request.query_params.dict()})
        # Decision 17: an open table without a free seat is never listed (games.selectors.lobby); ruling S7: nor one
        # where someone sits who has a block with her.
        return _table_page(request, self, lobby.tables_listed(request.user), filters)

    @extend_schema(
        operation_id="tables_create",
        summary="Open a table",
        request=TableCreateIn,
        parameters=[IDEMPOTENCY],
        responses={201: TableDetailOut, **ERRORS},
    )
    def post(self, request):
        body = TableCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data

        def handler():
            game = services.game_create(user=request.user, **table_choices(d))
            return _detail(game.pk, request, status=201)

        return idempotent(request, _lock_user(request), handler)


class MyTablesView(APIView):
    @extend_schema(
        operation_id="tables_mine",
        summary="The tables I sit at, the most urgent first, a page at a time; ?finished=1 for finished and "
        "aborted ones only",
        description="In this order: those waiting for me (`my_turn`), the soonest deadline first (`my_deadline`, "
        "`my_seconds_left`), then those whose clock my vacation stops; then running tables waiting for others; "
        "then open tables; then finished and aborted ones; the newest first among equals. A table moves in this "
        "order when a turn passes, so a table may show on two pages, or on none, of a walk across a change.",
        parameters=[
            TableFilters,
            *cursor_parameters(UrgencyPages),
            OpenApiParameter(
                "finished",
                OpenApiTypes.BOOL,
                description="Only finished and aborted tables (true), or only open and running ones (false).",
            ),
        ],
        responses={200: TABLE_PAGE, 400: BAD_FILTER},
    )
    def get(self, request):
        text = request.query_params.get("finished")
        finished = {"1": True, "true": True, "0": False, "false": False}.get(text)
        if text is not None and finished is None:
            return error_response(BadRequest(_("finished must be true or false (or 1 or 0)."), field="finished"))
        games = selectors.tables_of_user_by_urgency(user=request.user, finished=finished)
        return _table_page(request, self, games, TableFilters(data=request.query_params.dict()), UrgencyPages)


class TableDetailView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="table_detail",
        summary="A table and the game as I see it, with my legal actions",
        responses={200: TableDetailOut, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(selectors.table_detail(game, request.user))


class ExportView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="table_export",
        summary="A finished game to verify: seed, commitment, whole log, result",
        description="Run `python -m engine.verify export.json` on the answer (ruling G0.2). A game still "
        "running answers 409: its seed is not public; an aborted one answers 409 saying why it has no result "
        "(e.g. a seat resigned before every seat had played, ruling S1).",
        responses={
            200: ExportOut,
            **READ_ERRORS,
            **errors(409, s409="The game is not finished: its seed is still secret."),
        },
    )
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
        except ServiceError as exc:
            return error_response(exc)
        if game.status == Game.Status.ABORTED:
            # No result to verify; say why it has none (ruling S1, turn 3), in the words of the table's page.
            why = selectors.aborted_summary(game)["words"]
            return error_response(
                Conflict(_("This game was aborted, so it has no result to export. %(why)s") % {"why": why})
            )
        if game.status != Game.Status.FINISHED:
            return error_response(
                Conflict(
                    _(
                        "Only a finished game can be exported: its seed stays secret until the "
                        "end. Its commitment is in the table's details."
                    )
                )
            )
        return Response(game_export(game))


class LegalActionsView(APIView):
    @extend_schema(
        operation_id="table_legal_actions",
        summary="My legal actions now",
        responses={200: LegalActionsOut, **READ_ERRORS},
    )
    def get(self, request, pk: int):
        # Only the actions and what they need, read in one query: the whole table detail cost a view and a
        # summary, and the seats with their players a second query (decision 16).
        game = selectors.legal_game(request.user, pk)
        if game is None:
            return error_response(table_not_found(pk))
        return Response(selectors.legal_actions_of(game, game.my_seat, left=bool(game.my_seat_left)))


class PositionView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="table_position",
        summary="The game at one ply (0: the start): every seat's view once finished; while running the "
        "spectator's and my own, never inside another seat's unconfirmed turn",
        responses={
            200: PositionOut,
            **errors(
                404,
                s404="No such table, a table not running nor finished, no such ply, or a ply inside "
                "another seat's unconfirmed turn.",
            ),
        },
    )
    def get(self, request, pk: int, ply: int):
        try:
            game = _visible(request, pk)
            user = request.user if request.user.is_authenticated else None
            return Response(replay.position_views(game, ply, selectors.seat_of(game, user)))
        except ServiceError as exc:
            return error_response(exc)


def plainly_valid_action(data) -> dict | None:
    """ActionIn's validated data for a JSON body it takes as it is (an action object with a text "type", whole
    numbers at least 0), without building the serializer: a third of a move's checks before the service (decision
    28).  None for anything else, which ActionIn judges (tests/api/test_action_body.py holds them to the same)."""
    if type(data) is not dict:
        return None
    action, version = data.get("action"), data.get("expected_version")
    if type(action) is not dict or not isinstance(action.get("type"), str):
        return None
    if type(version) is not int or version < 0:
        return None
    body = {"action": action, "expected_version": version}
    if "seat" in data:
        if type(data["seat"]) is not int or data["seat"] < 0:
            return None
        body["seat"] = data["seat"]
    return body


class ActionsView(APIView):
    @extend_schema(
        operation_id="table_log",
        summary="The action log, as I may read it, in its order, a page at a time",
        parameters=[LogFilters, *cursor_parameters(LogPages)],
        responses={
            200: LogPageOut,
            **errors(
                400,
                404,
                s400="A filter, cursor or page size that is not valid; `detail` says which.",
                s404="No such table, or a private one you may not see.",
            ),
        },
    )
    def get(self, request, pk: int):
        try:
            game = _visible(request, pk)
        except ServiceError as exc:
            return error_response(exc)
        filters = LogFilters(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        pages = LogPages()
        rows = pages.paginate_queryset(
            selectors.action_log_rows(game, request.user, **filters.validated_data), request, view=self
        )
        response = pages.get_paginated_response(selectors.action_log_entries(game, rows, request.user))
        response.data = {"version": game.version, **response.data}
        return response

    def get_throttles(self):
        # Moves have a burst limit of their own on top of the account's rate.
        burst = [MoveBurstThrottle()] if self.request.method == "POST" else []
        return [*super().get_throttles(), *burst]

    def check_throttles(self, request):
        # As DRF's, the windows kept in Redis asked in one round trip (games.api.throttles, decision 28).
        waits = throttle_waits(request, self, self.get_throttles())
        if waits:
            self.throttled(request, max((wait for wait in waits if wait is not None), default=None))

    @extend_schema(
        operation_id="table_act",
        summary="Submit an action",
        request=ActionIn,
        parameters=[IDEMPOTENCY],
        responses={200: ActionResultOut, **ERRORS, **errors(422)},
    )
    def post(self, request, pk: int):
        d = plainly_valid_action(request.data)
        if d is None:  # anything else is judged, and refused in its words, by the serializer
            body = ActionIn(data=request.data)
            body.is_valid(raise_exception=True)
            d = body.validated_data

        def handler():
            try:
                result = services.action_submit(
                    game_id=pk,
                    user=request.user,
                    action=d["action"],
                    expected_version=d["expected_version"],
                    seat=d.get("seat"),
                )
            except StaleVersion as exc:
                # Say what the game looks like now, so the client can decide again.
                game = Game.objects.select_related("created_by").get(pk=pk)
                exc.extra["game"] = selectors.table_detail(game, request.user)
                raise
            names = seat_names(result.game)
            # Built from the game and state the move left in hand, not read again (decision 16).
            return Response(
                {
                    "seq": result.action.seq,
                    "entry": result.action.entry,
                    "description": entry_words(result.game.kind, result.action.entry, names),
                    **selectors.table_detail(result.game, request.user, state=result.state, written=result.written),
                }
            )

        return idempotent(request, _lock(request, pk), handler)


def _table_write(service, serializer=None, summary="", *, limited=False):
    """A POST endpoint that calls one table service and answers with the table as I see it.

    `limited`: the service counts uses per client address (accounts.limits) and may answer 429.
    """
    responses = {200: TableDetailOut, **ERRORS, **(LIMITED if limited else {})}
    operation_id = "table_" + service.__name__.removeprefix("game_")

    class View(APIView):
        @extend_schema(
            operation_id=operation_id,
            summary=summary,
            request=serializer,
            parameters=[IDEMPOTENCY],
            responses=responses,
        )
        def post(self, request, pk: int):
            data = {}
            if serializer is not None:
                body = serializer(data=request.data)
                body.is_valid(raise_exception=True)
                data = body.validated_data
            if limited:
                data = {**data, "client_address": limits.client_address(request)}

            def handler():
                service(user=request.user, game_id=pk, **data)
                return _detail(pk, request)

            return idempotent(request, _lock(request, pk), handler)

    View.__name__ = f"{service.__name__.title().replace('_', '')}View"
    return View


JoinView = _table_write(services.game_join, JoinIn, "Take a free seat")
LeaveView = _table_write(services.game_leave, None, "Leave a table that has not started")
AddBotView = _table_write(services.game_add_bot, BotIn, "Seat a bot (the table's creator)")
StartView = _table_write(services.game_start, StartIn, "Start the game (the table's creator)")
AbortView = _table_write(
    services.game_abort,
    None,
    "Close a table that has not started; a running game only alone against bots before any "
    "action (otherwise agree to abort, or resign)",
)
AbortAgreementView = _table_write(
    services.game_abort_agree,
    AbortAgreeIn,
    "Agree to abort a running game (it ends with no result once every person still "
    "playing agrees at the same version); agree=false takes it back",
)
InviteView = _table_write(services.game_invite, InviteIn, "Invite a player by name", limited=True)


class ResignView(APIView):
    @extend_schema(
        operation_id="table_resign",
        summary="Resign: your seat loses and a bot finishes it",
        description="Ruling S1: the seat counts as lost and the site's bot plays it to the end; with nobody left to "
        "play against the game ends. Before every seat has completed a turn of its own (a turn the bot played "
        "for a missed deadline does not count), resigning aborts the game instead: `status` is `aborted`, "
        "`aborted.reason` is `resigned`, nobody is ranked or rated, and everyone seated is told.",
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: TableDetailOut, **ERRORS},
    )
    def post(self, request, pk: int):
        def handler():
            services.game_resign(user=request.user, game_id=pk)
            return _detail(pk, request)

        return idempotent(request, _lock(request, pk), handler)


class RematchView(APIView):
    @extend_schema(
        operation_id="table_rematch",
        summary="Rematch a finished game: a new table with the same game, options, pace and player count; "
        "you sit in seat 0, its bots are seated again and its other players invited",
        request=None,
        parameters=[IDEMPOTENCY],
        responses={201: TableDetailOut, **ERRORS, **LIMITED},
    )
    def post(self, request, pk: int):
        def handler():
            new = services.game_rematch(user=request.user, game_id=pk, client_address=limits.client_address(request))
            return _detail(new.pk, request, status=201)

        return idempotent(request, _lock(request, pk), handler)
