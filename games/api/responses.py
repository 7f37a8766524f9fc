"""The named shapes of every API answer, for the OpenAPI schema (decision 12, point 1: typed answers).

The views build their answers from the selectors (games.selectors, games.selectors.replay, games.selectors.export...);
the serializers here document those dicts field by field, so a client author learns the answer from the schema and
the Schemathesis test (tests/api/test_schemathesis.py) checks every answer against it.  Errors have one shape,
`Error` ({"error": code, "detail": message} and the optional fields some refusals add), built by `errors()`.

A game's view (what `State.view` returns) is documented by the engine itself (engine/view_schemas.py, plain
JSON Schema); `add_view_schemas` puts those schemas in the OpenAPI components (TopologyView, TopoumView,
ToppoView) and the table's `view` field points at them.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers

from engine.view_schemas import VIEW_SCHEMAS, openapi_schema

from ..models import Game, Pace
from .pagination import PageOut

# --- errors ---------------------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {},
        "description": "Field name -> what is wrong with it: a list of messages, or an object of the "
        "same shape for a nested field (e.g. `options`).",
    }
)
class FieldErrors(serializers.JSONField):
    pass


@extend_schema_field({"$ref": "#/components/schemas/TableDetailOut"})
class StaleTableField(serializers.JSONField):
    pass


class ErrorSerializer(serializers.Serializer):
    """The one error shape of the API; the fields after `detail` come only with the refusals that name them."""

    error = serializers.CharField(
        help_text="A code for programs: invalid, bad_request, illegal_action, "
        "not_authenticated, authentication_failed, forbidden, not_found, "
        "conflict, stale_version, idempotency_key_reused, too_large, too_deep, "
        "throttled, rate_limited, method_not_allowed, unavailable..."
    )
    detail = serializers.CharField(help_text="What went wrong and what to do, for a person, in her language.")
    fields = FieldErrors(required=False, help_text="400 `invalid`: the body's fields at fault.")
    retry_after = serializers.IntegerField(
        required=False, min_value=1, help_text="429 only: seconds to wait (also in the `Retry-After` header)."
    )
    version = serializers.IntegerField(required=False, help_text="409 `stale_version`: the game's version now.")
    game = StaleTableField(
        required=False,
        help_text="409 `stale_version`: the table as you see it now (as GET "
        "/api/tables/{id}/), so you can decide again.",
    )
    reason = serializers.CharField(
        required=False,
        help_text="400 `illegal_action`, or `bad_request` for options the "
        "game's rules refuse: the engine's stable code for why "
        "(e.g. `options.at_most`, or `<game>.options.<rule>` for a rule of one game).",
    )
    params = serializers.DictField(
        required=False, help_text="With `reason`: the facts it names (e.g. the option and its maximum), as data."
    )


ERROR_WORDS = {
    400: "Malformed: a parameter or body field is missing or not valid, or the action is not legal now; `detail` "
    "says why (`fields` names the fields).",
    401: "Not authenticated: no credentials where they are needed, or an API token that is unknown, revoked or "
    "expired; `detail` says which.",
    403: "Not allowed: not your seat or table, or a session request without its CSRF token.",
    404: "No such object, or one you may not see.",
    409: "Conflict: the table or game is not in a state that allows this, or the version you sent is stale.",
    422: "This Idempotency-Key was used before for a different request (`error`: idempotency_key_reused); use a new "
    "key.",
    429: "Too many requests: wait `Retry-After` seconds.",
    503: "Unavailable on this server.",
}
RETRY_AFTER_HEADER = {
    "Retry-After": {"schema": {"type": "integer", "minimum": 1}, "description": "Seconds to wait before trying again."}
}


def error(status: int, description: str = "") -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description or ERROR_WORDS[status])


def errors(*statuses: int, **described: str) -> dict:
    """{status: the Error answer}; `described` overrides a status's words, e.g. errors(400, s404="No such player.")."""
    out = {status: error(status) for status in statuses}
    for key, words in described.items():
        out[int(key.lstrip("s"))] = error(int(key.lstrip("s")), words)
    return out


# --- tables ----------------------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "description": "The table's options as the game validated them (names, kinds and values: GET /api/catalogue/).",
        "additionalProperties": {
            "oneOf": [
                {"type": "boolean"},
                {"type": "integer"},
                {"type": "string"},
                {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
            ],
            "nullable": True,
        },
    }
)
class OptionsField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "required": ["type"],
        "additionalProperties": True,
        "properties": {"type": {"type": "string", "description": "What kind of action, e.g. end_turn."}},
        "description": "An action of the game: `type` and the action's own fields, exactly as listed "
        "in `legal_actions` (post it back as it is).",
    }
)
class ActionObjectField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "oneOf": [{"$ref": f"#/components/schemas/{schema['title']}"} for _, schema in sorted(VIEW_SCHEMAS.items())],
        "nullable": True,
        "description": "The game as this reader's seat sees it (a spectator's view when she has no "
        "seat), one schema per game (`game` says which); null before the start.",
    }
)
class GameViewField(serializers.JSONField):
    pass


class RatingBadgeOut(serializers.Serializer):
    value = serializers.IntegerField(help_text="Her rating in this table's key (ruling S5).")
    provisional = serializers.BooleanField(help_text="Fewer than 5 rated games in this key.")
    games = serializers.IntegerField(help_text="Rated games she has played in this key.")


class SeatOut(serializers.Serializer):
    index = serializers.IntegerField(help_text="The seat, from 0.")
    name = serializers.CharField(
        help_text="The seat's name as the site shows it: her username, or the bot's level and seat number "
        'in the reader\'s language ("Strong 2", decision 26).'
    )
    player = serializers.CharField(allow_null=True, help_text="Her username; null for a bot seat.")
    bot_level = serializers.CharField(
        allow_null=True,
        help_text="The bot's level (a bot seat, or the bot playing for a seat that left); null otherwise.",
    )
    is_bot = serializers.BooleanField(help_text="A bot plays this seat.")
    bot_account = serializers.BooleanField(help_text="A person's account played by a program through the API.")
    abandoned = serializers.BooleanField(help_text="The player resigned or missed three deadlines (ruling S1).")
    to_act = serializers.BooleanField(help_text="The game waits for this seat.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this seat's clock runs out; null when it is not running."
    )
    missed_deadlines = serializers.IntegerField(help_text="Deadlines missed in a row.")
    on_vacation_until = serializers.DateTimeField(
        allow_null=True, help_text="Her vacation's planned end (ruling S4), or null."
    )
    clock_stopped = serializers.BooleanField(help_text="Her vacation stops her clock at this table.")
    time_bank_seconds = serializers.IntegerField(
        allow_null=True, help_text="What is left of her time bank; null at a table without one."
    )
    drawing_time_bank = serializers.BooleanField(help_text="Her turn's clock ran out and the bank is running.")
    thinking_since = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="A table's detail, a bot alone to decide: when its turn began (it is thinking since then).",
    )
    rating = RatingBadgeOut(
        allow_null=True, required=False, help_text="A person's rating in the game's key; null or absent for a bot."
    )
    rank = serializers.IntegerField(
        required=False, allow_null=True, help_text="Finished tables: the site's rank (ruling S1), 1 the best."
    )
    score = serializers.FloatField(required=False, allow_null=True, help_text="Finished tables: the game's score.")


class AbortedOut(serializers.Serializer):
    """Why an aborted game has no result (no ranks, no rating change)."""

    reason = serializers.ChoiceField(
        choices=Game.AbortReason.choices,
        allow_null=True,
        help_text="resigned / abandoned: that seat left before every seat had completed a turn of its own "
        "(ruling S1, turn 3); agreed: every player still in it agreed; staff: a moderator; alone: its only person, "
        "among bots, before anything was played; closed: its creator, before it began; declined: the invited player "
        "declined a challenge or rematch; null: not recorded.",
    )
    seat = serializers.IntegerField(allow_null=True, help_text="resigned / abandoned: the seat that left.")
    player = serializers.CharField(allow_null=True, help_text="That seat's name.")
    words = serializers.CharField(help_text="The reason in the reader's language.")


class TableSummaryOut(serializers.Serializer):
    """A table as the lists show it."""

    id = serializers.IntegerField(help_text="The table: GET /api/tables/{id}/.")
    game = serializers.CharField(help_text="The game's name (GET /api/catalogue/).")
    title = serializers.CharField(help_text="The game's name in the reader's language.")
    players = serializers.IntegerField(help_text="Seats at the table.")
    options = OptionsField()
    pace = serializers.ChoiceField(choices=Pace.choices)
    turn_seconds = serializers.IntegerField(allow_null=True, help_text="The clock per turn, in seconds.")
    private = serializers.BooleanField(help_text="Seen only by its players, the invited, and with its invite code.")
    rated = serializers.BooleanField(help_text="The result changes the players' ratings (ruling S5).")
    auto_start = serializers.BooleanField(help_text="The table deals itself when its last seat is taken (decision 17).")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField(help_text="Grows with every change; send it back as `expected_version`.")
    created_by = serializers.CharField(help_text="Who opened the table.")
    created_at = serializers.DateTimeField()
    time_bank_days = serializers.IntegerField(help_text="Days of time bank per seat (0: none; ruling S4).")
    seats = SeatOut(many=True, help_text="The taken seats, in order.")
    free_seats = serializers.IntegerField(help_text="Seats nobody has taken yet.")
    my_seat = serializers.IntegerField(allow_null=True, help_text="The reader's seat, or null.")
    my_turn = serializers.BooleanField(help_text="The game waits for the reader.")
    my_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the reader's turn runs out (ISO 8601), while the game waits for her; null when it does not, "
        "or while her vacation stops her clock (ruling S4).",
    )
    my_seconds_left = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        help_text="Seconds until `my_deadline` when the answer was made (0 once past); null with it.",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Finished tables: the winning seats; null otherwise.",
    )
    aborted = AbortedOut(allow_null=True, help_text="Aborted tables: why there is no result; null otherwise.")


class AbortStandingOut(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats of the people still playing, who must all agree."
    )
    agreed = serializers.ListField(child=serializers.IntegerField(), help_text="Those who agreed at this version.")
    i_agreed = serializers.BooleanField()
    alone = serializers.BooleanField(help_text="The reader may abort alone (only bots beside her, nothing played).")
    by_agreement = serializers.BooleanField(help_text="The reader may agree to abort (POST abort-agreement/).")


TIE_BREAK_HELP = (
    "Finished on the same score as another seat still playing: the code of the game's tie-break rule that placed "
    "it (the catalogue's `tie_breaks`, e.g. `later_turn`, ruling L7), or `shared` when no rule told them apart; "
    "null when its score placed it, or it left the game (ruling S1). See docs/results.md."
)


class SeatTieBreakOut(serializers.Serializer):
    seat = serializers.IntegerField()
    tie_break = serializers.CharField(allow_null=True, help_text=TIE_BREAK_HELP)


class TieOut(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="The tied seats, best rank first.")
    score = serializers.FloatField(help_text="The score they share.")
    tie_break = serializers.CharField(
        help_text="The rule that decided their order: the last one any of them took, or `shared`."
    )
    words = serializers.CharField(help_text="The tie and its rule in the reader's language.")


class ResultOut(serializers.Serializer):
    tie_breaks = SeatTieBreakOut(many=True, help_text="Each seat's tie-break code, by seat.")
    ties = TieOut(many=True, help_text="Each group of seats that finished on one score; empty when none did.")
    words = serializers.CharField(help_text="Every tie and its rule in the reader's language; empty when none.")


class SeatBreakdownOut(serializers.Serializer):
    seat = serializers.IntegerField()
    overall = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points from each source (`sources`) since the start."
    )
    total = serializers.IntegerField(help_text="`start` plus every source: the score the reader's view shows.")
    last_turn = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Points from each source in the turn in progress, if the reader can see any of it, else the last "
        "turn confirmed.",
    )
    last_turn_total = serializers.IntegerField()


class ScoreBreakdownOut(serializers.Serializer):
    """Where each seat's score came from, read from the log lines the reader may read (decision 26)."""

    start = serializers.IntegerField(help_text="Every seat's score at the start.")
    sources = serializers.ListField(
        child=serializers.CharField(),
        help_text="The game's sources of points, in order (the game's rules page names them), e.g. lines (of "
        "sight), line_cards (a card's slot value), losses (own pieces lost), final (end-of-game scoring).",
    )
    seats = SeatBreakdownOut(many=True)
    last_seat = serializers.IntegerField(allow_null=True, help_text="Whose turn `last_turn` is.")


class TableDetailOut(TableSummaryOut):
    """A table and the game as the reader sees it, with her legal actions."""

    spectators = serializers.IntegerField(
        help_text="Viewers with its page open within the last few minutes who do not sit at it (decision 17)."
    )
    view = GameViewField()
    legal_actions = serializers.ListField(
        child=ActionObjectField(), help_text="The reader's legal actions now (empty when it is not her turn)."
    )
    undoable = serializers.BooleanField(help_text="The reader may take back her last decision of this turn.")
    seed_salt = serializers.CharField(help_text="Public from the start (ruling G0.2).")
    seed_commitment = serializers.CharField(help_text="The hash of seed and salt, public from the start (G0.2).")
    seed = serializers.CharField(required=False, help_text="Finished tables only: the seed, to re-run the log.")
    result = ResultOut(
        required=False, help_text="Finished tables only: which rule decided each tie of scores (decision 24)."
    )
    invite_code = serializers.CharField(required=False, help_text="Private tables, to the creator only.")
    abort = AbortStandingOut(required=False, help_text="Running tables: who agreed to abort.")
    score_breakdown = ScoreBreakdownOut(
        required=False, help_text="Games that keep one: where each seat's score came from (decision 26)."
    )


class TablePageOut(PageOut):
    results = TableSummaryOut(many=True, help_text="Newest first; /api/tables/mine/ the most urgent first.")


@extend_schema_field(
    {
        "type": "array",
        "description": "What happened, as data (decision 13): a list of phrases, each a "
        "`code` (e.g. `<game>.reveal`) and its parameters, the same in every language; empty for a "
        "seat leaving.",
        "items": {
            "type": "object",
            "required": ["code"],
            "additionalProperties": True,
            "properties": {"code": {"type": "string", "description": "What kind of phrase."}},
        },
    }
)
class LogEntryField(serializers.JSONField):
    pass


class ActionResultOut(TableDetailOut):
    """The table after the action, with the log line it wrote."""

    seq = serializers.IntegerField(help_text="The action's place in the log.")
    entry = LogEntryField()
    description = serializers.CharField(help_text="The log line in the reader's language (`entry` in words).")


class LogEntryOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The entry's place in the log, from 1.")
    seat = serializers.IntegerField(allow_null=True, help_text="Whose decision.")
    source = serializers.ChoiceField(
        choices=["player", "bot", "timeout"],
        help_text="Who made it: the player, a bot, or the site for a missed deadline.",
    )
    replay = serializers.BooleanField(help_text="False for a site entry the engine never saw (a seat leaving).")
    entry = LogEntryField()
    description = serializers.CharField(help_text="The entry in the reader's language (`entry` in words).")
    created_at = serializers.DateTimeField()
    action = ActionObjectField(
        required=False,
        help_text="The action itself: to its author, to everyone for a seat leaving, and to all once the game is over.",
    )


class LogPageOut(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version now.")
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")
    results = LogEntryOut(many=True, help_text="Oldest first.")


class LegalActionsOut(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version: send it as `expected_version`.")
    seat = serializers.IntegerField(allow_null=True, help_text="The reader's seat, or null.")
    my_turn = serializers.BooleanField()
    undoable = serializers.BooleanField()
    actions = serializers.ListField(child=ActionObjectField(), help_text="Her legal actions now.")


class SeatViewOut(serializers.Serializer):
    seat = serializers.IntegerField()
    view = GameViewField()


class PositionOut(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    ply = serializers.IntegerField(help_text="The position after this many log entries (0: the start).")
    plies = serializers.IntegerField(
        help_text="How many positions after the start the reader may see now: all of them once the game is over; "
        "while it runs, not the decisions of another seat's turn that is not confirmed yet (ruling S3)."
    )
    seq = serializers.IntegerField(allow_null=True, help_text="The log entry that led here; null at the start.")
    seat = serializers.IntegerField(allow_null=True, help_text="Whose entry that was.")
    over = serializers.BooleanField(help_text="The game is over at this ply.")
    to_act = serializers.ListField(child=serializers.IntegerField(), help_text="The seats to decide at this ply.")
    spectator = GameViewField(help_text="The spectator's view.")
    seats = serializers.ListField(
        child=GameViewField(), required=False, help_text="Finished games: every seat's view, by seat."
    )
    mine = SeatViewOut(required=False, help_text="Running games: the reader's own view, if she sits there.")


class ExportSeatOut(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField(help_text="The seat's name as the log shows it.")
    player = serializers.CharField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True)


class ExportLogOut(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    source = serializers.CharField()
    replay = serializers.BooleanField(help_text="False for a seat leaving: the engine never saw it.")
    action = ActionObjectField()


class ExportRankOut(serializers.Serializer):
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.FloatField(allow_null=True)
    tie_break = serializers.CharField(allow_null=True, help_text=TIE_BREAK_HELP)


class ExportResultOut(serializers.Serializer):
    ranks = ExportRankOut(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())


class ExportOut(serializers.Serializer):
    """Everything `python -m engine.verify` needs to re-run a finished game (ruling G0.2)."""

    format = serializers.CharField(help_text="topos-export/1.")
    table = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = OptionsField()
    seats = ExportSeatOut(many=True)
    seed = serializers.CharField()
    seed_salt = serializers.CharField()
    seed_commitment = serializers.CharField()
    commitment_scheme = serializers.CharField(help_text="How the commitment was computed (engine.commitment).")
    log = ExportLogOut(many=True, help_text="The whole log, in order.")
    result = ExportResultOut()


# --- the catalogue -----------------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "nullable": True,
        "description": "Any JSON value of the option's kind.",
        "oneOf": [
            {"type": "boolean"},
            {"type": "integer"},
            {"type": "string"},
            {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        ],
    }
)
class OptionValueField(serializers.JSONField):
    pass


class CatalogueOptionOut(serializers.Serializer):
    name = serializers.CharField(help_text="The key in a table's `options`.")
    kind = serializers.ChoiceField(choices=["int", "bool", "choice", "list"])
    default = OptionValueField()
    choices = serializers.ListField(child=OptionValueField(), help_text="The allowed values (choice, list).")
    label = serializers.CharField()
    help = serializers.CharField(allow_blank=True)
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)


class CatalogueGameOut(serializers.Serializer):
    name = serializers.CharField(help_text="What `game` takes when opening a table.")
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = CatalogueOptionOut(many=True)
    paces = serializers.ListField(
        child=serializers.ChoiceField(choices=Pace.choices),
        help_text="The paces a table of this game may be opened at (`pace`).",
    )
    pace_option = serializers.CharField(
        allow_null=True, help_text="The option the table's pace fills in (a value sent for it is replaced), or null."
    )
    higher_is_better = serializers.BooleanField(
        help_text="True when the highest score wins; false when scores are penalties and the lowest wins."
    )
    tie_breaks = serializers.ListField(
        child=serializers.CharField(),
        help_text="The codes of the game's tie-break rules, in the order they apply (a finished table's "
        "`result.tie_breaks`; `shared` besides them when none tells tied seats apart).",
    )


class BotLevelOut(serializers.Serializer):
    label = serializers.CharField(help_text="The level's name, in the reader's language.")
    description = serializers.CharField(help_text="How the level plays, in the reader's language.")
    ratings = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Rating key (a game, or `<game>-<pace>`, as the leaderboards name them) -> the level's strength on "
        "the site's rating scale, from the published calibration (docs/bots.md). Bots are never rated in play.",
    )


class CatalogueOut(serializers.Serializer):
    games = CatalogueGameOut(many=True)
    bot_levels = serializers.DictField(
        child=BotLevelOut(), help_text="Level name (for `bots`, `level`, `fill_with_bots`) -> its label."
    )


# --- me: vacation, bot account, invitations ---------------------------------------------------------------------


class VacationStandingOut(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Its planned end; it ends by itself then.")
    year = serializers.IntegerField(help_text="The calendar year the allowance is for.")
    allowance_days = serializers.IntegerField()
    used_seconds = serializers.IntegerField()
    left_seconds = serializers.IntegerField()
    latest_end_if_started_now = serializers.DateTimeField(allow_null=True)


class BotAccountOut(serializers.Serializer):
    username = serializers.CharField()
    bot_account = serializers.BooleanField()


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The invitation: accept/ or decline/ it.")
    table = serializers.IntegerField()
    kind = serializers.CharField(help_text="The game.")
    players = serializers.IntegerField()
    invited_by = serializers.CharField()
    created_at = serializers.DateTimeField()


class InvitationListOut(serializers.Serializer):
    results = InvitationOut(many=True, help_text="Oldest first.")


class InvitationAcceptedOut(serializers.Serializer):
    table = serializers.IntegerField()
    joined = serializers.BooleanField()


# --- the OpenAPI components of the game views --------------------------------------------------------------------


def add_view_schemas(result, generator, request, public):
    """drf-spectacular post-processing hook: the engine's view schemas as components (OpenAPI 3.0 dialect)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for _, schema in sorted(VIEW_SCHEMAS.items()):
        schemas[schema["title"]] = openapi_schema(schema)
    return result
