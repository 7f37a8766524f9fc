"""Input shapes of the API (outputs are built by selectors from each seat's view)."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config import request_limits
from engine.bots.levels import levels as bot_levels
from engine.core import all_games

from ..models import Pace

# The bot levels, one enum in the schema (config/settings.py: ENUM_NAME_OVERRIDES).
BOT_LEVEL_CHOICES = sorted(bot_levels())


@extend_schema_field(
    {
        "type": "object",
        "required": ["type"],
        "additionalProperties": True,
        "properties": {"type": {"type": "string", "description": "What kind of action, e.g. end_turn."}},
        "description": 'One of your legal actions, e.g. {"type": "end_turn"}.',
    }
)
class ActionField(serializers.JSONField):
    """An action object; posted as a form field, its JSON text is read within the request limits."""

    default_error_messages = {
        "not_an_action": _('An action is a JSON object with a "type", such as {"type": "end_turn"}.')
    }

    def to_internal_value(self, data):
        if getattr(data, "is_json_string", False):
            try:
                data = request_limits.loads(data)
            except request_limits.JsonRefused as refused:
                raise serializers.ValidationError(refused.message, code=refused.code) from None
            except ValueError:
                self.fail("invalid")
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            # Not self.fail(): that would read the braces of the example as format fields.
            raise serializers.ValidationError(self.error_messages["not_an_action"], code="not_an_action")
        return data


def BoundedInteger(low: int, high: int | None = None, **kwargs) -> serializers.IntegerField:
    """An integer the schema bounds while the service checks it, so a refusal says what to send in its own words
    (e.g. how many vacation days are left) rather than DRF's "Some fields are not valid."."""
    schema = {"type": "integer", "minimum": low, **({"maximum": high} if high is not None else {})}
    field = extend_schema_field({**schema, "nullable": True} if kwargs.get("allow_null") else schema)
    # A class of its own: the annotation goes on the class, and must not reach every IntegerField.
    return field(type("BoundedInteger", (serializers.IntegerField,), {}))(**kwargs)


class TableCreateIn(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(all_games()), help_text="The game (see /api/catalogue/).")
    players = serializers.IntegerField(min_value=1, max_value=8)
    options = serializers.DictField(required=False, default=dict, help_text="Game options (see the catalogue).")
    pace = serializers.ChoiceField(choices=Pace.choices, default=Pace.CORRESPONDENCE)
    turn_seconds = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=14 * 86400,
        help_text="Clock per turn: 1-14 days in seconds, or live seconds.",
    )
    private = serializers.BooleanField(default=False)
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=BOT_LEVEL_CHOICES),
        required=False,
        default=list,
        max_length=7,
        help_text="Bot levels for the seats after yours, e.g. ['greedy'].",
    )
    time_bank_days = BoundedInteger(
        0,
        30,
        required=False,
        default=0,
        help_text="Correspondence only: days each seat may draw on when a turn's clock runs out, before the bot "
        "plays it (0-30, 0: none). Such a table has the bank instead of vacation (ruling S4).",
    )
    rated = serializers.BooleanField(
        default=True,
        help_text="Whether the result changes the players' ratings (ruling S5). "
        "false plays unrated; a table with a bot is never rated, whatever "
        "this says.",
    )
    auto_start = serializers.BooleanField(
        default=True,
        help_text="Start the game by itself when a join, an accepted invitation or "
        "a bot takes the last seat (decision 17), or at once when its bots fill every other seat "
        "(decision 26). false: you start it.",
    )


def table_choices(data: dict) -> dict:
    """The table a validated TableCreateIn (or a challenge, which is one) asks for, as the services' keywords."""
    keys = ("players", "options", "pace", "private", "bots", "time_bank_days", "rated", "auto_start")
    return {"kind": data["game"], "turn_seconds": data.get("turn_seconds"), **{key: data[key] for key in keys}}


class ActionIn(serializers.Serializer):
    action = ActionField()
    expected_version = serializers.IntegerField(min_value=0, help_text="The game version you saw.")
    seat = serializers.IntegerField(required=False, min_value=0, help_text="Only needed if you hold several seats.")


class JoinIn(serializers.Serializer):
    invite_code = serializers.CharField(required=False, allow_blank=True, default="")


class BotIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=BOT_LEVEL_CHOICES, help_text="A bot level (see /api/catalogue/).")


class InviteIn(serializers.Serializer):
    # Not trimmed: "  ana " is looked up as ana by the service, and a name of spaces only is a player that
    # does not exist (404), as the schema lets a client send it.
    username = serializers.CharField(trim_whitespace=False, max_length=150)


class StartIn(serializers.Serializer):
    fill_with_bots = serializers.ChoiceField(
        choices=["", *BOT_LEVEL_CHOICES],
        required=False,
        default="",
        help_text="Fill empty seats with bots of this level (empty: do not).",
    )


class AbortAgreeIn(serializers.Serializer):
    agree = serializers.BooleanField(default=True, help_text="false takes your agreement back.")


class LogFilters(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, default=0, required=False, help_text="Only the lines after this seq (0: from the start)."
    )
