"""Topology: turns, actions, views and results (rulings G0, L1-L7, S3).

Actions (JSON dicts; cells are [q, r] lists, geometry.py fixes the sides):
    {"type": "place", "tile": t, "cells": [[qA, rA], [qB, rB]], "orientation": o}
        put revealed tile t with its anchor on cells[0]; cells[1] must be
        neighbour(cells[0], o).  For a design a half-turn leaves unchanged,
        (A, o) and (B, o + 3) are the same placement; only o in 0..2 is offered
        and accepted for it, so every listed placement is a different position.
    {"type": "end_turn"}   confirm the turn once every revealed tile is down; it scores now.  Until then
                           the other seats see the table as the turn began (ruling S3, amended).
    {"type": "undo"}       take back the last placement (or turn-over) of this turn (ruling S3).
  Advanced variant (ruling L6), the first decision of each turn:
    {"type": "reveal"}            reveal a third tile (cannot be taken back);
    {"type": "turn_over", "tile": t}   turn placed tile t half a turn in place;
    {"type": "decline"}           only when no tile is left to reveal: keep every tile as it is.
  legal_actions lists "undo" too while it is allowed (bots leave it out).  Actions are
  read-only: the place actions of one call share their "cells" lists.

View (JSON): players, advanced, seat, start_player, current (None when over), turn, over,
stack_size, board [{tile, design, anchor, orientation, cells, curves}] with the drawing data of
geometry.placed_curves, revealed, hand [{tile, design, pairs, symmetric}] (pairs in the tile's
own end numbering, see geometry.py), steps, placed_this_turn, decided, undoable, scores,
last_turn, history [{turn, seat, points, rings: [{value, inner, points}]}], rings [{value,
curves: [[tile, end, end], ...]}] and results once over.  Never the stack order or the seed.

Where the rules are silent, the site plays so:
  - the start tile is the top tile of the shuffled stack, laid on (0, 0)-(1, 0), orientation 0;
  - advanced variant: the reveal-or-turn-over choice is the turn's first decision, before any
    placement; any placed tile may be turned, the start tile included; when no face-down tile
    is left the player may also decline the turn-over;
  - a ring counts as closed this turn when it runs through a tile placed this turn (rings
    present at the start of the turn, or right after the turn-over, do not score);
  - ties (ruling L7) are broken by each tied player's latest turn, the earlier one ranking
    higher, so ranks are never shared in a played game;
  - a turn is private until end_turn (ruling S3, amended): the other seats and spectators see the
    table as the turn began, with the tiles revealed at its start (face up for everyone, as at a real
    table) but not where she puts them nor a turn-over.  A third tile revealed in the advanced variant
    is a draw: it cannot be taken back, and although a real table would see it at once, it shows
    with the rest of the turn on confirmation, since asking for it is one of her decisions and nobody
    else decides before then.
"""
from __future__ import annotations

import random

from engine.core import (
    Action,
    Game,
    IllegalAction,
    InvalidOptions,
    NotYourDecision,
    Option,
    Result,
    State,
    action_type,
    is_whole,
    make_rng,
    register,
)
from engine.hexgrid import neighbour

from .board import Board
from .geometry import placed_curves, second_cell
from .rings import find_rings, score_rings
from .tiles import TILE_COUNT, design_of, designs, symmetric

START_CELL = (0, 0)  # the first tile lies on (0, 0) and (1, 0), orientation 0
TILES_PER_TURN = {2: 3, 3: 2, 4: 2}  # ruling L5
ADVANCED_FIRST_REVEAL = 2  # ruling L6
CHOICES = ("reveal", "turn_over", "decline")
# Each action type and its fields besides "type": nothing more, nothing less (ruling G0.4).
FIELDS = {"place": ("tile", "cells", "orientation"), "end_turn": (), "undo": (), "reveal": (),
          "turn_over": ("tile",), "decline": ()}


class TopologyState(State):
    """A position of Topology: the table, this turn's revealed tiles and steps, the scores."""

    def __init__(self, *, players: int, advanced: bool, seed, stack: list, start_player: int,
                 board: Board, current: int | None, turn: int, revealed: list[int], steps: list[dict],
                 scores: list[int], last_turn: list, history: list[dict]) -> None:
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
        self.history = history  # one entry per finished turn: who, points, rings

    # --- derived facts of the turn -----------------------------------------------------------
    def placed_now(self) -> list[int]:
        """Tiles placed this turn, in order."""
        return [s["tile"] for s in self.steps if s["type"] == "place"]

    def hand(self) -> list[int]:
        """Revealed tiles still waiting to be placed this turn."""
        placed = set(self.placed_now())
        return [t for t in self.revealed if t not in placed]

    def decided(self) -> bool:
        """False while an advanced-variant turn still needs its reveal-or-turn-over choice."""
        return not self.advanced or any(s["type"] in CHOICES for s in self.steps)

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

    # --- actions -----------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current:
            return []
        if not self.decided():
            actions: list[Action] = [{"type": "reveal"}] if self.stack else [{"type": "decline"}]
            actions += [{"type": "turn_over", "tile": t} for t in self.board.tiles]
        elif self.hand():
            spots = self.board.spots()
            sym = symmetric()
            # One cells list per spot, shared by the tiles' actions: half the allocations (actions are read-only).
            full = [(o, [[a[0], a[1]], [b[0], b[1]]]) for a, o, b in spots]
            halves = [spot for spot in full if spot[0] < 3]  # enough for a design a half-turn keeps
            actions = [
                {"type": "place", "tile": tile, "cells": cells, "orientation": o}
                for tile in self.hand()
                for o, cells in (halves if sym[design_of(tile)] else full)
            ]
        else:
            actions = [{"type": "end_turn"}]
        if self.undoable(seat):
            actions.append({"type": "undo"})
        return actions

    def check(self, seat: int, action: Action) -> None:
        self._validate(seat, action)

    def apply(self, seat: int, action: Action) -> None:
        kind, arg = self._validate(seat, action)
        if kind == "place":
            tile, anchor, orientation = arg
            self.board.place(tile, anchor, orientation)
            self.steps.append({"type": "place", "tile": tile})
        elif kind == "end_turn":
            self._end_turn(seat)
        elif kind == "undo":
            step = self.steps.pop()
            if step["type"] == "place":
                self.board.remove(step["tile"])
            elif step["type"] == "turn_over":
                self.board.turn_over(step["tile"])  # a half-turn undoes itself
        elif kind == "reveal":
            tile = self.stack.pop()
            self.revealed.append(tile)
            self.steps.append({"type": "reveal", "tile": tile})
        elif kind == "turn_over":
            self.board.turn_over(arg)
            self.steps.append({"type": "turn_over", "tile": arg})
        elif kind == "decline":
            self.steps.append({"type": "decline"})

    def _validate(self, seat: int, action: Action):
        """Check `action` fully without changing anything; return (kind, parsed argument)."""
        if self.current is None:
            raise NotYourDecision("game_over", action=action, seat=seat)
        if seat != self.current:
            raise NotYourDecision("topology.turn_of", {"seat": self.current}, action=action, seat=seat)
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str) or kind not in FIELDS:
            raise IllegalAction("topology.unknown", {"advanced": self.advanced}, action=action, seat=seat)
        # Exactly the fields of its type; the values are checked below, whole numbers as ints (G0.4).
        # Placements are far too many to list and compare at every call.
        try:
            action_type(action, FIELDS, "Topology")
        except IllegalAction as err:
            err.seat = seat
            raise

        def refuse(code: str, **params):
            raise IllegalAction(f"topology.{code}", params, action=action, seat=seat)

        if kind == "undo":
            if not self.steps:
                refuse("nothing_to_undo")
            if self.steps[-1]["type"] == "reveal":
                refuse("undo_reveal")
            return kind, None
        if kind in CHOICES:
            if not self.advanced:
                refuse("advanced_only")
            if self.decided():
                refuse("already_chosen")
            if kind == "reveal":
                if not self.stack:
                    refuse("stack_empty")
                return kind, None
            if kind == "decline":
                if self.stack:
                    refuse("must_choose")
                return kind, None
            tile = action.get("tile")
            if not is_whole(tile) or tile not in self.board.tiles:
                refuse("turn_which")
            return kind, tile
        if not self.decided():
            refuse("choose_first")
        hand = self.hand()
        if kind == "end_turn":
            if hand:
                refuse("place_all", left=len(hand))
            return kind, None
        return kind, self._validate_place(action, hand, refuse)

    def _validate_place(self, action: Action, hand: list[int], refuse):
        """The parsed (tile, anchor, orientation) of a legal placement, or a refusal (code and facts)."""
        if not hand:
            refuse("all_placed")
        tile = action.get("tile")
        if not is_whole(tile) or tile not in hand:
            if is_whole(tile) and tile in self.board.tiles:
                refuse("tile_placed")
            refuse("tile_choice", tiles=list(hand))
        cells = action.get("cells")
        if not (isinstance(cells, list) and len(cells) == 2 and all(
                isinstance(c, list) and len(c) == 2 and all(is_whole(v) for v in c)
                for c in cells)):
            refuse("cells_shape")
        a, b = tuple(cells[0]), tuple(cells[1])
        orientation = action.get("orientation")
        if not is_whole(orientation) or not 0 <= orientation <= 5:
            refuse("orientation")
        if b not in [neighbour(a, d) for d in range(6)]:
            refuse("not_neighbours")
        if second_cell(a, orientation) != b:
            refuse("second_cell", orientation=orientation, cell=list(second_cell(a, orientation)))
        if orientation >= 3 and symmetric()[design_of(tile)]:
            refuse("symmetric", cells=[list(b), list(a)], orientation=orientation - 3)
        for cell in (a, b):
            if cell in self.board.cells:
                refuse("covered", cell=list(cell))
        if not self.board.touches(a, orientation):
            refuse("not_touching")
        return tile, a, orientation

    def explain_illegal(self, seat: int, action: Action) -> tuple[str, dict]:
        try:
            self._validate(seat, action)
        except IllegalAction as exc:
            return exc.reason
        return "allowed", {}

    # --- turns ---------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        """Reveal the tiles of the turn that begins (rulings L5, L6)."""
        if self.advanced:
            count = ADVANCED_FIRST_REVEAL
        elif self.players > 2 and self.turn == 0:
            count = 1  # the start player places a single tile in her first turn
        else:
            count = TILES_PER_TURN[self.players]
        self.revealed = [self.stack.pop() for _ in range(min(count, len(self.stack)))]
        self.steps = []

    def _end_turn(self, seat: int) -> None:
        points, detail = score_rings(find_rings(self.board), set(self.placed_now()))
        self.scores_[seat] += points
        self.history.append({"turn": self.turn, "seat": seat, "points": points, "rings": detail})
        self.last_turn[seat] = self.turn
        self.turn += 1
        if self.stack:
            self.current = (seat + 1) % self.players
            self._start_turn()
        else:  # the last tiles are down: the game ends (ruling L5)
            self.current = None
            self.revealed, self.steps = [], []

    # --- information -----------------------------------------------------------------------------
    def rings(self):
        """The closed rings now on the table."""
        return find_rings(self.board)

    def view(self, seat: int | None) -> dict:
        """Everything on the table and in the score track; never the stack order or the seed.

        Another seat's unconfirmed turn shows as it began (ruling S3, amended).
        """
        if self.unconfirmed_seat() not in (None, seat):
            return self.turn_start().view(seat)
        all_designs = designs()
        board = []
        for tile, (anchor, orientation) in self.board.tiles.items():
            drawing = placed_curves(all_designs[design_of(tile)], anchor, orientation)
            board.append({"tile": tile, "design": design_of(tile), "anchor": list(anchor),
                          "orientation": orientation, **drawing})
        hand = [{"tile": t, "design": design_of(t), "pairs": [list(p) for p in all_designs[design_of(t)]],
                 "symmetric": symmetric()[design_of(t)]} for t in self.hand()]
        return {
            "game": "topology",
            "seat": seat,
            "players": self.players,
            "advanced": self.advanced,
            "start_player": self.start_player,
            "current": self.current,
            "turn": self.turn,
            "over": self.current is None,
            "stack_size": len(self.stack),
            "board": board,
            "revealed": list(self.revealed),
            "hand": hand,
            "steps": [dict(s) for s in self.steps],
            "placed_this_turn": self.placed_now(),
            "decided": self.decided(),
            "undoable": seat is not None and self.undoable(seat),
            "scores": list(self.scores_),
            "last_turn": list(self.last_turn),
            "history": [dict(h, rings=[dict(r, inner=list(r["inner"])) for r in h["rings"]]) for h in self.history],
            "rings": [r.to_json() for r in self.rings()],
            "results": [r.to_json() for r in self.results()] if self.current is None else None,
        }

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    def results(self) -> list[Result]:
        """Highest score first; among tied players, the later turn ranks lower (ruling L7).

        Seats are ordered by (score, earlier latest turn); two tied seats share a
        rank only if neither has finished a turn, which a full game never allows.
        """
        def key(seat):
            last = self.last_turn[seat]
            return (-self.scores_[seat], -1 if last is None else last)

        order = sorted(range(self.players), key=key)
        results = []
        for seat in order:
            better = sum(1 for other in order if key(other) < key(seat))
            results.append(Result(seat=seat, rank=better + 1, score=float(self.scores_[seat]),
                                  detail={"last_turn": self.last_turn[seat]}))
        return sorted(results, key=lambda r: r.seat)

    def describe(self, seat: int, action: Action, before: "State | None" = None) -> list[dict]:
        """The log entry as data (issue 13): "topology.<what>" with the cells, points and rings."""
        kind = action.get("type")
        out: dict = {"code": f"topology.{kind}", "seat": seat}
        if kind == "place":
            out["cells"] = [list(c) for c in action["cells"]]
        elif kind == "end_turn":
            entry = self.history[-1] if self.history else {"points": 0, "rings": []}
            out["points"] = entry["points"]
            out["rings"] = [{"value": r["value"], "inner": list(r["inner"])} for r in entry["rings"]]
            out["over"] = self.current is None
        elif kind == "turn_over":
            tile = action.get("tile")
            if tile in self.board.tiles:
                anchor, orientation = self.board.tiles[tile]
                out["cells"] = [list(anchor), list(second_cell(anchor, orientation))]
        elif kind not in ("undo", "reveal", "decline"):
            out = {"code": "action", "seat": seat, "type": kind}
        return [out]

    # --- storage -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "players": self.players, "advanced": self.advanced, "seed": self.seed,
            "stack": list(self.stack), "start_player": self.start_player,
            "board": self.board.to_json(), "current": self.current, "turn": self.turn,
            "revealed": list(self.revealed), "steps": [dict(s) for s in self.steps],
            "scores": list(self.scores_), "last_turn": list(self.last_turn),
            "history": [dict(h, rings=[dict(r, inner=list(r["inner"])) for r in h["rings"]]) for h in self.history],
        }

    @classmethod
    def from_json(cls, data: dict) -> "TopologyState":
        return cls(
            players=data["players"], advanced=data["advanced"], seed=data["seed"], stack=list(data["stack"]),
            start_player=data["start_player"], board=Board.from_json(data["board"]), current=data["current"],
            turn=data["turn"], revealed=list(data["revealed"]), steps=[dict(s) for s in data["steps"]],
            scores=list(data["scores"]), last_turn=list(data["last_turn"]),
            history=[dict(h, rings=[dict(r, inner=list(r["inner"])) for r in h["rings"]]) for h in data["history"]],
        )

    def clone(self) -> "TopologyState":
        return TopologyState(
            players=self.players, advanced=self.advanced, seed=self.seed, stack=list(self.stack),
            start_player=self.start_player, board=self.board.copy(), current=self.current, turn=self.turn,
            revealed=list(self.revealed), steps=[dict(s) for s in self.steps], scores=list(self.scores_),
            last_turn=list(self.last_turn), history=list(self.history),  # finished turns are never changed
        )


@register
class TopologyGame(Game):
    """Topology by Markus Hagenauer and Gerd Breitenbach: close rings with double-hex tiles."""

    name = "topology"
    title = "Topology"
    min_players = 2
    max_players = 4
    options = (
        Option("advanced", "bool", False, label="Advanced variant",
               help="Two players only: reveal two tiles, then reveal a third or turn a placed tile half a turn."),
    )
    state_class = TopologyState
    bot_score_scale = 8.0  # a ring or two: a lead of this size is a comfortable one

    def check_options(self, players: int, options: dict) -> dict:
        if options["advanced"] and players != 2:
            raise InvalidOptions("topology.options.advanced_players", {"game": "topology", "players": players})
        return options

    def new_state(self, players: int, options: dict | None, seed) -> TopologyState:
        options = self.validate_options(players, options)
        stack = list(range(TILE_COUNT))
        make_rng(seed, 0).shuffle(stack)  # ruling G0.2: the only shuffle, from the seeded generator
        start_player = make_rng(seed, 1).randrange(players)  # ruling G0.1
        board = Board()
        board.place(stack.pop(), START_CELL, 0)  # setup: one tile face up in the middle
        state = TopologyState(
            players=players, advanced=options["advanced"], seed=seed, stack=stack, start_player=start_player,
            board=board, current=start_player, turn=0, revealed=[], steps=[], scores=[0] * players,
            last_turn=[None] * players, history=[],
        )
        state._start_turn()
        return state

    def determinize(self, view: dict, seat: int, rng: random.Random) -> TopologyState:
        """The seat's view with the face-down tiles (all tiles not yet seen) shuffled by `rng`."""
        seen = {b["tile"] for b in view["board"]} | set(view["revealed"])
        stack = [t for t in range(TILE_COUNT) if t not in seen]
        rng.shuffle(stack)
        if len(stack) != view["stack_size"]:
            raise ValueError("The view does not add up: the unseen tiles differ from the stack size.")
        return TopologyState.from_json({
            "players": view["players"], "advanced": view["advanced"], "seed": None, "stack": stack,
            "start_player": view["start_player"],
            "board": [[b["tile"], b["anchor"][0], b["anchor"][1], b["orientation"]] for b in view["board"]],
            "current": view["current"], "turn": view["turn"], "revealed": view["revealed"], "steps": view["steps"],
            "scores": view["scores"], "last_turn": view["last_turn"], "history": view["history"],
        })

    def plant_secrets(self, state: TopologyState) -> dict[int | None, list[str]]:
        """Mark the seed and every face-down tile; nobody may see them (the stack size stays)."""
        hidden = [f"topology-secret-seed-{id(state)}"]
        state.seed = hidden[0]
        state.stack = [f"topology-secret-stack-{i}-{id(state)}" for i in range(len(state.stack))]
        hidden += state.stack
        return {None: hidden}
