"""A player's finished games, a page at a time with a cursor and filters, for `GET /api/players/{username}/games/`
(decision 12, points 4 and 5; the view is in games.api.players).  One's own game history is the same list under
one's own name: it then holds her private tables too (games.selectors.player_stats.recent_games: a visitor sees only the
tables she may see).

Newest finished first.  The cursor is the time the game finished (it never changes once finished) with the
table's id after it, so a page never repeats or skips a game because others finished meanwhile.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework import serializers

from engine.core import all_games

from ..errors import NotFound
from ..models import Pace
from ..selectors import player_stats
from .pagination import _Pages, page_answer


class HistoryPages(_Pages):
    ordering = ("-finished", "-game_id")  # annotated by player_stats.recent_games
    page_size = 20
    max_page_size = 100


class HistoryFilters(serializers.Serializer):
    """The filters of a player's finished games (query parameters); a bad value is 400 naming the parameter."""

    game = serializers.ChoiceField(
        choices=sorted(all_games()), required=False, help_text="Only games of this game (see /api/catalogue/)."
    )
    pace = serializers.ChoiceField(choices=Pace.values, required=False, help_text="Only games of this pace.")
    players = serializers.IntegerField(
        min_value=1, max_value=8, required=False, help_text="Only tables of this many seats."
    )
    # Not nullable: `?rated=` (empty) is no boolean and is refused, as the schema says.
    rated = serializers.BooleanField(
        required=False,
        help_text="true: only rated games (ruling S5); false: only unrated ones.",
    )
    result = serializers.ChoiceField(
        choices=sorted(player_stats.RESULTS),
        required=False,
        help_text="Her result: won (first and still playing at the end, ruling S1), "
        "lost (any other), left (she resigned or missed three deadlines).",
    )

    def seats(self, person, viewer):
        d = self.validated_data
        return player_stats.recent_games(
            person,
            viewer,
            d.get("game"),
            pace=d.get("pace"),
            players=d.get("players"),
            rated=d.get("rated"),
            result=d.get("result"),
        )


def with_links(result: dict) -> dict:
    return {
        **result,
        "url": reverse("table", args=[result["id"]]),
        "replay_url": reverse("table_replay", args=[result["id"]]),
    }


def history_page(request, view, person, filters: HistoryFilters, *, base_url: str | None = None) -> dict:
    """One page of her finished games as `request` asks; `base_url` is where the `next` link leads (default: here)."""
    viewer = request.user if request.user.is_authenticated else None
    return page_answer(
        HistoryPages,
        filters.seats(person, viewer),
        request,
        view,
        lambda page: [with_links(player_stats.game_result(g, person)) for g in player_stats.games_of(page)],
        base_url=base_url,
    )


def active_player(username: str):
    person = get_user_model().objects.filter(username=username, is_active=True).first()
    if person is None:
        raise NotFound(_("There is no player called “%(name)s”.") % {"name": username})
    return person
