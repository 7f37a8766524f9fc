"""/api/me/bot/ (make this account a bot account) and /api/invitations/ (list, accept, decline): decision 12."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.core import all_games

from ..errors import ServiceError
from ..models import Invitation
from ..selectors import lobby
from ..services.bot_accounts import account_make_bot
from ..services.invitations import invitation_accept, invitation_decline
from .errors import error_response
from .pagination import PageOut, _Pages, cursor_parameters, page_answer
from .responses import BotAccountOut, InvitationAcceptedOut, error, errors


class MakeBotView(APIView):
    @extend_schema(
        operation_id="me_bot",
        summary="Turn my account into a bot account (irreversible)",
        description="A bot account plays through the API only (the table pages refuse its moves), is "
        "shown with a BOT mark, and can be invited or challenged like anyone. There is no "
        "way back. Refused while you sit at an open or running table as a person.",
        request=None,
        responses={
            200: BotAccountOut,
            **errors(409, s409="Already a bot account, or you sit at an open or running table."),
        },
    )
    def post(self, request):
        try:
            user = account_make_bot(user=request.user)
        except ServiceError as exc:
            return error_response(exc)
        return Response({"username": user.username, "bot_account": True})


def _invitation(invitation: Invitation) -> dict:
    game = invitation.game
    return {
        "id": invitation.pk,
        "table": game.pk,
        "kind": game.kind,
        "players": game.players,
        "invited_by": invitation.invited_by.username,
        "created_by": game.created_by.username,
        "auto_start": game.auto_start,
        "free_seats": invitation.seats_free,
        "created_at": invitation.created_at.isoformat(),
    }


class InvitationPages(_Pages):
    ordering = ("created_at", "pk")  # oldest first: the one waiting longest comes first
    page_size = 50
    max_page_size = 200


class InvitationFilters(serializers.Serializer):
    game = serializers.ChoiceField(
        choices=sorted(all_games()), required=False, help_text="Only invitations to tables of this game."
    )
    players = serializers.IntegerField(
        min_value=1, max_value=8, required=False, help_text="Only invitations to tables of this many seats."
    )


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="POST /api/invitations/{id}/accept/ or decline/.")
    table = serializers.IntegerField(help_text="GET /api/tables/{id}/.")
    kind = serializers.CharField(help_text="The game.")
    players = serializers.IntegerField()
    invited_by = serializers.CharField()
    created_by = serializers.CharField(help_text="Who opened the table: she starts it unless it starts itself.")
    auto_start = serializers.BooleanField(
        help_text="The table starts by itself when its last seat is taken; if false, its creator starts it."
    )
    free_seats = serializers.IntegerField(help_text="Seats nobody has taken yet (accepting takes one).")
    created_at = serializers.DateTimeField()


class InvitationPageOut(PageOut):
    results = InvitationOut(many=True)


class InvitationListView(APIView):
    @extend_schema(
        operation_id="invitations",
        summary="My invitations to tables still open, a page at a time",
        description="Oldest first. Tables where you already sit are left out.",
        parameters=[InvitationFilters, *cursor_parameters(InvitationPages)],
        responses={200: InvitationPageOut, 400: error(400, "A filter or cursor that is not valid.")},
    )
    def get(self, request):
        filters = InvitationFilters(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        pending = lobby.invitations_pending(request.user)
        lookups = {"game__kind": "game", "game__players": "players"}
        pending = pending.filter(
            **{field: filters.validated_data[name] for field, name in lookups.items() if name in filters.validated_data}
        )
        return Response(
            page_answer(InvitationPages, pending, request, self, lambda page: [_invitation(i) for i in page])
        )


class InvitationAcceptView(APIView):
    @extend_schema(
        operation_id="invitation_accept",
        summary="Accept an invitation: take a free seat at its table",
        description=(
            "The one who invited you is told (notification kind `answered`, feed event `answered`). Taking the last "
            "seat of a table that starts by itself deals it: everyone else hears that it started, and whoever moves "
            "first is told of her turn."
        ),
        request=None,
        responses={
            200: InvitationAcceptedOut,
            **errors(
                404, 409, s404="No such invitation of yours.", s409="The table started, is full, or you sit there."
            ),
        },
    )
    def post(self, request, pk: int):
        try:
            game = invitation_accept(user=request.user, invitation_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response({"table": game.pk, "joined": True})


class InvitationDeclineView(APIView):
    @extend_schema(
        operation_id="invitation_decline",
        summary="Decline an invitation (it is removed)",
        description=(
            "The one who invited you is told (notification kind `answered`, feed event `answered`). A challenge's or "
            "a rematch's table is closed by a decline (status `aborted`, never listed in the lobby); any other table "
            "stays open."
        ),
        request=None,
        responses={204: None, 404: OpenApiResponse(description="No such invitation of yours.")},
    )
    def post(self, request, pk: int):
        try:
            invitation_decline(user=request.user, invitation_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)
