"""Her turn queue and her data (decision 29): `GET /api/me/turns/`, `GET /api/me/data/`, `POST /api/me/delete/`.

The pages: /turns/ (games.views.turns) and /accounts/data/ (accounts.views); the same reads and services.
"""

from __future__ import annotations

from django.contrib.auth import logout
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.data_export import account_data
from accounts.deletion import account_delete, deletion_password_check
from accounts.limits import Refusal

from ..errors import TooManyRequests
from ..selectors.turn_queue import tables_waiting, turn_rows
from .errors import error_response
from .own import BODY_PARSERS, SIGNED_OUT
from .pagination import UrgencyPages, cursor_parameters
from .responses import error


class TurnOut(serializers.Serializer):
    table = serializers.IntegerField(help_text="GET /api/tables/{id}/.")
    game = serializers.CharField()
    title = serializers.CharField(help_text="The game and the table number, in your language.")
    seat = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The version to send with your action.")
    label = serializers.ChoiceField(
        choices=["forced", "quick", "deep"],
        help_text="forced: exactly one legal decision and nothing to take back; deep: more than 12 choices, or "
        "choices the greedy bot rates a quarter of a comfortable lead apart or more, on a position sampled from "
        "your own view; quick: the rest (docs/turns.md).",
    )
    label_words = serializers.CharField(help_text="The label in your language.")
    choices = serializers.IntegerField(help_text="Your legal decisions now.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="Null while your vacation stops this clock.")
    seconds_left = serializers.IntegerField(allow_null=True)
    clock_stopped = serializers.BooleanField()
    url = serializers.CharField(help_text="The table's page.")


class TurnsOut(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")
    results = TurnOut(many=True)


class TurnsView(APIView):
    @extend_schema(
        operation_id="my_turns",
        summary="Every table waiting for me, the soonest deadline first, each labelled forced, quick or deep",
        description="The first group of GET /api/tables/mine/, in its order (the soonest deadline first, then the "
        "clocks my vacation stops), a page at a time, each with the label of the decision waiting and the time left.",
        parameters=cursor_parameters(UrgencyPages),
        responses={200: TurnsOut, 400: error(400, "A cursor or page size that is not valid."), **SIGNED_OUT},
    )
    def get(self, request):
        pages = UrgencyPages()
        now = timezone.now()
        games = pages.paginate_queryset(tables_waiting(request.user, now=now), request, view=self)
        return pages.get_paginated_response(turn_rows(games, request.user, now=now))


class ProfileDataOut(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    bot_account = serializers.BooleanField()


class SettingsDataOut(serializers.Serializer):
    language = serializers.CharField()
    time_zone = serializers.CharField()
    auto_play_forced = serializers.BooleanField()


class TokenDataOut(serializers.Serializer):
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="Its first characters; the key itself never leaves the site again.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)


class AccountDataOut(serializers.Serializer):
    format = serializers.CharField(help_text='"topos-account-data/1".')
    exported_at = serializers.DateTimeField()
    profile = ProfileDataOut()
    settings = SettingsDataOut()
    tokens = TokenDataOut(many=True)
    blocks = serializers.ListField(child=serializers.DictField(), help_text="Those I blocked, and when.")
    games = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each table I sit at: `table` as GET /api/tables/{id}/ answers me, and a finished game's `export` "
        "(GET /api/tables/{id}/export/) or a running one's `log` as I may read it.",
    )
    notifications = serializers.DictField(help_text="`received`, `preferences`, `quiet_hours`.")
    chat = serializers.DictField(help_text="`written` (my lines), `muted`, `reported`.")
    vacations = serializers.ListField(child=serializers.DictField())
    pace = serializers.DictField(help_text="My pace profile, as GET /api/players/{username}/ gives it.")
    other = serializers.DictField(
        help_text="Rows of any other kind that name me, by model and field (`app.Model.field`), secrets left out."
    )


class MyDataView(APIView):
    @extend_schema(
        operation_id="my_data",
        summary="Everything the site holds about me, as one JSON document (ruling S8)",
        description="Sections: profile, settings, tokens (names, never keys), blocks, games (each as my seat sees "
        "it; a finished one's whole export), notifications (with preferences and quiet hours), chat (lines I "
        "wrote, mutes, reports), vacations, pace, and `other`: rows of any other kind that name me.",
        responses={200: AccountDataOut, **SIGNED_OUT},
    )
    def get(self, request):
        answer = Response(account_data(request.user))
        answer["Content-Disposition"] = f'attachment; filename="topos-{request.user.username}.json"'
        return answer


class DeleteIn(serializers.Serializer):
    password = serializers.CharField(help_text="Your password: the deletion cannot be undone.")


class DeletedOut(serializers.Serializer):
    deleted = serializers.BooleanField()
    shown_as = serializers.CharField(help_text='The neutral name your seats keep ("deleted-N").')


class AccountDeleteView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="my_account_delete",
        summary="Delete my account for good, confirmed by my password (ruling S8)",
        description="My seats keep their place under a neutral name (“deleted player N”); in running games I "
        "leave as by resigning (ruling S1: the bot plays my seat to the end, or the table is aborted if not "
        "everyone has played yet); my open tables are closed or left; my ratings leave the leaderboards; my "
        "email, profile, settings, sessions, tokens, notifications and queued emails are erased; my chat lines "
        "stay under the neutral name. Every token of mine stops working at once.",
        request=DeleteIn,
        responses={
            200: DeletedOut,
            400: error(400, "No password sent; nothing is changed."),
            403: error(403, "Not your password (or a session without its CSRF token); nothing is changed."),
            401: SIGNED_OUT[401],
        },
    )
    def post(self, request):
        body = DeleteIn(data=request.data)
        body.is_valid(raise_exception=True)
        checked = deletion_password_check(
            request=request._request, user=request.user, password=body.validated_data["password"]
        )
        if isinstance(checked, Refusal):
            return error_response(TooManyRequests(checked.message, retry_after=checked.retry_after))
        if not checked:
            return Response(
                {"error": "wrong_password", "detail": _("That is not your password: the account was not deleted.")},
                status=403,
            )
        done = account_delete(user=request.user)
        if getattr(request, "session", None) is not None and request.user.is_authenticated:
            logout(request._request)
        return Response({"deleted": True, "shown_as": done.username})
