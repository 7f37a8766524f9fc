"""The Topoum position: compact per-cell arrays plus cards, medals and the current decision."""

from __future__ import annotations

from engine.core import IllegalAction, NotYourDecision, State, find_action

from . import board as B
from .board import geometry
from .events import describe, explain_illegal
from .rules import apply_action, legal_actions, legal_actions_of_type
from .scoring import line_keys, results
from .view import view as seat_view

# Fields copied as flat lists by clone(); nested ones are listed apart.
_FLAT = (
    "tile",
    "feat",
    "bf",
    "mole",
    "mflag",
    "medals",
    "tiles_left",
    "moles_left",
    "deck",
    "line",
    "trash",
    "crate_values",
    "obst_left",
    "order",
    "line_used",
    "turn_log",
)
_NESTED = ("prisoners", "hands", "piles", "crate_known")
_SCALAR = (
    "n",
    "opts",
    "seed",
    "rng_counter",
    "rc",
    "peace",
    "press",
    "farmer",
    "pool",
    "start",
    "cur",
    "phase",
    "step",
    "stage",
    "pending",
    "hand_used",
    "start_lines",
    "undo_floor",
    "snap",
    "final",
    "removed",
    "dyn_pending",
    "turns",
)


class _KeptAtTurnStart:
    """A field of the turn's start (TopoumState._keep_turn_start): taken when first read or written, kept in the
    state's own dict under the same name."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, state, owner=None):
        if state is None:
            return self
        if state._turn_due:
            state._keep_turn_start()
        return state.__dict__[self.name]

    def __set__(self, state, value) -> None:
        if state._turn_due:
            state._keep_turn_start()
        state.__dict__[self.name] = value


class TopoumState(State):
    """A Topoum game in progress; cells are indexes into the board geometry (see board.py)."""

    def __init__(self, players: int, opts: dict, seed):
        # True from the start of a turn (turn.begin_turn) until its start is kept (`_keep_turn_start`).
        self._turn_due = False
        self.n = players
        self.opts = opts
        self.seed = seed
        self.rng_counter = 0
        geo = self.geo = geometry(opts["radius"])
        size = geo.size
        self.tile = [B.NO_TILE] * size
        self.feat = [B.NONE] * size
        self.bf = [0] * size  # 1: a battlefield square; a tile with 0 is an outpost (ruling T3)
        self.mole = [-1] * size  # colour of the mole on the cell
        self.mflag = [0] * size  # MOVABLE / FRESH of that mole
        self.rc = -1  # the Red Cross piece's cell, -1 beside the board
        self.medals = [10] * players  # score markers start on "10"
        self.tiles_left = [16] * 4  # base tiles in each colour's reserve (ruling T4)
        self.moles_left = [4] * players
        self.prisoners = [[0] * players for _ in range(players)]  # [captor][owner]
        self.deck: list[str] = []  # top card last
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.line: list[str | None] = [None] * 5  # index 0 is slot 1 (ruling T5)
        self.piles: list[list[str]] = [[] for _ in range(players)]  # personal discard piles, top last
        self.trash: list[str] = []  # slot-5 cards discarded unused, face up
        self.peace = False
        self.press = -1
        self.farmer = None
        self.pool = 0  # farmer tiles beside the board, ready to come back
        self.crate_values: list = []
        self.crate_known: list[list[int]] = [[] for _ in range(players)]
        self.obst_left = [4, 4]  # two-sided obstacle tiles left: puddle/rock, ice/gas
        self.start = 0
        self.cur = 0
        self.phase = "setup"  # setup, play, over
        self.step = "centre"  # setup step: centre, ring, mole, obstacle, outpost
        self.order: list[int] = []  # seats still to place in this setup step, next first
        self.stage = "start"  # turn stage: start, action, moving, done
        self.pending = None  # the sub-decision being asked, a small dict
        self.hand_used = 0
        self.line_used: list[int] = []
        self.start_lines = frozenset()
        self.turn_log: list[dict] = []
        self.undo_floor = 0
        self.snap = None  # the position at the start of this turn (undo, ruling S3)
        self.final = None
        self.removed = False  # squares were removed: Law #4 must be checked
        self.dyn_pending = False  # the dynamite was removed and must be placed again
        self.turns = 0
        self.events: list[dict] = []  # the last decision's consequences, as data (describe.py)
        self._legal = None

    # --- copying ------------------------------------------------------------
    def clone(self) -> "TopoumState":
        new = TopoumState.__new__(TopoumState)
        d = new.__dict__
        src = self.__dict__
        # Every field at once (scalars, geo, _turn_due: a clone keeps the same start when it first acts, and
        # _legal: the same position has the same legal list, never changed in place), then the lists copied.
        d.update(src)
        for k in _FLAT:
            d[k] = src[k][:]
        for k in _NESTED:
            d[k] = [x[:] for x in src[k]]
        d["events"] = []
        return new

    def to_json(self) -> dict:
        data = {k: getattr(self, k) for k in _SCALAR if k not in ("snap", "start_lines")}
        for k in _FLAT + _NESTED:
            data[k] = [x[:] if isinstance(x, list) else x for x in getattr(self, k)]
        data["start_lines"] = sorted([a, b] for a, b in self.start_lines)
        data["snap"] = self.snap.to_json() if self.snap is not None else None
        data["opts"] = dict(self.opts)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "TopoumState":
        st = cls.__new__(cls)
        d = st.__dict__
        d["_turn_due"] = False
        for k in _SCALAR:
            if k not in ("snap", "start_lines"):
                d[k] = data[k]
        for k in _FLAT:
            d[k] = list(data[k])
        for k in _NESTED:
            d[k] = [list(x) for x in data[k]]
        st.start_lines = frozenset((a, b) for a, b in data["start_lines"])
        st.snap = cls.from_json(data["snap"]) if data.get("snap") is not None else None
        st.geo = geometry(st.opts["radius"])
        st.events = []
        st._legal = None
        return st

    # --- the start of the turn, kept when first needed ----------------------------
    # turn.begin_turn only marks it due: the seat's lines then (T18) and the position for undo (ruling S3) are
    # taken when first read or before the turn's first action changes anything, so they are the very same; a
    # search that peeks at a turn's end and never plays the next one does not pay for them.
    def _keep_turn_start(self) -> None:
        d = self.__dict__
        d["_turn_due"] = False
        d["start_lines"] = line_keys(self, self.cur)
        d["snap"] = None
        d["snap"] = self.clone()

    # The position at the start of this turn (undo, ruling S3; None in setup), and the lines of sight of the seat to
    # act then, (a, b) with a < b (T18).
    snap = _KeptAtTurnStart()
    start_lines = _KeptAtTurnStart()

    # --- protocol -------------------------------------------------------------
    def turn_marker(self) -> str:
        """Every turn (and every setup placement) restarts the clock of the seat to decide (ruling S1)."""
        return f"{self.phase}:{self.turns}:{self.cur}"

    def to_act(self) -> list[int]:
        return [] if self.phase == "over" else [self.cur]

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[dict]:
        if self.phase == "over" or seat != self.cur:
            return []
        cached = self._legal
        if cached is None:
            cached = self._legal = legal_actions(self)
        return list(cached)

    def check(self, seat: int, action: dict) -> None:
        self._legal_one(seat, action)

    def _legal_one(self, seat: int, action: dict) -> dict:
        """The listed legal action that `action` is exactly (ruling G0.4), or IllegalAction saying why.

        The list is the one the seat was shown (cached until the next action, and shared by clones),
        so checking costs one scan of it; when no list was made, only the legal actions of the type sent
        are listed (rules.legal_actions_of_type). A near miss (2.0 for 2, an extra key) is refused here,
        before anything is applied or logged, with the reason found from the whole list.
        """
        if self.phase == "over":
            raise IllegalAction("game_over", action=action, seat=seat)
        if seat != self.cur:
            raise NotYourDecision("not_your_turn", action=action, seat=seat)
        if self._legal is not None or not isinstance(action, dict) or not isinstance(action.get("type"), str):
            found = find_action(action, self.legal_actions(seat))
        else:
            found = find_action(action, legal_actions_of_type(self, action["type"]))
        if found is None:
            code, params = self.explain_illegal(seat, action)
            raise IllegalAction(code, params, action=action, seat=seat)
        return found

    def apply(self, seat: int, action: dict) -> None:
        found = self._legal_one(seat, action)
        self._legal = None
        apply_action(self, dict(found))  # the engine's own copy: the turn log never holds a caller's object

    def apply_legal(self, seat: int, action: dict) -> None:
        """`apply` for an action taken from this state's own legal list: nothing is checked again."""
        self._legal = None
        apply_action(self, dict(action))

    def explain_illegal(self, seat: int, action: dict) -> tuple[str, dict]:
        return explain_illegal(self, seat, action, self._legal)

    def undoable(self, seat: int) -> bool:
        return (
            self.phase == "play" and seat == self.cur and self.snap is not None and len(self.turn_log) > self.undo_floor
        )

    def unconfirmed_seat(self) -> int | None:
        """The seat to act once she has made a decision of her turn; end_turn confirms it (ruling S3)."""
        return self.cur if self.phase == "play" and self.turn_log else None

    def view(self, seat):
        return seat_view(self, seat)

    def scores(self) -> list[float]:
        return [float(m) for m in self.medals]

    def results(self):
        return results(self)

    def describe(self, seat: int, action: dict, before=None) -> str:
        return describe(self, seat, action, before)
