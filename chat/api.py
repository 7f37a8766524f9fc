"""The table chat in the API (decision 17, point 1): read and write a table's chat, delete one's own message,
report one, and mute players (account-wide).  Every write is a service of chat/services.py."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error_response
from games.api.fields import StrictCharField, StrictRegexField, player_name_field
from games.api.idempotency import idempotent
from games.api.own import NOT_LOGGED_IN
from games.api.pagination import NewestFirstPages, PageOut, cursor_parameters, page_answer
from games.api.parsers import LimitedJSONParser
from games.api.responses import error
from games.api.views import IDEMPOTENCY
from games.errors import BadRequest, ServiceError
from games.models import Game
from games.services.table_access import can_see, table_not_found

from . import selectors as chat
from . import services as services
from .models import ChatMessage, ChatReport

LIMITS = (
    f"At most {settings.TOPOS_CHAT_BURST[0]} messages in {settings.TOPOS_CHAT_BURST[1]} seconds and "
    f"{settings.TOPOS_CHAT_DAILY} a day per account (429 `chat_rate_limited` with `Retry-After`)."
)
WHO_SEES = (
    "Players (people seated at the table) read the players' messages; spectators read the players' and the "
    "spectators' (`spectator: true`). A spectator's message written while the game runs is kept from the "
    "players until it is over (finished or aborted), so nobody is coached; in the waiting room everybody "
    "reads everybody. Messages of players you muted are left out; a deleted message keeps its place with "
    "`deleted: true` and an empty `body`."
)


class ChatMessageOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increases with every message: the cursor to read on after.")
    table = serializers.IntegerField()
    author = serializers.CharField(help_text="The author's username.")
    spectator = serializers.BooleanField(help_text="Written by someone not seated at the table.")
    body = serializers.CharField(
        allow_blank=True, help_text="The text as written (plain text: escape it to show it); empty once deleted."
    )
    deleted = serializers.BooleanField(help_text="Deleted by its author or a moderator.")
    created = serializers.DateTimeField()
    mine = serializers.BooleanField(help_text="Written by you.")


class ChatPageOut(serializers.Serializer):
    results = ChatMessageOut(many=True)
    cursor = serializers.IntegerField(help_text="Pass as `after` to read the messages that come next.")
    more = serializers.BooleanField(help_text="True if more messages are waiting after this page.")


class ChatPostIn(serializers.Serializer):
    # Not only spaces (the pattern), at most BODY_MAX characters: what the service accepts, said in the schema.
    body = StrictRegexField(
        r"\S",
        max_length=ChatMessage.BODY_MAX,
        trim_whitespace=False,
        error_messages={"invalid": _lazy("Write something before sending.")},
        help_text=f"Plain text, at most {ChatMessage.BODY_MAX} characters, not only spaces "
        "(spaces around it are stripped).",
    )
    invite_code = StrictCharField(required=False, allow_blank=True, help_text="A private table's invite code.")


class ChatReportIn(serializers.Serializer):
    reason = serializers.ChoiceField(choices=ChatReport.Reason.choices, required=False, default=ChatReport.Reason.ABUSE)
    note = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=500, help_text="Anything the moderators should know."
    )
    invite_code = serializers.CharField(required=False, allow_blank=True, help_text="A private table's invite code.")


class ChatReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=ChatReport.Reason.choices)
    created = serializers.DateTimeField()


class MuteIn(serializers.Serializer):
    username = player_name_field(
        refusal=_lazy("Name the player to mute."), help_text="The player whose messages you no longer want to see."
    )


class MuteOut(serializers.Serializer):
    username = serializers.CharField()
    created = serializers.DateTimeField()


class MuteListOut(PageOut):
    results = MuteOut(many=True, help_text="Newest mute first.")


class MutePages(NewestFirstPages):
    """Her mutes, newest first."""


CODE = OpenApiParameter(
    "code", OpenApiTypes.STR, description="A private table's invite code (if you are neither seated nor invited)."
)
AFTER = OpenApiParameter(
    "after",
    {"type": "integer", "minimum": 0},
    description="Only messages after this id (0, the default: from the first).",
)
LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "maximum": chat.PAGE_MAX},
    description=f"At most this many (1-{chat.PAGE_MAX}, default {chat.PAGE_DEFAULT}).",
)
NOT_FOUND = error(404, "No table (or message) that you can see.")


def _code(request) -> str:
    data = request.data if isinstance(request.data, dict) else {}
    return str(data.get("invite_code") or request.query_params.get("code") or "")


def _game(request, pk: int) -> Game:
    game = Game.objects.prefetch_related("seats").filter(pk=pk).first()
    if game is None or not can_see(game, request.user, request.query_params.get("code", "")):
        raise table_not_found(pk)
    return game


def _lock_user(request):
    def lock():
        get_user_model().objects.select_for_update(no_key=True).filter(pk=request.user.pk).exists()

    return lock


class ChatView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    # JSON only: in a form every value is text, so a body that is not a string could not be refused as the schema
    # says (the page posts to its own view, /tables/{id}/chat/post/).
    parser_classes = [LimitedJSONParser]

    @extend_schema(
        operation_id="table_chat_list",
        summary="A table's chat as I may read it, oldest first",
        description=WHO_SEES + " Read on with `after` = the `cursor` of the last page; new messages are "
        "announced by the table's stream (`event: chat`, `/api/tables/{id}/stream/`) and, for "
        "players, by a `chat` event in `/api/events/`. Anyone who may see the table may read.",
        parameters=[AFTER, LIMIT, CODE],
        responses={200: ChatPageOut, 400: error(400), 404: NOT_FOUND},
    )
    def get(self, request, pk: int):
        try:
            game = _game(request, pk)
            try:
                after = int(request.query_params.get("after") or 0)
                limit = int(request.query_params.get("limit") or chat.PAGE_DEFAULT)
            except ValueError:
                after = limit = -1
            if after < 0:
                raise BadRequest(_("'after' must be a message id (a whole number, 0 or more)."))
            if not 1 <= limit <= chat.PAGE_MAX:
                raise BadRequest(_("'limit' must be a whole number from 1 to %(max)d.") % {"max": chat.PAGE_MAX})
        except ServiceError as exc:
            return error_response(exc)
        page, more = chat.messages_page(game, request.user, after=after, limit=limit)
        return Response(
            {
                "results": [chat.message_public(m, request.user) for m in page],
                "cursor": page[-1].pk if page else after,
                "more": more,
            }
        )

    @extend_schema(
        operation_id="table_chat_post",
        summary="Write in a table's chat",
        description="Anyone logged in who may see the table may write: a player (seated), or a spectator "
        "(anyone else), whose message the players read only once the game is over. " + LIMITS,
        request=ChatPostIn,
        parameters=[IDEMPOTENCY],
        responses={
            201: ChatMessageOut,
            400: error(400),
            401: NOT_LOGGED_IN,
            403: NOT_LOGGED_IN,
            404: NOT_FOUND,
            429: error(429),
        },
    )
    def post(self, request, pk: int):
        body = ChatPostIn(data=request.data)
        body.is_valid(raise_exception=True)

        def handler():
            message = services.chat_post(
                user=request.user, game_id=pk, body=body.validated_data["body"], invite_code=_code(request)
            )
            return Response(chat.message_public(message, request.user), status=201)

        return idempotent(request, _lock_user(request), handler)


class ChatMessageView(APIView):
    @extend_schema(
        operation_id="table_chat_delete",
        summary="Delete my own chat message",
        description='It keeps its place in the chat as "message deleted" (`deleted: true`, no `body`). '
        "Deleting it again changes nothing.",
        parameters=[CODE],
        responses={
            200: ChatMessageOut,
            401: NOT_LOGGED_IN,
            403: error(403, "Not your message (report it instead)."),
            404: NOT_FOUND,
        },
    )
    def delete(self, request, pk: int, message_id: int):
        try:
            message = services.chat_delete(
                user=request.user, game_id=pk, message_id=message_id, invite_code=_code(request)
            )
        except ServiceError as exc:
            return error_response(exc)
        return Response(chat.message_public(message, request.user))


class ChatReportView(APIView):
    @extend_schema(
        operation_id="table_chat_report",
        summary="Report a chat message to the moderators",
        description="Lands in the site's admin (chat reports), where a moderator may delete the message. "
        "Once per message and person.",
        request=ChatReportIn,
        parameters=[CODE],
        responses={
            201: ChatReportOut,
            400: error(400),
            401: NOT_LOGGED_IN,
            403: error(403, "Your own message."),
            404: NOT_FOUND,
            409: error(409, "You already reported it."),
        },
    )
    def post(self, request, pk: int, message_id: int):
        body = ChatReportIn(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            report = services.chat_report(
                user=request.user,
                game_id=pk,
                message_id=message_id,
                reason=body.validated_data["reason"],
                note=body.validated_data["note"],
                invite_code=_code(request),
            )
        except ServiceError as exc:
            return error_response(exc)
        return Response(
            {
                "id": report.pk,
                "message": report.message_id,
                "reason": report.reason,
                "created": report.created_at.isoformat(),
            },
            status=201,
        )


def _mute(mute) -> dict:
    return {"username": mute.muted.username, "created": mute.created_at.isoformat()}


class MutesView(APIView):
    @extend_schema(
        operation_id="me_mutes",
        summary="The players I muted",
        description="Their chat messages are hidden from you at every table. A page at a time.",
        parameters=cursor_parameters(MutePages),
        responses={200: MuteListOut, 400: error(400, "A cursor or page size that is not valid."), 401: NOT_LOGGED_IN},
    )
    def get(self, request):
        rows = chat.mutes_of_user(request.user).order_by()
        return Response(page_answer(MutePages, rows, request, self, lambda page: [_mute(m) for m in page]))

    @extend_schema(
        operation_id="me_mutes_add",
        summary="Mute a player in every table's chat",
        description="201 when new, 200 if you had muted her already.",
        request=MuteIn,
        responses={200: MuteOut, 201: MuteOut, 400: error(400), 401: NOT_LOGGED_IN, 404: error(404, "No such player.")},
    )
    def post(self, request):
        body = MuteIn(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            mute, created = services.chat_mute(user=request.user, username=body.validated_data["username"])
        except ServiceError as exc:
            return error_response(exc)
        return Response(_mute(mute), status=201 if created else 200)


class MuteView(APIView):
    @extend_schema(
        operation_id="me_mutes_remove",
        summary="Unmute a player",
        responses={204: None, 401: NOT_LOGGED_IN, 404: error(404, "No such player, or not muted.")},
    )
    def delete(self, request, username: str):
        try:
            services.chat_unmute(user=request.user, username=username)
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)
