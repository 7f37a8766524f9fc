"""A player's statistics and finished games through the API: `GET /api/players/{username}/` (decision 11, point 5).

The same reads as the player's page (games.selectors.player_stats): statistics of every finished game, the list of
finished games only of tables the caller may see, a page at a time with a cursor (games.api.history; decision 12,
point 5: `GET /api/players/{username}/games/` pages on, with filters).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.core import all_games

from .. import hooks
from ..errors import BadRequest, NotFound
from ..selectors import player_stats
from ..selectors.pace import pace_of, waiting_on
from .errors import error_response
from .history import HistoryFilters, HistoryPages, active_player, history_page
from .pagination import cursor_parameters
from .responses import error


class GameStatsOut(serializers.Serializer):
    game = serializers.CharField(help_text="The game's name (GET /api/catalogue/).")
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
    player = serializers.CharField(
        allow_null=True, help_text="Her username (GET /api/players/{username}/); null for a bot."
    )
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
    next = serializers.URLField(
        allow_null=True, help_text="The next (older) page, at GET /api/players/{username}/games/; null on the last."
    )
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")
    results = FinishedGameOut(many=True)


class RatingPointOut(serializers.Serializer):
    rating = serializers.IntegerField(help_text="The rating shown after this rated game.")
    at = serializers.DateTimeField(help_text="When that game finished.")


class RatingHistoryOut(serializers.Serializer):
    key = serializers.CharField(
        help_text="The rating: the game's name, with the pace (`<game>-live`, "
        "`<game>-correspondence`) for a game rated per pace."
    )
    label = serializers.CharField(help_text="Its name in the reader's language.")
    value = serializers.IntegerField(help_text="Her rating now (1500 + 40 × (mu − 3 sigma)).")
    provisional = serializers.BooleanField(help_text="Fewer than 5 rated games in this key.")
    games = serializers.IntegerField(help_text="Rated games played in this key.")
    start = serializers.IntegerField(help_text="Her rating before her first rated game here.")
    history = RatingPointOut(
        many=True, help_text="After each rated game, oldest first (which game is not said: it may be a private table)."
    )


class PaceByPaceOut(serializers.Serializer):
    live = serializers.IntegerField(allow_null=True)
    correspondence = serializers.IntegerField(allow_null=True)


class PaceOut(serializers.Serializer):
    reply_median_seconds = PaceByPaceOut(help_text="Her median reply time per pace, in seconds; null: no reply yet.")
    replies = PaceByPaceOut(help_text="How many replies each median is made of.")
    turns = serializers.IntegerField(help_text="Her turns read (replied or missed), in her last 200 games.")
    missed_deadlines = serializers.IntegerField(help_text="Turns the site's bot played because she let them pass.")
    missed_share = serializers.FloatField(allow_null=True, help_text="missed_deadlines / turns.")
    games_finished = serializers.IntegerField(help_text="Games that ended with a result while she still played.")
    games_left = serializers.IntegerField(help_text="Games she resigned or abandoned (ruling S1).")
    finished_share = serializers.FloatField(allow_null=True, help_text="games_finished / (finished + left).")
    computed_at = serializers.DateTimeField(help_text="Figures kept and refreshed at most hourly.")


class WaitingOut(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.CharField()
    since = serializers.DateTimeField(help_text="When the turn passed to her.")
    waiting_seconds = serializers.IntegerField(help_text="How long the others have been waiting for her.")
    deadline = serializers.DateTimeField(allow_null=True)


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="A bot account (decision 12): a program plays it through the API.")
    date_joined = serializers.DateTimeField()
    statistics = GameStatsOut(
        many=True,
        help_text="Per game she has finished, all of her finished games counted "
        "(private tables too: a count names no table).",
    )
    ratings = RatingHistoryOut(
        many=True,
        help_text="Her ratings (ruling S5), one per game (and pace, for a game "
        "played at several), "
        "each with its history.",
    )
    finished_games = FinishedGamesPageOut(help_text="Her finished games, newest first, of the tables you may see.")
    pace = PaceOut(help_text="Her pace profile (decision 29, games.pace; docs/pace.md).")
    waiting_on_me = WaitingOut(
        many=True,
        required=False,
        help_text="Only on your own player: the running tables where other people wait for you, and since when.",
    )


BAD_TOKEN = {401: error(401, "A token unknown, revoked or expired (none is needed).")}


class PlayerView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_detail",
        summary="A player: statistics per game, ratings, and the first page of her finished games, with opponents",
        description="`finished_games` is the first page of GET /api/players/{username}/games/ (same filters, same "
        "`page_size`); its `next` leads there.",
        parameters=[HistoryFilters, *cursor_parameters(HistoryPages)],
        responses={
            200: PlayerOut,
            400: error(400, "A filter that is not valid (e.g. an unknown game)."),
            404: error(404, "No such player."),
            **BAD_TOKEN,
        },
    )
    def get(self, request, username: str):
        try:
            person = active_player(username)
        except NotFound as exc:
            return error_response(exc)
        filters = _filters(request)
        if isinstance(filters, Response):
            return filters
        query = request.query_params.copy()
        query.pop("cursor", None)
        games_url = request.build_absolute_uri(reverse("api-player-games", args=[person.username]))
        data = {
            "username": person.username,
            "bot_account": person.is_bot_account,
            "date_joined": person.date_joined,
            "statistics": player_stats.game_stats(person),
            "ratings": hooks.player_ratings.joined(person=person),  # ruling S5, from ratings
            "finished_games": history_page(
                request, self, person, filters, base_url=games_url + ("?" + query.urlencode() if query else "")
            ),
            "pace": pace_of(person),
        }
        if request.user.is_authenticated and request.user.pk == person.pk:
            data["waiting_on_me"] = waiting_on(person)
        return Response(PlayerOut(data).data)


def _filters(request) -> HistoryFilters | Response:
    filters = HistoryFilters(data=request.query_params.dict())
    if filters.is_valid():
        return filters
    kind = request.query_params.get("game")
    if "game" in filters.errors and kind:
        # The message the page's API always gave for a game that does not exist.
        return error_response(
            BadRequest(
                _("There is no game called “%(game)s”; choose one of %(games)s.")
                % {"game": kind, "games": ", ".join(sorted(all_games()))}
            )
        )
    filters.is_valid(raise_exception=True)
    return filters


class PlayerGamesView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_games",
        summary="A player's finished games, newest first, a page at a time",
        description="Each with her seat, rank, score and result, and every opponent. Only the tables "
        "you may see (all of them under your own name: your game history).",
        parameters=[HistoryFilters, *cursor_parameters(HistoryPages)],
        responses={
            200: FinishedGamesPageOut,
            400: error(400, "A filter or cursor that is not valid."),
            404: error(404, "No such player."),
            **BAD_TOKEN,
        },
    )
    def get(self, request, username: str):
        try:
            person = active_player(username)
        except NotFound as exc:
            return error_response(exc)
        filters = _filters(request)
        if isinstance(filters, Response):
            return filters
        return Response(FinishedGamesPageOut(history_page(request, self, person, filters)).data)
