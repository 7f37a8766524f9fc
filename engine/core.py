"""The game protocol every Topos game implements, the registry, and the seeded RNG.

The shape follows OpenSpiel: a `Game` holds metadata and makes states; a `State`
says whose decision it is, enumerates legal actions, applies one, and gives each
seat its own view.  States are plain Python objects that serialise to plain JSON
(`to_json` / `from_json`), so the site can store a snapshot per version and the
seed plus the action log can always rebuild it.

Actions are small JSON dicts with a "type" key, e.g. {"type": "place", ...}.
Two actions are the same action when they are equal as JSON values, types included
(`same_action`): 2 is neither 2.0 nor true, and no key may be missing or extra (ruling G0.4).
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

Action = dict[str, Any]
SPECTATOR = None  # the seat argument of `view` for someone who is not playing


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not allowed now: `code` says why as data, `params` the facts the reason names.

    E.g. IllegalAction("toppo.line_full", {"size": 3}).  The engine holds no sentences (decision 13):
    the site words the reason in the reader's language (games.refusal_words).  Raising it must
    leave the state exactly as it was (ruling G0.4).
    """

    def __init__(self, code: str, params: dict | None = None, *, action: Action | None = None, seat: int | None = None):
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})
        self.action = action
        self.seat = seat

    @property
    def reason(self) -> tuple[str, dict]:
        """The refusal as (code, params)."""
        return self.code, self.params


class NotYourDecision(IllegalAction):
    """The seat asked to act while it is not one of the seats to decide."""


class InvalidOptions(EngineError):
    """Table options the game cannot be played with: `code` says why as data, `params` the facts it names.

    E.g. InvalidOptions("options.at_most", {"game": "topoum", "option": "radius", "max": 10}).  Like
    IllegalAction, no sentence (decision 13): the site words it in the reader's language (games.options_words).
    """

    def __init__(self, code: str, params: dict | None = None):
        super().__init__(code)
        self.code = code
        self.params = dict(params or {})

    @property
    def reason(self) -> tuple[str, dict]:
        """The refusal as (code, params)."""
        return self.code, self.params


def canonical(action: Action) -> str:
    """One string per action, independent of key order, for hashing actions the engine listed itself."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def copy_json(value):
    """A deep copy of plain JSON data (lists, dicts, scalars): much faster than copy.deepcopy for states and views."""
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    return value


# --- strict comparison of actions (ruling G0.4) ------------------------------------------------
def _json_kind(value) -> str:
    """The JSON type of a Python value, telling whole numbers from other numbers and from booleans."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "other"


def same_action(a, b) -> bool:
    """True when a and b are the same JSON value, types included: 2 is not 2.0 nor True, [1] is not ["1"].

    Python's == says 2 == 2.0 == True; a legal action must match exactly (ruling G0.4). Tuples
    count as lists (they become JSON arrays); objects must have the same keys.
    """
    if type(a) is str:  # the common case first: a string (a type, a card) matches an equal string
        return isinstance(b, str) and a == b
    if type(a) is dict:  # an action itself
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_action(a[k], b[k]) for k in a)
    kind = _json_kind(a)
    if kind != _json_kind(b):
        return False
    if kind == "array":
        return len(a) == len(b) and all(same_action(x, y) for x, y in zip(a, b))
    if kind == "object":
        return a.keys() == b.keys() and all(same_action(a[k], b[k]) for k in a)
    return kind != "other" and a == b


def find_action(action, legal: list[Action]) -> Action | None:
    """The action of `legal` that `action` is exactly (same_action), or None.

    Python's == is tried first: it is fast, and it is true whenever same_action is, so the strict
    walk runs only on the one or two candidates it lets through. Odd values (unhashable, NaN,
    other classes) make == false or strict; nothing here raises.
    """
    if not isinstance(action, dict):
        return None
    for candidate in legal:
        try:
            loose = candidate == action
        except Exception:  # a caller's own class with a broken __eq__
            loose = False
        if loose and same_action(candidate, action):
            return candidate
    return None


def _show(value) -> str:
    """A short, safe rendering of a value from a refused action, for messages."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = _json_kind(value)
    return text if len(text) <= 40 else text[:37] + "..."


def action_type(action, fields: dict[str, tuple[str, ...]], game: str) -> str:
    """The type of a well-shaped action, after checking it has exactly the fields of its type.

    For games whose actions cannot all be listed cheaply (Toppo's orders, Topology's placements):
    the parsers then check each field's value. `fields` maps each type to its fields besides "type".
    Raises IllegalAction naming what is wrong (ruling G0.4): "action.not_object",
    "action.unknown_type" (with the game's action types) or "action.fields" (the fields it takes,
    those that are extra and those missing).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("action.not_object", action=action)
    kind = action["type"]
    if kind not in fields:
        raise IllegalAction("action.unknown_type", {"type": _show(kind), "types": list(fields)}, action=action)
    wanted = fields[kind]
    extra = [_show(k) for k in action if k != "type" and k not in wanted]
    missing = [_show(f) for f in wanted if f not in action]
    if extra or missing:
        raise IllegalAction(
            "action.fields",
            {"type": kind, "fields": [_show(f) for f in wanted], "extra": extra, "missing": missing},
            action=action,
        )
    return kind


def is_whole(value) -> bool:
    """A JSON whole number: an int, not a bool (True == 1 in Python) nor a float such as 2.0."""
    return isinstance(value, int) and not isinstance(value, bool)


def near_miss(action, legal: list[Action]) -> tuple[str, dict] | None:
    """Why `action` is malformed when set beside the legal actions of its type, as (code, params), or None.

    Says which field is unknown or missing, or has the wrong kind of value (2.0 where 2 is meant),
    judged by the listed actions of the same type. None when the shape is right (the game then
    explains the rule) or nothing of that type is legal now.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "action.not_object", {}
    kind = action["type"]
    same = [a for a in legal if a.get("type") == kind]
    if not same:
        return None
    known = {k for a in same for k in a}
    extra = [_show(k) for k in action if k not in known]
    if extra:
        return "action.no_such_field", {"type": kind, "extra": extra, "fields": sorted(known)}
    if not any(a.keys() == action.keys() for a in same):
        return "action.shapes", {"type": kind, "shapes": sorted(sorted(s) for s in {tuple(sorted(a)) for a in same})}
    for key in action:
        kinds = {_json_kind(a[key]) for a in same if key in a}
        if _json_kind(action[key]) not in kinds:
            return "action.field_kind", {
                "type": kind,
                "field": key,
                "kinds": sorted(kinds),
                "value": _show(action[key]),
            }
    for a in same:
        try:
            loose = a == action
        except Exception:
            loose = False
        if loose:  # equal for Python but not for JSON: 2.0 or true where a whole number is meant
            return "action.exact", {"type": kind, "listed": _show(a), "sent": _show(action)}
    return None


def make_rng(seed: int | str, counter: int) -> random.Random:
    """A generator for the `counter`-th random event of the game seeded with `seed`.

    Keeping only (seed, counter) in the state keeps states small and JSON-friendly;
    a string seed is hashed with SHA-512 by `random`, so it is stable across runs.
    Nothing in the engine may call the global `random` (ruling G0.2).
    """
    return random.Random(f"topos:{seed}:{counter}")


@dataclass(frozen=True)
class Option:
    """One table option a game accepts: its name, kind, default and allowed values."""

    name: str
    kind: str  # "int", "bool", "choice", "list"
    default: Any
    choices: tuple = ()
    label: str = ""
    help: str = ""
    min_value: int | None = None
    max_value: int | None = None

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "label": self.label or self.name,
            "help": self.help,
            "min": self.min_value,
            "max": self.max_value,
        }


# A seat tied with another on every rule of its game: they share the place.  Every game may report it, beside
# the codes of its own tie-break rules (Game.tie_breaks).
SHARED = "shared"


@dataclass
class Result:
    """A seat's place in a finished game: rank 1 is best, equal ranks share a place.

    `tie_break`: when the seat's score equals another seat's, the code of the rule that placed it among them
    (one of its game's `tie_breaks`, the last one it took, or SHARED when nothing told them apart); None when
    its score alone placed it.  A code, never words: the site says which rule decided it (decision 13).
    """

    seat: int
    rank: int
    score: float
    detail: dict = field(default_factory=dict)
    tie_break: str | None = None

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "rank": self.rank,
            "score": self.score,
            "detail": self.detail,
            "tie_break": self.tie_break,
        }


def tie_breaks_of(keys: list[tuple], rules: tuple[str, ...]) -> list[str | None]:
    """Each seat's `Result.tie_break`, from its ranking key: the score first, then one entry per tie-break rule
    in the order the game applies them (`rules`, their codes).  Only equality of the entries counts here.

    Among the seats with its score, a seat takes the deepest rule it needed to be told apart from any of them,
    or SHARED when one of them matches it on every rule.
    """
    if any(len(key) != len(rules) + 1 for key in keys):
        raise ValueError("a ranking key is the score and one entry per tie-break rule")
    codes: list[str | None] = []
    for seat, key in enumerate(keys):
        deepest = None
        for other, theirs in enumerate(keys):
            if other == seat or theirs[0] != key[0]:
                continue
            split = next((i for i in range(1, len(key)) if theirs[i] != key[i]), None)
            if split is None:
                deepest = len(rules)
                break
            deepest = max(deepest or 0, split - 1)
        codes.append(None if deepest is None else (rules + (SHARED,))[deepest])
    return codes


class State:
    """A position of one game.  Subclasses implement the methods below."""

    game: ClassVar["Game"]

    # --- whose decision -------------------------------------------------
    def to_act(self) -> list[int]:
        """Seats that may act now: one, several at once (Toppo), or none when over."""
        raise NotImplementedError

    def is_over(self) -> bool:
        return not self.to_act()

    # --- actions ----------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now (empty when it is not hers to decide)."""
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> None:
        """Apply `action` for `seat` in place, or raise IllegalAction and change nothing."""
        raise NotImplementedError

    def apply_legal(self, seat: int, action: Action) -> None:
        """Apply `action`, taken unchanged from this very state's `legal_actions(seat)`, without checking it again.

        Bots and the move service already hold the action from the legal list (the service finds it there when it
        checks what a client sent), so enumerating every legal action a second time inside `apply` is wasted work
        (decision 16).  Games override this with their apply minus the validation; the default is the checked apply.
        Given anything else, the state may end up wrong: callers that cannot promise it use `apply`.
        """
        self.apply(seat, action)

    def legal_match(self, seat: int, action) -> Action | None:
        """The action of `legal_actions(seat)` that `action` names exactly (find_action), or None.

        The move service checks what a client sent with it before `apply_legal`.  A game whose lists are
        long (Topology's placements) overrides it with a direct check of the one action, answering just
        as this default does (tests hold them to it).
        """
        return find_action(action, self.legal_actions(seat))

    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction unless `action` is legal for `seat` now (default: by enumeration)."""
        if seat not in self.to_act():
            raise NotYourDecision("not_your_turn", action=action, seat=seat)
        legal = self.legal_actions(seat)
        if find_action(action, legal) is None:
            code, params = near_miss(action, legal) or self.explain_illegal(seat, action)
            raise IllegalAction(code, params, action=action, seat=seat)

    def explain_illegal(self, seat: int, action: Action) -> tuple[str, dict]:
        """Why `action` is not legal, as (code, params); games override with specifics.

        It may be given anything a client sent (lists, objects, None where text is meant) and must
        not fail on it.
        """
        return "not_allowed", {}

    def turn_marker(self) -> str | int | None:
        """Changes whenever a new turn or round begins (ruling S1: the clock runs per turn).

        The site restarts the clock of every seat to act when this changes, and of any
        seat that newly has to decide.  Games whose seats can stay to act across a turn
        boundary (a Toppo round that ends and a new one begins) must override it.
        """
        return None

    def undoable(self, seat: int) -> bool:
        """True when `seat` may take back her last decision this turn (ruling S3)."""
        return False

    def unconfirmed_seat(self) -> int | None:
        """The seat whose turn holds decisions she has not confirmed yet, or None (ruling S3, amended).

        While it is set, `view` shows every other seat and spectators the table as it was
        when her turn began, and the site shows the log lines of those decisions to her
        alone; both reach the others when she confirms.  A game in which another seat had
        to decide during her turn would have to make everything up to that point public
        there (and no longer undoable); no game of the site has such a turn yet.
        """
        return None

    # --- information ------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """What `seat` (None: a spectator) may see; the only thing that leaves the server."""
        raise NotImplementedError

    def results(self) -> list[Result]:
        """One Result per seat; only meaningful when is_over()."""
        raise NotImplementedError

    def scores(self) -> list[float]:
        """The current score of each seat by the game's own counting (bots use it)."""
        raise NotImplementedError

    def describe(self, seat: int, action: Action, before: "State | None" = None) -> list[dict]:
        """The log entry of `action` by `seat`, as data, revealing nothing hidden.

        A list of phrases, each a JSON object with a "code" naming what happened (e.g.
        "toppo.reveal") and its parameters (seats as indexes, cards, cells): never words, which
        the site chooses in each reader's language (decision 13).  Called after the action was
        applied; `before` is the state it was applied to.
        """
        return [{"code": "action", "seat": seat, "type": action.get("type", "action")}]

    # --- storage ----------------------------------------------------------
    def to_json(self) -> dict:
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: dict) -> "State":
        raise NotImplementedError

    def clone(self) -> "State":
        return copy.deepcopy(self)


class Game:
    """Metadata of one game and the factory of its states."""

    name: ClassVar[str]  # registry key, e.g. "topology"
    title: ClassVar[str]  # shown to people
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]

    # --- capabilities (decision 15): declared here with defaults, so nobody probes a game with getattr ---
    higher_is_better: ClassVar[bool] = True  # False when scores are penalties (Toppo)
    # The codes of the game's own tie-break rules, in the order they apply, that its results may give as
    # `Result.tie_break` (SHARED aside, which any game may give); empty when equal scores share the place.
    tie_breaks: ClassVar[tuple[str, ...]] = ()
    bot_score_scale: ClassVar[float] = 10.0  # a score lead that is about a sure win (the bots' outlook)
    # The paces a table of the game may be played at: by correspondence always; "live" (everyone at once, seconds
    # per move) only where the rules say how a game without turns goes (Toppo, ruling P3).
    paces: ClassVar[tuple[str, ...]] = ("correspondence",)
    # The option through which the engine learns the table's pace, which the site fills in from the table (so no
    # form asks for it twice); None when the rules are the same at every pace.
    pace_option: ClassVar[str | None] = None

    def validate_options(self, players: int, options: dict | None) -> dict:
        """Fill defaults and check every option; raise InvalidOptions with a code saying which and why."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not self.min_players <= players <= self.max_players
        ):
            raise InvalidOptions(
                "options.players",
                {"game": self.name, "min": self.min_players, "max": self.max_players, "players": _show(players)},
            )
        options = dict(options or {})
        known = {o.name for o in self.options}
        unknown = sorted(map(str, set(options) - known))
        if unknown:
            raise InvalidOptions(
                "options.unknown", {"game": self.name, "names": unknown, "known": [o.name for o in self.options]}
            )
        clean = {}
        for opt in self.options:
            value = options.get(opt.name, opt.default)
            clean[opt.name] = _check_option(self.name, opt, value)
        return self.check_options(players, clean)

    def check_options(self, players: int, options: dict) -> dict:
        """Game-specific checks across options (override); return the cleaned options."""
        return options

    def new_state(self, players: int, options: dict | None, seed: int | str) -> State:
        """A fresh game; options are validated here too."""
        raise NotImplementedError

    def load(self, data: dict) -> State:
        return self.state_class.from_json(data)

    def determinize(self, view: dict, seat: int, rng: random.Random) -> State:
        """A full state consistent with `view` (hidden parts sampled with `rng`).

        Bots search over such states so that they never see what their seat cannot.
        """
        raise NotImplementedError

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """What a missed deadline plays for `seat`, when the rules say so (Toppo: renew, ruling P4).

        None (the default) means the site's bot plays the turn for her (ruling S1).
        """
        return None

    def plant_secrets(self, state: State) -> dict[int | None, list[str]]:
        """Test support: put unique marker strings into every hidden place of `state`.

        Returns, per seat, the markers that seat may see (None: markers nobody may
        see, such as the deck order or the seed).  The conformance test then checks
        that no view of another seat contains them.  The state may become unplayable;
        only `view` is called on it afterwards.
        """
        raise NotImplementedError

    def metadata(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_json() for o in self.options],
            "paces": list(self.paces),
            "pace_option": self.pace_option,
            "higher_is_better": self.higher_is_better,
            "tie_breaks": list(self.tie_breaks),
        }

    def options_at_pace(self, options: dict | None, pace: str) -> dict:
        """The table's options with its pace filled in where the game reads it (`pace_option`)."""
        options = dict(options or {})
        if self.pace_option is not None:
            options[self.pace_option] = pace
        return options

    def options_chosen(self, options: dict) -> dict:
        """The options a player chose, without the one the table's pace fills in (a rematch passes these on)."""
        return {name: value for name, value in options.items() if name != self.pace_option}


def _check_option(game: str, opt: Option, value: Any) -> Any:
    """The value if the option takes it; else InvalidOptions("options.<what>", {"game", "option", ...})."""

    def refuse(code: str, **facts):
        raise InvalidOptions(code, {"game": game, "option": opt.name, **facts})

    if opt.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            refuse("options.whole_number")
        if opt.min_value is not None and value < opt.min_value:
            refuse("options.at_least", min=opt.min_value)
        if opt.max_value is not None and value > opt.max_value:
            refuse("options.at_most", max=opt.max_value)
        if opt.choices and value not in opt.choices:
            refuse("options.one_of", choices=list(opt.choices))
    elif opt.kind == "bool":
        if not isinstance(value, bool):
            refuse("options.true_or_false")
    elif opt.kind == "choice":
        if not _hashable(value) or value not in opt.choices:
            refuse("options.one_of", choices=list(opt.choices))
    elif opt.kind == "list":
        if not isinstance(value, list):
            refuse("options.list")
        if opt.choices and any(not _hashable(v) or v not in opt.choices for v in value):
            bad = [_show(v) for v in value if not _hashable(v) or v not in opt.choices]
            refuse("options.unknown_values", values=bad, choices=list(opt.choices))
    return value


def _hashable(value) -> bool:
    """A JSON scalar, the only kind of value an option's choices hold (a list or object is never one)."""
    return value is None or isinstance(value, (str, int, float, bool))


_REGISTRY: dict[str, Game] = {}
_GAMES_LOADED = False


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make a game available to the site by its name."""
    _REGISTRY[game_class.name] = game_class()
    return game_class


def get_game(name: str) -> Game:
    _load_builtin_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise InvalidOptions("options.no_such_game", {"game": _show(name), "games": sorted(_REGISTRY)}) from None


def all_games() -> dict[str, Game]:
    _load_builtin_games()
    return dict(_REGISTRY)


def _load_builtin_games() -> None:
    """Import every game package of the engine (a subpackage with a game.py), which registers it.

    Found on disk rather than listed, so no module outside a game's own package names it (decision 15).
    """
    global _GAMES_LOADED
    if _GAMES_LOADED:
        return
    here = Path(__file__).parent
    for found in pkgutil.iter_modules([str(here)]):
        if found.ispkg and (here / found.name / "game.py").exists():
            importlib.import_module(f"{__name__.rpartition('.')[0]}.{found.name}")
    _GAMES_LOADED = True  # after the imports: a failed one is tried again, and says why again


def replay(game: Game, players: int, options: dict, seed: int | str, log: list[tuple[int, Action]]) -> State:
    """Rebuild a position from the seed and the action log (seat, action) pairs."""
    state = game.new_state(players, options, seed)
    for seat, action in log:
        state.apply(seat, action)
    return state
