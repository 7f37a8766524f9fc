"""The lobby's filters on the pages (decision 17): the home page's open tables and the watch list.

The API reads the same four filters with a serializer (games.api.lobby.LobbyFilters); both end in
games.selectors.lobby.filter_tables.  A value that is not one of the choices is ignored (the form shows it as not
valid).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core import all_games

from .engine_texts import game_title
from .models import Pace

RATED = {"yes": True, "no": False}


class LobbyFilterForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    players = forms.TypedChoiceField(
        label=_("Players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("Any number"))] + [(n, n) for n in range(1, 9)],
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        required=False,
        choices=[("", _("Any pace")), (Pace.LIVE, _("Live")), (Pace.CORRESPONDENCE, _("Correspondence"))],
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        required=False,
        choices=[("", _("Rated or not")), ("yes", _("Rated only")), ("no", _("Unrated only"))],
    )

    # Decision 29: opponents who usually reply within an hour, a day, three days (games.selectors.pace).
    replies_within = forms.ChoiceField(
        label=_("Opponents reply"),
        required=False,
        choices=[
            ("", _("At any pace")),
            ("hour", _("Usually within an hour")),
            ("day", _("Usually within a day")),
            ("3days", _("Usually within three days")),
        ],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = sorted(all_games().values(), key=lambda g: g.title)
        self.fields["game"].choices = [("", _("Any game"))] + [(g.name, game_title(g.title)) for g in games]

    def filters(self) -> dict:
        """Arguments for games.selectors.lobby.filter_tables: the valid filters only."""
        if not self.is_bound:
            return {}
        self.is_valid()
        data = self.cleaned_data
        return {
            "game": data.get("game") or None,
            "players": data.get("players"),
            "pace": data.get("pace") or None,
            "rated": RATED.get(data.get("rated") or ""),
            "replies_within": data.get("replies_within") or None,
        }

    def is_filtered(self) -> bool:
        return any(value is not None for value in self.filters().values())
