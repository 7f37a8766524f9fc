"""The create-table form, built from the games' own option metadata (engine.core.all_games()).

The form only shapes input; the rules about what makes a valid table live in the
services and the engines, whose messages `add_service_error` places next to the field
they are about.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.bots import levels as bot_levels
from engine.core import all_games

from . import hooks
from .engine_texts import engine_text, game_title, option_value
from .models import CORRESPONDENCE_DAYS, LIVE_SECONDS, TIME_BANK_MAX_DAYS, Pace


def asked_options(game) -> list[dict]:
    """The options the form asks for: all but the one the table's pace fills in (Game.pace_option), which
    games.services.game_create sets from the table, so the form does not ask for it twice."""
    return [meta for meta in game.metadata()["options"] if meta["name"] != game.pace_option]


def _games() -> list:
    return sorted(all_games().values(), key=lambda g: g.title)


def _seconds_label(seconds: int) -> str:
    if seconds < 60:
        return gettext("%(n)d seconds") % {"n": seconds}
    minutes = seconds // 60
    return gettext("1 minute") if minutes == 1 else gettext("%(n)d minutes") % {"n": minutes}


def _days_label(days: int) -> str:
    return gettext("1 day") if days == 1 else gettext("%(n)d days") % {"n": days}


def option_field_name(game: str, option: str) -> str:
    return f"opt__{game}__{option}"


class ValuesField(forms.CharField):
    """A list option without fixed choices, typed as comma-separated values (whole numbers become ints)."""

    def to_python(self, value):
        text = super().to_python(value)
        if not text:
            return None  # the option's default
        values = []
        for part in (p.strip() for p in text.split(",")):
            try:
                values.append(int(part))
            except ValueError:
                values.append(part)
        return values


def _option_field(meta: dict) -> forms.Field:
    """A form field for one engine Option (see engine.core.Option.to_json)."""
    label = engine_text(meta["label"]) if meta["label"] else meta["name"]
    help_text = engine_text(meta["help"])
    kind = meta["kind"]
    if kind == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False, initial=meta["default"])
    if kind == "int" and meta["choices"]:
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            required=False,
            coerce=int,
            choices=[(c, c) for c in meta["choices"]],
            initial=meta["default"],
        )
    if kind == "int":
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=False,
            initial=meta["default"],
            min_value=meta["min"],
            max_value=meta["max"],
        )
    if kind == "list" and not meta["choices"]:
        return ValuesField(
            label=label,
            help_text=help_text or gettext("Values separated by commas."),
            required=False,
            initial=", ".join(map(str, meta["default"] or [])),
        )
    if kind == "list":
        return forms.MultipleChoiceField(
            label=label,
            help_text=help_text,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=meta["default"],
            choices=[(c, option_value(c)) for c in meta["choices"]],
        )
    return forms.ChoiceField(
        label=label,
        help_text=help_text,
        required=False,
        initial=meta["default"],
        choices=[(c, option_value(c)) for c in meta["choices"]],
    )


class TableCreateForm(forms.Form):
    """Game, players, pace, privacy, bots, and the chosen game's options."""

    game = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(label=_("Players"), min_value=1, initial=2)
    pace = forms.ChoiceField(
        label=_("Pace"),
        widget=forms.RadioSelect,
        initial=Pace.CORRESPONDENCE,
        choices=[(Pace.CORRESPONDENCE, _("Correspondence (days per turn)")), (Pace.LIVE, _("Live (seconds per move)"))],
    )
    days = forms.TypedChoiceField(label=_("Time per turn"), coerce=int, initial=3, required=False)
    live_seconds = forms.TypedChoiceField(label=_("Live clock"), coerce=int, initial=60, required=False)
    # Ruling S4: checked by the service (games.services.tables), which says what is wrong in every language.
    time_bank_days = forms.IntegerField(
        label=_("Time bank per seat (days)"),
        initial=0,
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "max": TIME_BANK_MAX_DAYS, "step": 1}),
        help_text=_(
            "Days each player may draw on when a turn's time runs out, before the bot plays it; "
            "0 for none. A table with a time bank has it instead of vacation."
        ),
    )
    private = forms.BooleanField(label=_("Private table (join by invitation or link only)"), required=False)
    rated = forms.BooleanField(
        label=_("Rated game"),
        required=False,
        initial=True,
        help_text=_(
            "The result changes the players' ratings. A table with a bot is never "
            "rated; untick to play a friendly game."
        ),
    )
    # Decision 17: the table deals itself when its last seat is taken (games.services.tables).
    auto_start = forms.BooleanField(
        label=_("Start as soon as every seat is taken"),
        required=False,
        initial=True,
        help_text=_("Untick to start the game yourself when you are ready."),
    )
    # Decision 17: a challenge (games.services.challenges): the table is opened and this player invited to it.
    opponent = forms.CharField(
        label=_("Challenge a player (optional)"),
        required=False,
        max_length=150,
        help_text=_(
            "Her username, or a bot account's: she is invited to this table and the game starts when she accepts."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        games = _games()
        self.games = games
        self.fields["game"].choices = [(g.name, game_title(g.title)) for g in games]
        self.fields["game"].initial = games[0].name if games else None
        max_players = max((g.max_players for g in games), default=2)
        self.fields["players"].max_value = max_players
        self.fields["players"].widget.attrs.update(min=1, max=max_players)
        self.fields["days"].choices = [(d, _days_label(d)) for d in CORRESPONDENCE_DAYS]
        self.fields["live_seconds"].choices = [(s, _seconds_label(s)) for s in LIVE_SECONDS]
        levels = bot_levels()
        bot_choices = [("", gettext("A person (seat left open)"))] + [
            (name, gettext("Bot: %(level)s") % {"level": engine_text(meta.get("label", name))})
            for name, meta in levels.items()
        ]
        self.bot_fields = []
        for seat in range(1, max_players):
            name = f"bot_{seat}"
            self.fields[name] = forms.ChoiceField(
                label=gettext("Seat %(n)d") % {"n": seat + 1}, choices=bot_choices, required=False
            )
            self.bot_fields.append(name)
        self.option_fields: dict[str, list[str]] = {}
        for game in games:
            names = []
            for meta in asked_options(game):
                field_name = option_field_name(game.name, meta["name"])
                self.fields[field_name] = _option_field(meta)
                names.append(field_name)
            self.option_fields[game.name] = names

    # --- grouping for the template ---------------------------------------------------------
    def game_sections(self) -> list[dict]:
        """Per game: its name, title, player range and its option fields (bound)."""
        return [
            {
                "name": g.name,
                "title": game_title(g.title),
                "min": g.min_players,
                "max": g.max_players,
                "live": Pace.LIVE in g.paces,
                "bots": hooks.bot_strengths.joined(kind=g.name),  # ratings' calibration
                "fields": [
                    {"field": self[f], "is_bool": isinstance(self.fields[f], forms.BooleanField)}
                    for f in self.option_fields[g.name]
                ],
            }
            for g in self.games
        ]

    def bot_seats(self) -> list:
        return [self[f] for f in self.bot_fields]

    def bot_thinking(self) -> list[str]:
        """How long each searching level may think, as the site lets it (engine.bots.levels, decisions 26 and 30,
        point 2): expert is stronger than strong for taking longer, so people see what they choose."""
        out = []
        for name, meta in bot_levels().items():
            limits = meta.get("thinking_seconds", {})
            if not meta.get("budget", {}).get("search") or not limits.get("live") or not limits.get("correspondence"):
                continue
            out.append(
                gettext("%(level)s: up to %(live)s s a move at a live table, %(turn)s s a turn by correspondence")
                % {
                    "level": engine_text(meta.get("label", name)),
                    "live": f"{limits['live']:g}",
                    "turn": f"{limits['correspondence']:g}",
                }
            )
        return out

    # --- cleaning -----------------------------------------------------------------------------
    def clean(self):
        data = super().clean()
        chosen = data.get("game")
        # Options of the games not chosen are ignored, so their errors would only confuse.
        for game, names in self.option_fields.items():
            if game != chosen:
                for name in names:
                    self._errors.pop(name, None)
        return data

    def service_kwargs(self) -> dict:
        """Arguments for games.services.game_create from the cleaned data."""
        data = self.cleaned_data
        game = data["game"]
        options = {}
        for meta in asked_options(all_games()[game]):
            value = data.get(option_field_name(game, meta["name"]))
            if value in (None, "") and meta["kind"] != "bool":
                value = meta["default"]
            options[meta["name"]] = list(value) if meta["kind"] == "list" else value
        pace = data["pace"]
        if pace == Pace.LIVE:
            turn_seconds = data.get("live_seconds") or 60
        else:
            turn_seconds = (data.get("days") or 3) * 86400
        bots = [data[f] for f in self.bot_fields[: max(0, data["players"] - 1)] if data.get(f)]
        # The bank's field is hidden with the days when live is chosen, and ignored like them (the API refuses it).
        bank = 0 if pace == Pace.LIVE else data.get("time_bank_days") or 0
        return {
            "kind": game,
            "players": data["players"],
            "options": options,
            "pace": pace,
            "turn_seconds": turn_seconds,
            "private": data.get("private", False),
            "bots": bots,
            "time_bank_days": bank,
            "rated": data.get("rated", False),
            "auto_start": data.get("auto_start", False),
        }

    def add_service_error(self, message: str, argument: str | None = None) -> None:
        """Show a service's refusal next to the field it is about (or above the form).

        `argument` is the service argument at fault (ServiceError.field), which finds the field
        whatever the language of the message; without it the message's words are matched.
        """
        field = self.field_for_argument(argument) if argument else None
        self.add_error(field or self.field_for_message(message), message)

    def field_for_argument(self, argument: str) -> str | None:
        if argument == "turn_seconds":
            return "live_seconds" if self.data.get("pace") == Pace.LIVE else "days"
        if argument == "bots":
            return self.bot_fields[0] if self.bot_fields else None
        if argument.startswith("options."):  # an option the rules refused (games.options_words.options_argument)
            game = self.data.get("game") or self.fields["game"].initial
            field = option_field_name(game, argument.removeprefix("options."))
            return field if field in self.fields else None
        return {
            "kind": "game",
            "players": "players",
            "pace": "pace",
            "time_bank_days": "time_bank_days",
            "username": "opponent",
        }.get(argument)

    def field_for_message(self, message: str) -> str | None:
        text = message.lower()
        game = self.data.get("game") or self.fields["game"].initial
        for meta in asked_options(all_games()[game]) if game in all_games() else []:
            if meta["name"].lower() in text or (meta["label"] and meta["label"].lower() in text):
                return option_field_name(game, meta["name"])
        rules = [
            ("time bank", "time_bank_days"),
            ("bot", self.bot_fields[0] if self.bot_fields else None),
            ("live clock", "live_seconds"),
            ("correspondence clock", "days"),
            ("pace", "pace"),
            ("player", "players"),
            ("game called", "game"),
        ]
        for word, field in rules:
            if word in text:
                return field
        return None
