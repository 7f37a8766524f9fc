"""A Topology position: the table, this turn's revealed tiles and steps, the scores; storage and copies.

The rules (rules.py), the view (view.py) and the log entries (events.py) read and change it.  Its JSON
is what the database stores: only the fields below, never a cache (the board's placement index is
rebuilt on loading).
"""

from __future__ import annotations

from engine.core import Action, IllegalAction, Result, State

from . import events, rules
from .board import Board
from .rings import Ring, find_rings
from .view import view


def copy_history(history: list[dict]) -> list[dict]:
    """Finished turns copied down to their rings, so that no caller shares them with the state."""
    return [dict(entry, rings=[dict(ring, inner=list(ring["inner"])) for ring in entry["rings"]]) for entry in history]


class TopologyState(State):
    """A position of Topology: the table, this turn's revealed tiles and steps, the scores."""

    def __init__(
        self,
        *,
        players: int,
        advanced: bool,
        seed,
        stack: list,
        start_player: int,
        board: Board,
        current: int | None,
        turn: int,
        revealed: list[int],
        steps: list[dict],
        scores: list[int],
        last_turn: list,
        history: list[dict],
    ) -> None:
        self.players = players
        self.advanced = advanced
        self.seed = seed
        self.stack = stack  # face-down tiles, top last; hidden from every view (ruling L5, G0.2)
        self.start_player = start_player
        self.board = board
        self.current = current  # seat whose turn it is; None once the game is over
        self.turn = turn  # turns finished so far; also the index of the turn being played
        self.revealed = revealed  # tiles revealed this turn, in the order they came up
        self.steps = steps  # this turn's decisions, for undo and for scoring
        self.scores_ = scores
        self.last_turn = last_turn  # per seat, the index of her latest finished turn (ruling L7)
        self.history = history  # one entry per finished turn: who, points, rings; never changed once written

    # --- derived facts of the turn -----------------------------------------------------------
    def placed_now(self) -> list[int]:
        """Tiles placed this turn, in order."""
        return [step["tile"] for step in self.steps if step["type"] == "place"]

    def hand(self) -> list[int]:
        """Revealed tiles still waiting to be placed this turn."""
        placed = self.placed_now()
        return [tile for tile in self.revealed if tile not in placed]

    def decided(self) -> bool:
        """False while an advanced-variant turn still needs its reveal-or-turn-over choice."""
        return not self.advanced or any(step["type"] in rules.CHOICES for step in self.steps)

    def rings(self) -> list[Ring]:
        """The closed rings now on the table."""
        return find_rings(self.board)

    # --- whose decision ---------------------------------------------------------------------
    def turn_marker(self) -> int:
        """Each turn restarts the clock of the player to move (ruling S1)."""
        return self.turn

    def to_act(self) -> list[int]:
        return [] if self.current is None else [self.current]

    def undoable(self, seat: int) -> bool:
        """Placements and a turn-over may be taken back; a revealed third tile may not (ruling S3)."""
        return seat == self.current and bool(self.steps) and self.steps[-1]["type"] != "reveal"

    def unconfirmed_seat(self) -> int | None:
        """The player to act once she has made a decision of her turn; end_turn confirms it (ruling S3)."""
        return self.current if self.steps else None

    def turn_start(self) -> "TopologyState":
        """This position with the turn's decisions taken back: the table the others see (ruling S3).

        A third tile revealed this turn goes back on the stack: the others learn it on confirmation.
        """
        start = self.clone()
        for step in reversed(start.steps):
            if step["type"] == "place":
                start.board.remove(step["tile"])
            elif step["type"] == "turn_over":
                start.board.turn_over(step["tile"])  # a half-turn undoes itself
            elif step["type"] == "reveal":
                start.revealed.remove(step["tile"])
                start.stack.append(step["tile"])
        start.steps = []
        return start

    # --- actions (rules.py) ------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        return rules.legal_actions(self, seat)

    def legal_match(self, seat: int, action) -> Action | None:
        return rules.legal_match(self, seat, action)

    def check(self, seat: int, action: Action) -> None:
        rules.validate(self, seat, action)

    def apply(self, seat: int, action: Action) -> None:
        kind, arg = rules.validate(self, seat, action)
        rules.change(self, seat, kind, arg)

    def apply_legal(self, seat: int, action: Action) -> None:
        kind, arg = rules.parse_legal(action)
        rules.change(self, seat, kind, arg)

    def explain_illegal(self, seat: int, action: Action) -> tuple[str, dict]:
        try:
            rules.validate(self, seat, action)
        except IllegalAction as exc:
            return exc.reason
        return "allowed", {}

    def scores(self) -> list[float]:
        return [float(score) for score in self.scores_]

    def results(self) -> list[Result]:
        return rules.results(self)

    # --- information (view.py, events.py) -------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """Everything on the table and in the score track; never the stack order or the seed."""
        return view(self, seat)

    def describe(self, seat: int, action: Action, before: "State | None" = None) -> list[dict]:
        return events.describe(self, seat, action)

    # --- storage -------------------------------------------------------------------------------
    def history_json(self) -> list[dict]:
        """The finished turns as fresh JSON (the entries are shared between clones)."""
        return copy_history(self.history)

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "advanced": self.advanced,
            "seed": self.seed,
            "stack": list(self.stack),
            "start_player": self.start_player,
            "board": self.board.to_json(),
            "current": self.current,
            "turn": self.turn,
            "revealed": list(self.revealed),
            "steps": [dict(step) for step in self.steps],
            "scores": list(self.scores_),
            "last_turn": list(self.last_turn),
            "history": self.history_json(),
        }

    @classmethod
    def from_json(cls, data: dict) -> "TopologyState":
        return cls(
            players=data["players"],
            advanced=data["advanced"],
            seed=data["seed"],
            stack=list(data["stack"]),
            start_player=data["start_player"],
            board=Board.from_json(data["board"]),
            current=data["current"],
            turn=data["turn"],
            revealed=list(data["revealed"]),
            steps=[dict(step) for step in data["steps"]],
            scores=list(data["scores"]),
            last_turn=list(data["last_turn"]),
            history=copy_history(data["history"]),
        )

    def clone(self) -> "TopologyState":
        """An independent copy: what a move changes is copied; finished turns and the board's fits are shared."""
        return TopologyState(
            players=self.players,
            advanced=self.advanced,
            seed=self.seed,
            stack=list(self.stack),
            start_player=self.start_player,
            board=self.board.copy(),
            current=self.current,
            turn=self.turn,
            revealed=list(self.revealed),
            steps=list(self.steps),
            scores=list(self.scores_),
            last_turn=list(self.last_turn),
            history=list(self.history),
        )
