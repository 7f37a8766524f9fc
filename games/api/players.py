"""A player's statistics and finished games through the API: `GET /api/players/{username}/` (issue 11, point 5).

The same reads as the player's page (games.player_stats): statistics of every finished game, the list of
finished games only of tables the caller may see.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ParseError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.core import all_games
from ratings.selectors import rating_histories

from .. import player_stats
from ..errors import BadRequest, NotFound
from .errors import error_response
from .responses import errors


class GameStatsOut(serializers.Serializer):
    game = serializers.CharField(help_text="The game: topology, topoum or toppo.")
    title = serializers.CharField(help_text="The game's name in the caller's language.")
    played = serializers.IntegerField(help_text="Finished games (an aborted game has no result and does not count).")
    won = serializers.IntegerField(help_text="Games at rank 1 still playing at the end (ruling S1).")
    left = serializers.IntegerField(help_text="Games she left (resigned, or three missed deadlines): ranked last.")
    win_rate = serializers.FloatField(help_text="won / played.")
    average_rank = serializers.FloatField(allow_null=True, help_text="Her average final rank (1 is first).")
    average_seats = serializers.FloatField(allow_null=True, help_text="The average number of seats at those tables.")
    last_finished = serializers.DateTimeField(allow_null=True)


class OpponentOut(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="Her username (GET /api/players/{username}/); "
                                                              "null for a bot.")
    bot_level = serializers.CharField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    left = serializers.BooleanField()


class FinishedGameOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The table: GET /api/tables/{id}/.")
    game = serializers.CharField()
    title = serializers.CharField()
    pace = serializers.CharField()
    players = serializers.IntegerField()
    private = serializers.BooleanField(help_text="Listed only to those who may see the table.")
    finished_at = serializers.DateTimeField(allow_null=True)
    seat = serializers.IntegerField(help_text="Her seat.")
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    won = serializers.BooleanField()
    left = serializers.BooleanField()
    opponents = OpponentOut(many=True)
    url = serializers.CharField(help_text="The table's page.")
    replay_url = serializers.CharField(help_text="The replay's page.")


class FinishedGamesPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = FinishedGameOut(many=True)


class RatingPointOut(serializers.Serializer):
    rating = serializers.IntegerField(help_text="The rating shown after this rated game.")
    at = serializers.DateTimeField(help_text="When that game finished.")


class RatingHistoryOut(serializers.Serializer):
    key = serializers.CharField(help_text="The rating: topology, topoum, toppo-correspondence or toppo-live.")
    label = serializers.CharField(help_text="Its name in the reader's language.")
    value = serializers.IntegerField(help_text="Her rating now (1500 + 40 × (mu − 3 sigma)).")
    provisional = serializers.BooleanField(help_text="Fewer than 5 rated games in this key.")
    games = serializers.IntegerField(help_text="Rated games played in this key.")
    start = serializers.IntegerField(help_text="Her rating before her first rated game here.")
    history = RatingPointOut(many=True, help_text="After each rated game, oldest first (which game is not said: "
                                                  "it may be a private table).")


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="A bot account (issue 12): a program plays it through the API.")
    date_joined = serializers.DateTimeField()
    statistics = GameStatsOut(many=True, help_text="Per game she has finished, all of her finished games counted "
                                                   "(private tables too: a count names no table).")
    ratings = RatingHistoryOut(many=True, help_text="Her ratings (ruling S5), one per game (Toppo per pace), "
                                                   "each with its history.")
    finished_games = FinishedGamesPageOut(help_text="Her finished games, newest first, of the tables you may see.")


class FinishedPages(LimitOffsetPagination):
    """DRF's limit and offset, but a value the schema does not allow is refused (400), not quietly replaced."""

    max_limit = 200

    def _whole(self, request, name: str, low: int, high: int | None):
        text = request.query_params.get(name)
        if text is None:
            return None
        if not (text.isascii() and text.isdigit()) or int(text) < low or (high is not None and int(text) > high):
            raise ParseError(_("%(name)s must be a whole number from %(low)d to %(high)s.")
                             % {"name": name, "low": low, "high": high if high is not None else "∞"})
        return int(text)

    def get_limit(self, request):
        limit = self._whole(request, self.limit_query_param, 1, self.max_limit)
        return self.default_limit if limit is None else limit

    def get_offset(self, request):
        return self._whole(request, self.offset_query_param, 0, None) or 0


def _with_links(result: dict) -> dict:
    return {**result, "url": reverse("table", args=[result["id"]]),
            "replay_url": reverse("table_replay", args=[result["id"]])}


class PlayerView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_detail",
        summary="A player: statistics per game and her finished games (paginated), with opponents",
        parameters=[
            OpenApiParameter("game", {"type": "string", "enum": sorted(all_games())},
                             description="Only finished games of this game, e.g. topoum."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": FinishedPages.max_limit},
                             description="Finished games per page (50 when not given)."),
            OpenApiParameter("offset", {"type": "integer", "minimum": 0}, description="Finished games to skip."),
        ],
        responses={200: PlayerOut, **errors(400, 404, s400="Unknown game.", s404="No such player.")},
    )
    def get(self, request, username: str):
        person = get_user_model().objects.filter(username=username, is_active=True).first()
        if person is None:
            return error_response(NotFound(_("There is no player called “%(name)s”.") % {"name": username}))
        kind = request.query_params.get("game")
        if kind is not None and kind not in all_games():
            return error_response(BadRequest(_("There is no game called “%(game)s”; choose one of %(games)s.")
                                             % {"game": kind, "games": ", ".join(sorted(all_games()))}))
        viewer = request.user if request.user.is_authenticated else None
        paginator = FinishedPages()
        page = paginator.paginate_queryset(player_stats.recent_games(person, viewer, kind), request, view=self)
        data = {
            "username": person.username,
            "bot_account": person.is_bot_account,
            "date_joined": person.date_joined,
            "statistics": player_stats.game_stats(person),
            "ratings": rating_histories(person),
            "finished_games": {"count": paginator.count, "next": paginator.get_next_link(),
                               "previous": paginator.get_previous_link(),
                               "results": [_with_links(player_stats.game_result(g, person)) for g in player_stats.games_of(page)]},
        }
        return Response(PlayerOut(data).data)
