"""Blocking in the API (ruling S7): the players I blocked, block one, unblock one.  Shaped as the mutes are
(chat/api.py); every write is a service of games/services/blocks.py."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import blocks_of_user

from ..errors import ServiceError
from ..services import blocks as services
from .errors import error_response
from .fields import player_name_field
from .own import NOT_LOGGED_IN
from .pagination import NewestFirstPages, PageOut, cursor_parameters, page_answer
from .responses import error

WHAT_IT_DOES = (
    "A block keeps the two of you apart, whichever of you made it (ruling S7): neither can invite or challenge "
    "the other (403 `not_possible`), neither can join an open table where the other sits (403 `not_possible`) "
    "and the lobby (`GET /api/tables/`) no longer lists those tables to you, your chat lines are hidden from each "
    "other at every table, and nothing the blocked player does reaches you as a notification or email. Tables "
    "already running go on. Blocking withdraws the invitations pending between you. The blocked player is not "
    "told: the refusals say only that it is not possible, in the same words whoever blocked."
)


class BlockIn(serializers.Serializer):
    username = player_name_field(
        refusal=_lazy("Name the player to block."), help_text="The player to keep away from you."
    )


class BlockOut(serializers.Serializer):
    username = serializers.CharField()
    created = serializers.DateTimeField()


class BlockListOut(PageOut):
    results = BlockOut(many=True, help_text="Newest block first.")


class BlockPages(NewestFirstPages):
    """Her blocks, paged as her mutes are."""


def _block(block) -> dict:
    return {"username": block.blocked.username, "created": block.created_at.isoformat()}


class BlocksView(APIView):
    @extend_schema(
        operation_id="me_blocks",
        summary="The players I blocked",
        description=WHAT_IT_DOES + " A page at a time; those who blocked you are not listed.",
        parameters=cursor_parameters(BlockPages),
        responses={200: BlockListOut, 400: error(400, "A cursor or page size that is not valid."), 401: NOT_LOGGED_IN},
    )
    def get(self, request):
        rows = blocks_of_user(request.user).order_by()
        return Response(page_answer(BlockPages, rows, request, self, lambda page: [_block(b) for b in page]))

    @extend_schema(
        operation_id="me_blocks_add",
        summary="Block a player",
        description=WHAT_IT_DOES + " 201 when new, 200 if you had blocked her already.",
        request=BlockIn,
        responses={
            200: BlockOut,
            201: BlockOut,
            400: error(400, "No name, or your own."),
            401: NOT_LOGGED_IN,
            404: error(404, "No such player."),
        },
    )
    def post(self, request):
        body = BlockIn(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            block, created = services.player_block(user=request.user, username=body.validated_data["username"])
        except ServiceError as exc:
            return error_response(exc)
        return Response(_block(block), status=201 if created else 200)


class BlockView(APIView):
    @extend_schema(
        operation_id="me_blocks_remove",
        summary="Unblock a player",
        description="Lifts your block only: if she blocked you too, hers stays.",
        responses={204: None, 401: NOT_LOGGED_IN, 404: error(404, "No such player, or not blocked.")},
    )
    def delete(self, request, username: str):
        try:
            services.player_unblock(user=request.user, username=username)
        except ServiceError as exc:
            return error_response(exc)
        return Response(status=204)
