"""A Toppo match as data (rulings P1, P2): hands, totals and the cards on the table, stored as plain JSON.

Cards are ints (cards.py).  Decks are lists with the top card first; the stack is a list with its top card last;
each display position is a pile, bottom first, whose last card is the visible one.  What may happen is in
rules.py (with live.py, rounds.py and table.py), what a seat sees in view.py, the log's data in events.py.
"""

from __future__ import annotations

from engine.core import Action, IllegalAction, Result, State, copy_json, make_rng

from . import events, rules
from .view import seat_view


class ToppoState(State):
    """A position of a Toppo match at either pace."""

    FIELDS = (
        "players",
        "hands",
        "pace",
        "seed",
        "counter",
        "hand",
        "totals",
        "hand_points",
        "phase",
        "chooser",
        "start",
        "size",
        "decks",
        "seen",
        "lines",
        "stack",
        "display",
        "restarter",
        "bumped",
        "proposal",
        "round",
        "claims",
        "last_round",
        "events",
    )

    def __init__(self, **fields) -> None:
        for name in self.FIELDS:
            setattr(self, name, fields[name])

    @classmethod
    def empty(cls, players: int, hands: int, pace: str, seed) -> "ToppoState":
        """A match before its first deal (rules.begin_match deals it)."""
        return cls(
            players=players,
            hands=hands,
            pace=pace,
            seed=seed,
            counter=0,
            hand=0,
            totals=[0] * players,
            hand_points=[],
            phase="play",
            chooser=None,
            start=0,
            size=None,
            decks=[],
            seen=[],
            lines=[],
            stack=[],
            display=[],
            restarter=None,
            bumped=[],
            proposal=None,
            round=0,
            claims=[],
            last_round=None,
            events=[],
        )

    # --- what the data says ---------------------------------------------------------------------
    def rng(self):
        """The generator for the next random event; the counter keeps replays identical (G0.2)."""
        rng = make_rng(self.seed, self.counter)
        self.counter += 1
        return rng

    def tops(self) -> list[int]:
        """The visible display cards."""
        return [pile[-1] for pile in self.display]

    def covered(self) -> int:
        """Cards lying under the visible display cards."""
        return sum(len(p) - 1 for p in self.display)

    def supply(self) -> int:
        """Cards the stack can still give, counting the covered display cards that would refill it (P6)."""
        return len(self.stack) + self.covered()

    def held(self, seat: int) -> int:
        """Cards in the seat's deck and line: what toppo and the penalty points count (P5)."""
        return len(self.decks[seat]) + len(self.lines[seat])

    def display_choices(self) -> list[int]:
        """3, 4 or 5 cards; never 5 with two players (rules: Special Cases, P2)."""
        return [3, 4] if self.players == 2 else [3, 4, 5]

    # --- the protocol (engine.core.State), carried out by the modules named above ----------------
    def turn_marker(self) -> str:
        return rules.turn_marker(self)

    def to_act(self) -> list[int]:
        return rules.to_act(self)

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[Action]:
        return rules.legal_actions(self, seat)

    def check(self, seat: int, action: Action) -> None:
        rules.validate(self, seat, action)

    def explain_illegal(self, seat: int, action: Action) -> tuple[str, dict]:
        try:
            rules.validate(self, seat, action)
        except IllegalAction as err:
            return err.reason
        return "allowed", {}

    def apply(self, seat: int, action: Action) -> None:
        rules.apply(self, seat, action)

    def apply_legal(self, seat: int, action: Action) -> None:
        rules.apply_legal(self, seat, action)

    def view(self, seat: int | None) -> dict:
        return seat_view(self, seat)

    def scores(self) -> list[float]:
        return rules.scores(self)

    def results(self) -> list[Result]:
        return rules.results(self)

    def describe(self, seat: int, action: Action, before: State | None = None) -> list[dict]:
        return events.describe(self, seat, action)

    # --- storage ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {name: copy_json(getattr(self, name)) for name in self.FIELDS}

    @classmethod
    def from_json(cls, data: dict) -> "ToppoState":
        fields = {name: copy_json(data[name]) for name in cls.FIELDS if name in data}
        if "seen" not in fields:  # stored before decks remembered what everyone saw: nothing known
            fields["seen"] = [[False] * len(d) for d in fields["decks"]]
        if "bumped" not in fields:  # stored before the page told whose claim sent a line back (decision 26)
            fields["bumped"] = [None] * fields["players"]
        return cls(**fields)

    def clone(self) -> "ToppoState":
        """A copy for search; events and last_round are shared because they are replaced, never edited."""
        new = ToppoState.__new__(ToppoState)
        new.__dict__.update(self.__dict__)
        new.totals = self.totals[:]
        new.hand_points = [p[:] for p in self.hand_points]
        new.decks = [d[:] for d in self.decks]
        new.seen = [k[:] for k in self.seen]
        new.lines = [line[:] for line in self.lines]
        new.stack = self.stack[:]
        new.display = [p[:] for p in self.display]
        new.bumped = self.bumped[:]  # its items are replaced, never edited
        new.proposal = copy_json(self.proposal)
        new.claims = copy_json(self.claims)
        return new
