"""The API of ratings (ruling S5): the leaderboards, paged by cursors, and one player's ratings."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error_response
from games.api.responses import error, errors
from games.errors import BadRequest, NotFound

from . import selectors
from .keys import key_label, rating_keys
from .system import PROVISIONAL_GAMES


class LeaderboardRowOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Place on the board, 1 for the best rating.")
    player = serializers.CharField()
    rating = serializers.IntegerField(help_text="1500 + 40 (mu - 3 sigma), the conservative OpenSkill estimate.")
    provisional = serializers.BooleanField(help_text=f"Fewer than {PROVISIONAL_GAMES} rated games in this key.")
    games = serializers.IntegerField(help_text="Rated games played in this key.")


class LeaderboardOut(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    results = LeaderboardRowOut(many=True)
    next = serializers.URLField(allow_null=True, help_text="The next page (lower ratings), or null at the bottom.")
    previous = serializers.URLField(allow_null=True, help_text="The page before (higher ratings), or null at the top.")


class BoardOut(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    url = serializers.URLField()


class PlayerRatingOut(serializers.Serializer):
    key = serializers.CharField()
    rating = serializers.IntegerField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    updated_at = serializers.DateTimeField()


class PlayerRatingsOut(serializers.Serializer):
    player = serializers.CharField()
    results = PlayerRatingOut(many=True)


NOT_FOUND = errors(404, s404="No such leaderboard or player.")
CURSORS = [
    OpenApiParameter("after", OpenApiTypes.STR, description="A `next` cursor: the page after that row."),
    OpenApiParameter("before", OpenApiTypes.STR, description="A `previous` cursor: the page before that row."),
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": selectors.MAX_PAGE_SIZE},
        description=f"Rows per page, 1 to {selectors.MAX_PAGE_SIZE} (default {selectors.PAGE_SIZE}).",
    ),
]


class LeaderboardsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leaderboards_list",
        summary="The leaderboards: one per game, or per pace for a game played at several",
        responses={200: BoardOut(many=True)},
    )
    def get(self, request):
        return Response(
            [
                {
                    "key": k,
                    "label": key_label(k),
                    "url": request.build_absolute_uri(reverse("api-leaderboard", args=[k])),
                }
                for k in rating_keys()
            ]
        )


def _page_size(request) -> int:
    text = request.query_params.get("limit")
    if text is None:
        return selectors.PAGE_SIZE
    try:
        size = int(text)
    except ValueError:
        size = 0
    if not 1 <= size <= selectors.MAX_PAGE_SIZE:
        raise BadRequest(
            _("limit must be a whole number from 1 to %(max)d.") % {"max": selectors.MAX_PAGE_SIZE}, field="limit"
        )
    return size


def _cursor(request, name: str):
    text = request.query_params.get(name)
    try:
        return selectors.Cursor.parse(text) if text else None
    except selectors.BadCursor:
        raise BadRequest(
            _("%(name)s must be a cursor from a `next` or `previous` link of this leaderboard.") % {"name": name},
            field=name,
        ) from None


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="leaderboard",
        summary="One leaderboard, best rating first, a page at a time",
        description="Players with at least one rated game in this key (ruling S5). Follow `next` and "
        "`previous`: cursor pages cost the same however deep they are.",
        parameters=CURSORS,
        responses={200: LeaderboardOut, 400: error(400, "A bad cursor or limit; `detail` says which."), **NOT_FOUND},
    )
    def get(self, request, key: str):
        try:
            if key not in rating_keys():
                raise NotFound(
                    _("There is no leaderboard called %(key)s; choose one of %(keys)s.")
                    % {"key": repr(key), "keys": ", ".join(rating_keys())}
                )
            size, before = _page_size(request), _cursor(request, "before")
            after = None if before else _cursor(request, "after")
        except (BadRequest, NotFound) as exc:
            return error_response(exc)
        page = selectors.leaderboard(key, after=after, before=before, size=size)
        base = request.build_absolute_uri(request.path)
        suffix = f"&limit={size}" if "limit" in request.query_params else ""
        return Response(
            {
                "key": key,
                "label": key_label(key),
                "results": page.rows,
                "next": f"{base}?after={page.next}{suffix}" if page.next else None,
                "previous": f"{base}?before={page.previous}{suffix}" if page.previous else None,
            }
        )


class PlayerRatingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_ratings",
        summary="A player's ratings, one per key she has played rated",
        responses={200: PlayerRatingsOut, **NOT_FOUND},
    )
    def get(self, request, username: str):
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            return error_response(NotFound(_("There is no player called %(name)s.") % {"name": repr(username)}))
        return Response({"player": user.username, "results": selectors.ratings_of_user(user)})
