"""The sandbox API (decision 29, point 1): fork a table as my seat sees it, play any seat, take back, branch, ask a
bot, delete.  Private: another person's sandbox is answered 404.  Writes are limited per account
(TOPOS_API_RATE_SANDBOX, 429 with Retry-After) on top of the account's rate."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from engine.bots import levels as bot_levels
from games.api.errors import error_response
from games.api.responses import ActionObjectField, GameViewField, errors
from games.api.throttles import _RatesFromSettings
from games.errors import ServiceError
from games.selectors import visible_games
from games.services.table_access import table_not_found

from . import selectors, services


class SandboxThrottle(_RatesFromSettings, UserRateThrottle):
    """Sandbox writes per account (each one replays and samples games): TOPOS_API_RATE_SANDBOX."""

    scope = "sandbox"

    def get_rate(self):
        return settings.TOPOS_SANDBOX_RATE


class _Base(APIView):
    def get_throttles(self):
        extra = [SandboxThrottle()] if self.request.method in ("POST", "DELETE") else []
        return [*super().get_throttles(), *extra]


# --- shapes ------------------------------------------------------------------------------------------------------


class SandboxCreateIn(serializers.Serializer):
    seat = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=7,
        help_text="The seat whose view is sampled: yours while the game runs (the default); any seat of a finished "
        "game.",
    )
    ply = serializers.IntegerField(
        required=False, min_value=0, max_value=100000, help_text="The ply to fork at (default: the latest)."
    )


class SandboxMoveIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=7, help_text="The seat that plays it (any seat).")
    action = ActionObjectField(help_text="The action, as listed in `legal_actions` for that seat.")


class SandboxGotoIn(serializers.Serializer):
    node = serializers.IntegerField(min_value=0, max_value=100000, help_text="The point to go to (0: the fork).")


class SandboxBotIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=7, help_text="The seat the bot answers for.")
    level = serializers.ChoiceField(
        choices=sorted(bot_levels()), default="greedy", help_text="The bot's level (as at a table)."
    )


class SandboxSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The real table it was forked from (which it never changes).")
    game = serializers.CharField(help_text="The game's registry name.")
    seat = serializers.IntegerField(help_text="The seat whose view the hidden parts were sampled from.")
    ply = serializers.IntegerField(help_text="The real game's ply it was forked at.")
    moves = serializers.IntegerField(help_text="Moves played in it, every line counted.")
    created_at = serializers.DateTimeField()
    used_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="Deleted then unless used again.")


class SandboxNodeOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The point's number; 0 is the fork.")
    parent = serializers.IntegerField(allow_null=True, help_text="The point it was played from; null for the fork.")
    seat = serializers.IntegerField(allow_null=True, help_text="Who played it; null for the fork.")
    action = ActionObjectField(allow_null=True, help_text="What was played; null for the fork.")
    by = serializers.ChoiceField(choices=["start", "me", "bot"], help_text="Played by you, or by a bot you asked.")
    words = serializers.CharField(help_text="The move in words, in your language.")


class SandboxBotOut(serializers.Serializer):
    seat = serializers.IntegerField()
    level = serializers.CharField()


class SandboxResultOut(serializers.Serializer):
    seat = serializers.IntegerField()
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    detail = serializers.DictField(help_text="The game's own detail of the score.")
    tie_break = serializers.CharField(allow_null=True)


class SandboxOut(SandboxSummaryOut):
    current = serializers.IntegerField(help_text="The point shown now.")
    path = serializers.ListField(child=serializers.IntegerField(), help_text="The points from the fork to `current`.")
    shown_seat = serializers.IntegerField(help_text="The seat whose view `view` is (?seat= chooses it).")
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="The seats to decide now.")
    over = serializers.BooleanField(help_text="This line reached the end of the game.")
    view = GameViewField(help_text="The sampled position as `shown_seat` sees it.")
    legal_actions = serializers.ListField(child=ActionObjectField(), help_text="What `shown_seat` may play now.")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="Each seat's score now.")
    # Not `results`: in this API that names a page of a list (tests/api/test_list_pages.py); this is one sandbox.
    places = SandboxResultOut(many=True, allow_null=True, help_text="The places when the line is over; else null.")
    bot = SandboxBotOut(allow_null=True, help_text="A bot answer asked for and not played yet; else null.")
    max_moves = serializers.IntegerField(help_text="The most moves one sandbox holds.")
    nodes = SandboxNodeOut(many=True, help_text="The tree of every line played here.")


def _answer(request, sandbox, status: int = 200) -> Response:
    try:
        seat = int(request.query_params.get("seat", ""))
    except ValueError:
        seat = None
    return Response(selectors.sandbox_answer(sandbox, seat), status=status)


SEAT_PARAM = OpenApiParameter("seat", int, description="The seat whose view to show (default: a seat to decide).")


# --- views -------------------------------------------------------------------------------------------------------


class TableSandboxesView(_Base):
    @extend_schema(
        operation_id="table_sandboxes",
        summary="My sandboxes of this table",
        responses={200: SandboxSummaryOut(many=True), **errors(404)},
    )
    def get(self, request, pk: int):
        game = visible_games(request.user).filter(pk=pk).first()
        if game is None:
            return error_response(table_not_found(pk))
        return Response([selectors.sandbox_summary(s) for s in selectors.sandboxes_of(request.user, game)])

    @extend_schema(
        operation_id="table_sandbox_create",
        summary="Fork this table into a sandbox of mine, the hidden parts sampled from my seat's view",
        request=SandboxCreateIn,
        responses={
            201: SandboxOut,
            **errors(
                400,
                403,
                404,
                409,
                s403="A running game and you do not play at it, or you asked for another seat's view while it runs.",
                s404="No such table you may see, no such ply, or a ply inside another seat's unconfirmed turn.",
                s409="The table is not running nor finished, or you keep the most sandboxes one person may.",
            ),
        },
    )
    def post(self, request, pk: int):
        data = SandboxCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        game = (
            visible_games(request.user).filter(pk=pk).prefetch_related("seats__user").first()
            if request.user.is_authenticated
            else None
        )
        try:
            if game is None:
                raise table_not_found(pk)
            sandbox = services.sandbox_create(user=request.user, game=game, **data.validated_data)
        except ServiceError as exc:
            return error_response(exc)
        return _answer(request, selectors.sandbox_of(request.user, sandbox.pk), 201)


class SandboxView(_Base):
    @extend_schema(
        operation_id="sandbox",
        summary="One of my sandboxes: the position, what may be played, the scores and the tree of lines",
        parameters=[SEAT_PARAM],
        responses={200: SandboxOut, **errors(404, s404="No such sandbox of yours.")},
    )
    def get(self, request, pk: int):
        try:
            return _answer(request, selectors.sandbox_of(request.user, pk))
        except ServiceError as exc:
            return error_response(exc)

    @extend_schema(
        operation_id="sandbox_delete",
        summary="Delete one of my sandboxes",
        responses={204: None, **errors(400, 403, 404, s404="No such sandbox of yours.")},
    )
    def delete(self, request, pk: int):
        try:
            services.sandbox_delete(user=request.user, sandbox_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)


def _write(request, pk: int, do, status: int = 200) -> Response:
    try:
        do()
        return _answer(request, selectors.sandbox_of(request.user, pk), status)
    except ServiceError as exc:
        return error_response(exc)


class SandboxMovesView(_Base):
    @extend_schema(
        operation_id="sandbox_move",
        summary="Play a move for any seat at the sandbox's current point (a new line if it differs)",
        parameters=[SEAT_PARAM],
        request=SandboxMoveIn,
        responses={
            200: SandboxOut,
            **errors(
                400,
                403,
                404,
                409,
                s400="Malformed, or not legal for that seat now (`reason`, `params`).",
                s404="No such sandbox of yours.",
                s409="The line is over, or the sandbox holds its most moves.",
            ),
        },
    )
    def post(self, request, pk: int):
        data = SandboxMoveIn(data=request.data)
        data.is_valid(raise_exception=True)
        return _write(
            request,
            pk,
            lambda: services.sandbox_move(user=request.user, sandbox_id=pk, **data.validated_data),
        )


class SandboxUndoView(_Base):
    @extend_schema(
        operation_id="sandbox_undo",
        summary="Take back the last move of the current line (it stays in the tree)",
        parameters=[SEAT_PARAM],
        request=None,
        responses={
            200: SandboxOut,
            **errors(400, 403, 404, 409, s404="No such sandbox of yours.", s409="Already at the fork."),
        },
    )
    def post(self, request, pk: int):
        return _write(request, pk, lambda: services.sandbox_undo(user=request.user, sandbox_id=pk))


class SandboxGotoView(_Base):
    @extend_schema(
        operation_id="sandbox_goto",
        summary="Go to any point of the tree, to play another line from there",
        parameters=[SEAT_PARAM],
        request=SandboxGotoIn,
        responses={200: SandboxOut, **errors(400, 403, 404, s404="No such sandbox of yours, or no such point.")},
    )
    def post(self, request, pk: int):
        data = SandboxGotoIn(data=request.data)
        data.is_valid(raise_exception=True)
        return _write(
            request, pk, lambda: services.sandbox_goto(user=request.user, sandbox_id=pk, **data.validated_data)
        )


class SandboxBotView(_Base):
    @extend_schema(
        operation_id="sandbox_bot",
        summary="Ask the site's bot to answer for a seat; a worker plays it soon after (GET the sandbox to see it)",
        parameters=[SEAT_PARAM],
        request=SandboxBotIn,
        responses={
            202: SandboxOut,
            **errors(
                400, 403, 404, 409, s404="No such sandbox of yours.", s409="That seat has nothing to decide here."
            ),
        },
    )
    def post(self, request, pk: int):
        data = SandboxBotIn(data=request.data)
        data.is_valid(raise_exception=True)
        return _write(
            request,
            pk,
            lambda: services.sandbox_bot_ask(user=request.user, sandbox_id=pk, **data.validated_data),
            202,
        )
