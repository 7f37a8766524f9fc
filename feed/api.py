"""The event feed in the API: `GET /api/events/?after=` (pages by cursor) and the two streams.

Under an ASGI server the stream paths are answered by feed.asgi before Django; these views
serve them under WSGI (runserver, gunicorn's threads, the tests' live server), a thread per stream.
"""

from __future__ import annotations

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from games.api.errors import error_response
from games.api.responses import error
from games.errors import BadRequest, ServiceError

from . import opening
from .models import Event
from .selectors import PAGE_MAX, event_public, events_page
from .stream import HEADERS, run_sync


class Unavailable(ServiceError):
    status_code, code = 503, "unavailable"


class EventDataOut(serializers.Serializer):
    # Every event about one table has these five; an opponent's vacation (about several) has `tables` instead.
    table = serializers.IntegerField(required=False, help_text="The table's id (not in vacation).")
    game = serializers.CharField(required=False, help_text="The game's name (GET /api/catalogue/).")
    version = serializers.IntegerField(required=False, help_text="The game's version when the event was written.")
    status = serializers.CharField(required=False, help_text="open, running, finished or aborted.")
    to_act = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="The seats whose decision it is."
    )
    invitee = serializers.CharField(required=False, help_text="answered: who answered your invitation.")
    answer = serializers.ChoiceField(
        choices=["accepted", "declined"], required=False, help_text="answered: her answer."
    )
    user = serializers.CharField(required=False, help_text="vacation: the opponent on vacation.")
    event = serializers.ChoiceField(
        choices=["started", "ended"], required=False, help_text="vacation: whether it started or ended."
    )
    until = serializers.DateTimeField(
        required=False, allow_null=True, help_text="vacation: its planned end (when it started)."
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="vacation: the running correspondence tables you share with her.",
    )
    seat = serializers.IntegerField(required=False, help_text="your_turn: your seat.")
    turn_began = serializers.IntegerField(required=False, help_text="your_turn: the version the turn began at.")
    invited_by = serializers.CharField(required=False, help_text="invited: who invited you.")
    message = serializers.IntegerField(
        required=False, help_text="chat: the message's id (read it with GET /api/tables/{table}/chat/)."
    )
    author = serializers.CharField(required=False, help_text="chat: who wrote it.")
    spectator = serializers.BooleanField(
        required=False, help_text="chat: written by a spectator (told to the players once the game is over)."
    )


class EventOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="Increases with every event: the cursor to resume after.")
    kind = serializers.ChoiceField(choices=Event.Kind.choices)
    table = serializers.IntegerField(allow_null=True)
    created = serializers.DateTimeField()
    data = EventDataOut()


class EventPageOut(serializers.Serializer):
    results = EventOut(many=True)
    cursor = serializers.IntegerField(help_text="Pass as `after` for the next page (and to the stream) to resume.")
    more = serializers.BooleanField(help_text="True if more events are waiting after this page.")


AFTER = OpenApiParameter(
    "after", {"type": "integer", "minimum": 0}, description="Only events after this id (0: all that are kept)."
)
STREAM_DESCRIPTION = (
    "Server-sent events (`text/event-stream`). Each event has `id:` (the feed cursor), `event:` (its kind) and "
    "`data:` (the same JSON as one result of `GET /api/events/`). A comment line comes every 15 s while nothing "
    "happens. Resume after a disconnect with `Last-Event-ID` (browsers send it themselves) or `?after=`; without "
    "either the stream starts with what happens next. Under an ASGI server (uvicorn) an open stream holds no "
    "thread; with REDIS_URL set it is woken through Redis pub/sub, so it works with several web processes. "
    "A stream opened with an API token ends within seconds of the token being revoked or expiring, or its account "
    "being closed (a reconnection is then answered 401)."
)


class EventStreamRenderer(renderers.BaseRenderer):
    """Lets `Accept: text/event-stream` (what EventSource sends) through content negotiation; refusals stay JSON."""

    media_type, format, charset = "text/event-stream", "sse", "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return renderers.JSONRenderer().render(data)


def _stream(feed):
    if not settings.TOPOS_WSGI_STREAMS:
        return error_response(
            Unavailable(
                _(
                    "This server does not stream events: it runs without ASGI. Read "
                    "GET /api/events/?after= instead, or run the site under uvicorn."
                )
            )
        )
    response = StreamingHttpResponse(run_sync(feed), content_type=HEADERS["Content-Type"])
    for name, value in HEADERS.items():
        response[name] = value
    return response


def _token(request):
    """The API token the stream was opened with (accounts.authentication), else None (a session)."""
    return request.auth if isinstance(request.auth, ApiToken) else None


class _StreamView(APIView):
    renderer_classes = [EventStreamRenderer, renderers.JSONRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response):  # a refusal (400, 401, 404): JSON, whatever the client accepts
            response.content_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


class EventListView(APIView):
    @extend_schema(
        operation_id="events_list",
        summary="My events after a cursor, oldest first",
        description="Your turn, a move at one of your tables, invited, a table started, a game over, a "
        "chat message at one of your tables (`chat`), an answer to your invitation (`answered`), an opponent's "
        "vacation started or ended (`vacation`). "
        "Events are kept a limited time (TOPOS_EVENTS_RETENTION_DAYS, 14 days by default).",
        parameters=[
            AFTER,
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": PAGE_MAX},
                description=f"At most this many (1-{PAGE_MAX}, default 100).",
            ),
        ],
        responses={200: EventPageOut, 400: error(400)},
    )
    def get(self, request):
        try:
            after = opening.cursor_from(request.query_params, None) or 0
            text = request.query_params.get("limit")
            limit = 100 if text is None else int(text)
            if not 1 <= limit <= PAGE_MAX:
                raise ValueError
        except ServiceError as exc:
            return error_response(exc)
        except ValueError:
            return error_response(
                BadRequest(_("'limit' must be a whole number from 1 to %(max)d.") % {"max": PAGE_MAX})
            )
        page, more = events_page(user_id=request.user.pk, after=after, limit=limit)
        return Response(
            {"results": [event_public(e) for e in page], "cursor": page[-1].id if page else after, "more": more}
        )


class EventStreamView(_StreamView):
    @extend_schema(
        operation_id="events_stream",
        summary="My events as they happen (server-sent events)",
        description=STREAM_DESCRIPTION,
        parameters=[AFTER],
        responses={
            (200, "text/event-stream"): OpenApiResponse(OpenApiTypes.STR, description="The stream."),
            400: error(400),
            503: error(503),
        },
    )
    def get(self, request):
        try:
            feed = opening.user_feed(
                request.user, request.query_params, request.headers.get("Last-Event-ID"), token=_token(request)
            )
            return _stream(feed)
        except ServiceError as exc:
            return error_response(exc)


class TableStreamView(_StreamView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="table_stream",
        summary="A table's changes as they happen (server-sent events)",
        description="An event `table` with the table's `version`, `status` and `stamp` at once and "
        "after every change (a move, a join, the start, the end): public facts only, for the "
        "table's page and spectators, who then read the table. Then an event `chat` with "
        "`table` and `stamp` at once and whenever the chat as you read it changes (a new or "
        "deleted message): read the messages with GET /api/tables/{id}/chat/. Anyone who may "
        "see the "
        "table may follow it (a private one: its players, the invited, or `?code=`).",
        parameters=[OpenApiParameter("code", OpenApiTypes.STR, description="A private table's invite code.")],
        responses={
            (200, "text/event-stream"): OpenApiResponse(OpenApiTypes.STR, description="The stream."),
            404: error(404),
            503: error(503),
        },
    )
    def get(self, request, pk: int):
        try:
            return _stream(opening.table_feed(request.user, pk, request.query_params.get("code", ""), _token(request)))
        except ServiceError as exc:
            return error_response(exc)
