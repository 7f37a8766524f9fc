"""The game protocol every Topos game implements, the registry, and the seeded RNG.

The shape follows OpenSpiel: a `Game` holds metadata and makes states; a `State`
says whose decision it is, enumerates legal actions, applies one, and gives each
seat its own view.  States are plain Python objects that serialise to plain JSON
(`to_json` / `from_json`), so the site can store a snapshot per version and the
seed plus the action log can always rebuild it.

Actions are small JSON dicts with a "type" key, e.g. {"type": "place", ...}.
Two actions are the same action when their canonical JSON is the same.
"""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

Action = dict[str, Any]
SPECTATOR = None  # the seat argument of `view` for someone who is not playing


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """The action is not allowed now; `reason` says why in words a player can act on.

    Raising it must leave the state exactly as it was (ruling G0.4).
    """

    def __init__(self, reason: str, *, action: Action | None = None, seat: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.action = action
        self.seat = seat


class NotYourDecision(IllegalAction):
    """The seat asked to act while it is not one of the seats to decide."""


class InvalidOptions(EngineError):
    """Table options that the game cannot be played with; the message says which and why."""


def canonical(action: Action) -> str:
    """One string per action, independent of key order, for comparing and hashing."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


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
            "name": self.name, "kind": self.kind, "default": self.default,
            "choices": list(self.choices), "label": self.label or self.name,
            "help": self.help, "min": self.min_value, "max": self.max_value,
        }


@dataclass
class Result:
    """A seat's place in a finished game: rank 1 is best, equal ranks share a place."""

    seat: int
    rank: int
    score: float
    detail: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"seat": self.seat, "rank": self.rank, "score": self.score, "detail": self.detail}


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

    def check(self, seat: int, action: Action) -> None:
        """Raise IllegalAction unless `action` is legal for `seat` now (default: by enumeration)."""
        if seat not in self.to_act():
            raise NotYourDecision("It is not your turn to decide.", action=action, seat=seat)
        key = canonical(action)
        if not any(canonical(a) == key for a in self.legal_actions(seat)):
            raise IllegalAction(self.explain_illegal(seat, action), action=action, seat=seat)

    def explain_illegal(self, seat: int, action: Action) -> str:
        """A readable reason why `action` is not legal; games override with specifics."""
        return "That move is not allowed now."

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

    def describe(self, seat: int, action: Action, before: "State | None" = None) -> str:
        """A log line in plain words for `action` by `seat`, revealing nothing hidden.

        Called after the action was applied; `before` is the state it was applied to.
        """
        return f"Seat {seat + 1}: {action.get('type', 'action')}"

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

    name: ClassVar[str]          # registry key, e.g. "topology"
    title: ClassVar[str]         # shown to people
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]

    def validate_options(self, players: int, options: dict | None) -> dict:
        """Fill defaults and check every option; raise InvalidOptions with a clear message."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, not {players}."
            )
        options = dict(options or {})
        known = {o.name for o in self.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidOptions(f"Unknown option(s) for {self.title}: {', '.join(unknown)}.")
        clean = {}
        for opt in self.options:
            value = options.get(opt.name, opt.default)
            clean[opt.name] = _check_option(opt, value)
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
            "name": self.name, "title": self.title,
            "min_players": self.min_players, "max_players": self.max_players,
            "options": [o.to_json() for o in self.options],
        }


def _check_option(opt: Option, value: Any) -> Any:
    label = opt.label or opt.name
    if opt.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"Option '{label}' must be a whole number.")
        if opt.min_value is not None and value < opt.min_value:
            raise InvalidOptions(f"Option '{label}' must be at least {opt.min_value}.")
        if opt.max_value is not None and value > opt.max_value:
            raise InvalidOptions(f"Option '{label}' must be at most {opt.max_value}.")
        if opt.choices and value not in opt.choices:
            raise InvalidOptions(f"Option '{label}' must be one of {', '.join(map(str, opt.choices))}.")
    elif opt.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidOptions(f"Option '{label}' must be true or false.")
    elif opt.kind == "choice":
        if value not in opt.choices:
            raise InvalidOptions(f"Option '{label}' must be one of: {', '.join(map(str, opt.choices))}.")
    elif opt.kind == "list":
        if not isinstance(value, list):
            raise InvalidOptions(f"Option '{label}' must be a list.")
        if opt.choices and any(v not in opt.choices for v in value):
            bad = [v for v in value if v not in opt.choices]
            raise InvalidOptions(f"Option '{label}' has unknown value(s): {', '.join(map(str, bad))}.")
    return value


_REGISTRY: dict[str, Game] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make a game available to the site by its name."""
    _REGISTRY[game_class.name] = game_class()
    return game_class


def get_game(name: str) -> Game:
    _load_builtin_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise InvalidOptions(f"There is no game called '{name}'.") from None


def all_games() -> dict[str, Game]:
    _load_builtin_games()
    return dict(_REGISTRY)


def _load_builtin_games() -> None:
    # Importing the game packages registers them; a package not written yet is skipped.
    import importlib

    for module in ("engine.topology", "engine.topoum", "engine.toppo"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def replay(game: Game, players: int, options: dict, seed: int | str, log: list[tuple[int, Action]]) -> State:
    """Rebuild a position from the seed and the action log (seat, action) pairs."""
    state = game.new_state(players, options, seed)
    for seat, action in log:
        state.apply(seat, action)
    return state
