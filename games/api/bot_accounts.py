"""/api/me/bot/ (make this account a bot account) and /api/invitations/ (list, accept, decline): issue 12."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import ServiceError
from ..models import Game, Invitation
from ..services.bot_accounts import account_make_bot
from ..services.invitations import invitation_accept, invitation_decline
from .errors import error_response
from .responses import BotAccountOut, InvitationAcceptedOut, InvitationListOut, errors


class MakeBotView(APIView):
    @extend_schema(operation_id="me_bot", summary="Turn my account into a bot account (irreversible)",
                   description="A bot account plays through the API only (the table pages refuse its moves), is "
                               "shown with a BOT mark, and can be invited or challenged like anyone. There is no "
                               "way back. Refused while you sit at an open or running table as a person.",
                   request=None,
                   responses={200: BotAccountOut, **errors(409, s409="Already a bot account, or you sit at an open "
                                                                     "or running table.")})
    def post(self, request):
        try:
            user = account_make_bot(user=request.user)
        except ServiceError as exc:
            return error_response(exc)
        return Response({"username": user.username, "bot_account": True})


def _invitation(invitation: Invitation) -> dict:
    game = invitation.game
    return {"id": invitation.pk, "table": game.pk, "kind": game.kind, "players": game.players,
            "invited_by": invitation.invited_by.username, "created_at": invitation.created_at.isoformat()}


class InvitationListView(APIView):
    @extend_schema(operation_id="invitations", summary="My invitations to tables still open",
                   description="Each: `id`, `table`, `kind`, `players`, `invited_by`, `created_at`; oldest first. "
                               "Tables where you already sit are left out.",
                   responses={200: InvitationListOut})
    def get(self, request):
        pending = (Invitation.objects.filter(user=request.user, game__status=Game.Status.OPEN)
                   .exclude(game__seats__user=request.user)
                   .select_related("game", "invited_by").order_by("created_at", "pk"))
        return Response({"results": [_invitation(i) for i in pending]})


class InvitationAcceptView(APIView):
    @extend_schema(operation_id="invitation_accept", summary="Accept an invitation: take a free seat at its table",
                   request=None,
                   responses={200: InvitationAcceptedOut,
                              **errors(404, 409, s404="No such invitation of yours.",
                                       s409="The table started, is full, or you sit there.")})
    def post(self, request, pk: int):
        try:
            game = invitation_accept(user=request.user, invitation_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response({"table": game.pk, "joined": True})


class InvitationDeclineView(APIView):
    @extend_schema(operation_id="invitation_decline", summary="Decline an invitation (it is removed)",
                   request=None,
                   responses={204: None, **errors(404, s404="No such invitation of yours.")})
    def post(self, request, pk: int):
        try:
            invitation_decline(user=request.user, invitation_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)
