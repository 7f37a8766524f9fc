"""A Toppo match: hands, the cards on the table, views, results (rulings G0, P1, P2, P5, P6).

The pace rules (who may act, which actions exist, what they do) live in live.py (ruling P3)
and rounds.py (ruling P4); this module holds what both share.

Cards are ints (cards.py).  Decks are lists with the top card first; the stack is a list
with its top card last; each display position is a pile, bottom first, whose last card is
the visible one.
"""
from __future__ import annotations

from engine.core import Action, IllegalAction, NotYourDecision, Result, State, find_action, make_rng

from . import live, rounds
from .actions import kind_of
from .cards import DECK_SIZE, card_json, full_set, sets_for

LIVE, CORRESPONDENCE = "live", "correspondence"


class ToppoState(State):
    """A position of a Toppo match at either pace."""

    FIELDS = ("players", "hands", "pace", "seed", "counter", "hand", "totals", "hand_points", "phase",
              "chooser", "start", "size", "decks", "seen", "lines", "stack", "display", "restarter", "proposal",
              "round", "claims", "last_round", "events")

    def __init__(self, **fields) -> None:
        for name in self.FIELDS:
            setattr(self, name, fields[name])

    @classmethod
    def start_match(cls, players: int, hands: int, pace: str, seed) -> "ToppoState":
        """A new match: the first hand dealt, its start player drawn (G0.1), a display of three (P2)."""
        s = cls(players=players, hands=hands, pace=pace, seed=seed, counter=0, hand=0, totals=[0] * players,
                hand_points=[], phase="play", chooser=None, start=0, size=None, decks=[], seen=[], lines=[], stack=[],
                display=[], restarter=None, proposal=None, round=0, claims=[], last_round=None, events=[])
        s.start = s.rng().randrange(players)
        s.deal()
        s.lay_display(3)
        return s

    # --- randomness and card movements -------------------------------------------------------
    def rng(self):
        """The generator for the next random event; the counter keeps replays identical (G0.2)."""
        rng = make_rng(self.seed, self.counter)
        self.counter += 1
        return rng

    def deal(self) -> None:
        """Shuffle every card and give each player a face-down deck of 33; the rest is the stack (P2)."""
        cards = full_set(sets_for(self.players))
        self.rng().shuffle(cards)
        self.decks = [cards[i * DECK_SIZE:(i + 1) * DECK_SIZE] for i in range(self.players)]
        self.stack = cards[self.players * DECK_SIZE:]
        self.seen = [[False] * DECK_SIZE for _ in range(self.players)]
        self.lines = [[] for _ in range(self.players)]
        self.display = []
        self.restarter = None
        self.proposal = None
        self.claims = []
        self.round = 0
        self.events.append({"kind": "deal", "hand": self.hand + 1, "start": self.start})

    def lay_display(self, size: int) -> None:
        """The start player lays `size` stack cards face up; play begins (P2, P3, P4)."""
        self.size = size
        self.phase = "play"
        self.display = [[card] for card in self.draw(size)]
        self.events.append({"kind": "display", "seat": self.start, "cards": [card_json(p[-1]) for p in self.display]})
        if self.pace == LIVE:
            self.restarter = self.start  # nobody reveals before the start player (rules: Start)
        else:
            rounds.start_round(self)

    def covered(self) -> int:
        """Cards lying under the visible display cards."""
        return sum(len(p) - 1 for p in self.display)

    def supply(self) -> int:
        """Cards the stack can still give, counting the covered display cards that would refill it (P6)."""
        return len(self.stack) + self.covered()

    def draw(self, count: int) -> list[int]:
        """Up to `count` stack cards; an empty stack is refilled from the covered display cards (P6)."""
        out = []
        for _ in range(count):
            if not self.stack:
                under = [card for pile in self.display for card in pile[:-1]]
                if not under:
                    break
                self.display = [pile[-1:] for pile in self.display]
                self.rng().shuffle(under)
                self.stack = under
                self.events.append({"kind": "restock", "cards": len(under)})
            out.append(self.stack.pop())
        return out

    def tops(self) -> list[int]:
        return [pile[-1] for pile in self.display]

    def take_from_deck(self, seat: int, count: int) -> list[int]:
        """The top `count` cards of the seat's deck (fewer if it runs out), taken off it."""
        cards = self.decks[seat][:count]
        del self.decks[seat][:count]
        del self.seen[seat][:count]
        return cards

    def held(self, seat: int) -> int:
        """Cards in the seat's deck and line: what toppo and the penalty points count (P5)."""
        return len(self.decks[seat]) + len(self.lines[seat])

    def line_back(self, seat: int) -> int:
        """The seat's line goes, face down, to the bottom of her deck; returns how many cards."""
        line = self.lines[seat]
        self.decks[seat].extend(line)
        self.seen[seat].extend([True] * len(line))  # everyone saw these cards go under (P3 shows lines)
        self.lines[seat] = []
        return len(line)

    def all_lines_back(self, *, but: int | None = None) -> None:
        for seat in range(self.players):
            if seat != but:
                self.line_back(seat)

    def lay_top(self, seat: int, order: list[int]) -> None:
        """Put the seat's line onto the display in `order`; the display is new, so a proposal lapses."""
        line = self.lines[seat]
        for i, j in enumerate(order):
            self.display[i].append(line[j])
        self.events.append({"kind": "top", "seat": seat, "cards": [card_json(line[j]) for j in order]})
        self.lines[seat] = []
        self.drop_proposal()

    def lay_match(self, seat: int, pairs: list[list[int]]) -> None:
        """Put the matched cards onto the display; the rest of her line goes to her deck's bottom."""
        line = self.lines[seat]
        for j, d in pairs:
            self.display[d].append(line[j])
        used = {j for j, _ in pairs}
        self.lines[seat] = [card for j, card in enumerate(line) if j not in used]
        back = self.line_back(seat)
        self.events.append({"kind": "match", "seat": seat, "back": back,
                            "pairs": [{"card": card_json(line[j]), "display": d} for j, d in pairs]})

    def penalise(self, seat: int, call: str) -> None:
        """A wrong call: her line plus five stack cards to the bottom of her deck (rules, P3)."""
        line = [card_json(c) for c in self.lines[seat]]
        self.line_back(seat)
        extra = self.draw(5)
        self.decks[seat].extend(extra)
        self.seen[seat].extend([False] * len(extra))  # penalty cards go under unseen
        self.events.append({"kind": "wrong", "seat": seat, "call": call, "line": line, "penalty": len(extra)})

    # --- the display replacement (P6) ---------------------------------------------------------
    def drop_proposal(self) -> None:
        if self.proposal is not None:
            self.proposal = None
            self.events.append({"kind": "proposal_lapsed"})

    def vote(self, seat: int, kind: str) -> None:
        if kind == "propose_replace":
            self.proposal = {"by": seat, "agreed": [seat]}
        else:
            self.proposal["agreed"] = sorted(self.proposal["agreed"] + [seat])
        self.events.append({"kind": "propose" if kind == "propose_replace" else "agree", "seat": seat})

    def everyone_agreed(self) -> bool:
        return self.proposal is not None and len(self.proposal["agreed"]) == self.players

    def replace_display(self) -> None:
        """Every player agreed: new stack cards go onto the display piles, covering the old ones (P6)."""
        self.proposal = None
        if self.supply() < self.size:
            self.events.append({"kind": "replace_failed", "supply": self.supply()})
            return
        cards = self.draw(self.size)
        for pile, card in zip(self.display, cards):
            pile.append(card)
        self.events.append({"kind": "replaced", "cards": [card_json(c) for c in cards]})

    # --- the end of a hand ----------------------------------------------------------------------
    def end_hand(self, caller: int) -> None:
        """Toppo: the caller scores nothing, everyone else a point per card held (P5); then the next hand."""
        points = [0 if seat == caller else self.held(seat) for seat in range(self.players)]
        self.totals = [t + p for t, p in zip(self.totals, points)]
        self.hand_points.append(points)
        self.events.append({"kind": "toppo", "seat": caller, "held": self.held(caller), "hand": self.hand + 1,
                            "points": points, "totals": list(self.totals)})
        self.claims = []
        self.restarter = None
        self.proposal = None
        if self.hand + 1 >= self.hands:
            self.phase = "over"
            self.events.append({"kind": "over", "totals": list(self.totals)})
            return
        self.hand += 1
        worst = max(self.totals)
        tied = [seat for seat in range(self.players) if self.totals[seat] == worst]
        # Highest running total starts and chooses (rules: 3, 4 or 5 cards); a tie is drawn (G0.1).
        self.chooser = tied[0] if len(tied) == 1 else tied[self.rng().randrange(len(tied))]
        self.start = self.chooser
        self.size = None
        self.phase = "choose_display"
        self.deal()

    def display_choices(self) -> list[int]:
        """3, 4 or 5 cards; never 5 with two players (rules: Special Cases, P2)."""
        return [3, 4] if self.players == 2 else [3, 4, 5]

    # --- the protocol -------------------------------------------------------------------------
    def turn_marker(self) -> str:
        """A new hand or correspondence round restarts every clock (ruling S1: a Toppo round is a turn)."""
        return f"{self.hand}:{self.round}:{self.phase}"

    def to_act(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "choose_display":
            return [self.chooser]
        if self.pace == LIVE:
            return [seat for seat in range(self.players) if live.has_action(self, seat)]
        return rounds.waiting(self)

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < self.players or self.phase == "over":
            return []
        if self.phase == "choose_display":
            if seat != self.chooser:
                return []
            return [{"type": "choose_display", "size": n} for n in self.display_choices()]
        return live.legal(self, seat) if self.pace == LIVE else rounds.legal(self, seat)

    def vote_actions(self, seat: int) -> list[Action]:
        """propose_replace while nothing is proposed, agree_replace while the seat has not agreed (P6)."""
        if self.proposal is None:
            return [{"type": "propose_replace"}]
        if seat not in self.proposal["agreed"]:
            return [{"type": "agree_replace"}]
        return []

    def check_vote(self, seat: int, kind: str) -> None:
        if kind == "propose_replace" and self.proposal is not None:
            raise IllegalAction("toppo.already_proposed", {"by": self.proposal["by"]})
        if kind == "agree_replace":
            if self.proposal is None:
                raise IllegalAction("toppo.nothing_proposed")
            if seat in self.proposal["agreed"]:
                raise IllegalAction("toppo.already_agreed")

    def validate(self, seat: int, action: Action) -> tuple:
        """The plan for `action` by `seat`, or IllegalAction with the reason; changes nothing."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise NotYourDecision("no_such_seat", {"seat": seat if isinstance(seat, int) else None},
                                  action=action, seat=seat)
        kind = kind_of(action)
        if self.phase == "over":
            raise NotYourDecision("game_over", action=action, seat=seat)
        if self.phase == "choose_display":
            if seat != self.chooser:
                raise NotYourDecision("toppo.chooser", {"chooser": self.chooser}, action=action, seat=seat)
            choices = self.display_choices()
            # Compared exactly (ruling G0.4): a size of 3.0 or true is refused here, not met later by draw().
            if find_action(action, [{"type": "choose_display", "size": n} for n in choices]) is None:
                raise IllegalAction("toppo.choose_size", {"sizes": list(choices)}, action=action, seat=seat)
            return ("choose_display", action["size"])
        if kind == "choose_display":
            raise IllegalAction("toppo.size_later", action=action, seat=seat)
        try:
            pace = live if self.pace == LIVE else rounds
            return pace.validate(self, seat, kind, action)
        except IllegalAction as err:
            err.action, err.seat = action, seat
            raise

    def check(self, seat: int, action: Action) -> None:
        self.validate(seat, action)

    def explain_illegal(self, seat: int, action: Action) -> tuple[str, dict]:
        try:
            self.validate(seat, action)
        except IllegalAction as err:
            return err.reason
        return "allowed", {}

    def apply(self, seat: int, action: Action) -> None:
        plan = self.validate(seat, action)
        self.events = []
        if plan[0] == "choose_display":
            self.events.append({"kind": "choose", "seat": seat, "size": plan[1]})
            self.chooser = None
            self.lay_display(plan[1])
        elif self.pace == LIVE:
            live.execute(self, seat, plan)
        else:
            rounds.execute(self, seat, plan)

    # --- information --------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        """Public table plus the seat's own sealed claim; never the deck orders, stack, covered cards or seed."""
        over = self.phase == "over"
        own = None
        if self.pace == CORRESPONDENCE and seat is not None:
            own = next((_copy(c) for s, c in self.claims if s == seat), None)
        return {
            "game": "toppo", "seat": seat, "players": self.players, "pace": self.pace, "hands": self.hands,
            "hand": self.hand + 1, "phase": self.phase, "chooser": self.chooser,
            "display_choices": self.display_choices() if self.phase == "choose_display" else [],
            "start_player": self.start, "display_size": self.size,
            "display": [{"top": card_json(p[-1]), "height": len(p)} for p in self.display],
            "lines": [[card_json(c) for c in line] for line in self.lines],
            "deck_sizes": [len(d) for d in self.decks],
            "decks_seen": [[card_json(c) if known else None for c, known in zip(d, k)]
                           for d, k in zip(self.decks, self.seen)],
            "held": [self.held(s) for s in range(self.players)],
            "stack_size": len(self.stack), "covered": self.covered(),
            "totals": list(self.totals), "hand_points": [list(p) for p in self.hand_points],
            "restarter": self.restarter,
            "proposal": None if self.proposal is None else {"by": self.proposal["by"],
                                                            "agreed": list(self.proposal["agreed"])},
            "round": self.round if self.pace == CORRESPONDENCE else None,
            # The round's claims resolve in this order, first seat first (ruling P4 amended); public.
            "priority": rounds.priority(self) if self.pace == CORRESPONDENCE and self.phase == "play" else None,
            "claimed": [any(s == seat_ for s, _ in self.claims) for seat_ in range(self.players)],
            # Who claimed when is public, as in the log; not what.  It no longer decides anything (P4 amended).
            "claim_order": [s for s, _ in self.claims],
            "my_claim": own,
            "last_round": _copy(self.last_round),
            "events": _copy(self.events),
            "results": [r.to_json() for r in self.results()] if over else None,
        }

    def scores(self) -> list[float]:
        """Penalty points (lower is better): running totals plus, during a hand, the cards each seat holds (P5)."""
        if self.phase != "play":
            return [float(t) for t in self.totals]
        return [float(self.totals[s] + self.held(s)) for s in range(self.players)]

    def results(self) -> list[Result]:
        """Rank by penalty total, lowest first; equal totals share a rank (P2)."""
        return [Result(seat=s, rank=1 + sum(1 for t in self.totals if t < self.totals[s]),
                       score=float(self.totals[s]),
                       detail={"penalty_points": self.totals[s], "hands": [p[s] for p in self.hand_points]})
                for s in range(self.players)]

    def describe(self, seat: int, action: Action, before: State | None = None) -> list[dict]:
        """The public events of the action, each as a phrase "toppo.<kind>" with its facts (issue 13)."""
        phrases = [{"code": f"toppo.{e['kind']}", **{k: v for k, v in e.items() if k != "kind"}} for e in self.events]
        return phrases or [{"code": "action", "seat": seat, "type": action.get("type", "action")}]

    # --- storage ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {name: _copy(getattr(self, name)) for name in self.FIELDS}

    @classmethod
    def from_json(cls, data: dict) -> "ToppoState":
        fields = {name: _copy(data[name]) for name in cls.FIELDS if name in data}
        if "seen" not in fields:  # stored before decks remembered what everyone saw: nothing known
            fields["seen"] = [[False] * len(d) for d in fields["decks"]]
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
        new.proposal = _copy(self.proposal)
        new.claims = _copy(self.claims)
        return new


def _copy(value):
    """A deep copy of plain JSON data (faster than copy.deepcopy)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
