"""What happens to the cards on the table at both paces: the deal, the display, lines going back, penalties,
the display replacement and the end of a hand (rulings P1, P2, P3, P5, P6).

Functions of a ToppoState (state.py), which holds the cards: decks are lists with the top card first; the stack
is a list with its top card last; each display position is a pile, bottom first, whose last card is the visible
one.  The paces decide when these happen (live.py, ruling P3; rounds.py, ruling P4); every change appends what
happened to `state.events` as data (events.py words nothing).
"""

from __future__ import annotations

from engine.core import Action, IllegalAction

from .cards import DECK_SIZE, PENALTY_CARDS, card_json, full_set, sets_for


def deal(state) -> None:
    """Shuffle every card and give each player a face-down deck of 33; the rest is the stack (P2)."""
    cards = full_set(sets_for(state.players))
    state.rng().shuffle(cards)
    state.decks = [cards[i * DECK_SIZE : (i + 1) * DECK_SIZE] for i in range(state.players)]
    state.stack = cards[state.players * DECK_SIZE :]
    state.seen = [[False] * DECK_SIZE for _ in range(state.players)]
    state.lines = [[] for _ in range(state.players)]
    state.display = []
    state.restarter = None
    state.bumped = [None] * state.players
    state.proposal = None
    state.claims = []
    state.round = 0
    state.events.append({"kind": "deal", "hand": state.hand + 1, "start": state.start})


def lay_display(state, size: int) -> None:
    """The start player lays `size` stack cards face up and play begins (P2); the pace starts it (rules.py)."""
    state.size = size
    state.phase = "play"
    state.display = [[card] for card in draw(state, size)]
    state.events.append({"kind": "display", "seat": state.start, "cards": [card_json(p[-1]) for p in state.display]})


def draw(state, count: int) -> list[int]:
    """Up to `count` stack cards; an empty stack is refilled from the covered display cards (P6)."""
    out = []
    for _ in range(count):
        if not state.stack:
            under = [card for pile in state.display for card in pile[:-1]]
            if not under:
                break
            state.display = [pile[-1:] for pile in state.display]
            state.rng().shuffle(under)
            state.stack = under
            state.events.append({"kind": "restock", "cards": len(under)})
        out.append(state.stack.pop())
    return out


def take_from_deck(state, seat: int, count: int) -> list[int]:
    """The top `count` cards of the seat's deck (fewer if it runs out), taken off it."""
    cards = state.decks[seat][:count]
    del state.decks[seat][:count]
    del state.seen[seat][:count]
    return cards


def line_back(state, seat: int) -> int:
    """The seat's line goes, face down, to the bottom of her deck; returns how many cards."""
    line = state.lines[seat]
    state.decks[seat].extend(line)
    state.seen[seat].extend([True] * len(line))  # everyone saw these cards go under (P3 shows lines)
    state.lines[seat] = []
    return len(line)


def all_lines_back(state, *, but: int | None = None) -> None:
    for seat in range(state.players):
        if seat != but:
            line_back(state, seat)


def lay_top(state, seat: int, order: list[int]) -> None:
    """Put the seat's line onto the display in `order`; the display is new, so a proposal lapses."""
    line = state.lines[seat]
    for i, j in enumerate(order):
        state.display[i].append(line[j])
    state.events.append({"kind": "top", "seat": seat, "cards": [card_json(line[j]) for j in order]})
    state.lines[seat] = []
    drop_proposal(state)


def lay_match(state, seat: int, pairs: list[list[int]]) -> None:
    """Put the matched cards onto the display; the rest of her line goes to her deck's bottom."""
    line = state.lines[seat]
    for j, d in pairs:
        state.display[d].append(line[j])
    used = {j for j, _ in pairs}
    state.lines[seat] = [card for j, card in enumerate(line) if j not in used]
    back = line_back(state, seat)
    state.events.append(
        {
            "kind": "match",
            "seat": seat,
            "back": back,
            "pairs": [{"card": card_json(line[j]), "display": d} for j, d in pairs],
        }
    )


def penalise(state, seat: int, call: str) -> None:
    """A wrong call: her line plus five stack cards to the bottom of her deck (rules, P3)."""
    line = [card_json(c) for c in state.lines[seat]]
    line_back(state, seat)
    extra = draw(state, PENALTY_CARDS)
    state.decks[seat].extend(extra)
    state.seen[seat].extend([False] * len(extra))  # penalty cards go under unseen
    state.events.append({"kind": "wrong", "seat": seat, "call": call, "line": line, "penalty": len(extra)})


# --- the display replacement (P6) ---------------------------------------------------------------
def vote_actions(state, seat: int) -> list[Action]:
    """propose_replace while nothing is proposed, agree_replace while the seat has not agreed (P6)."""
    if state.proposal is None:
        return [{"type": "propose_replace"}]
    if seat not in state.proposal["agreed"]:
        return [{"type": "agree_replace"}]
    return []


def check_vote(state, seat: int, kind: str) -> None:
    if kind == "propose_replace" and state.proposal is not None:
        raise IllegalAction("toppo.already_proposed", {"by": state.proposal["by"]})
    if kind == "agree_replace":
        if state.proposal is None:
            raise IllegalAction("toppo.nothing_proposed")
        if seat in state.proposal["agreed"]:
            raise IllegalAction("toppo.already_agreed")


def vote(state, seat: int, kind: str) -> None:
    if kind == "propose_replace":
        state.proposal = {"by": seat, "agreed": [seat]}
    else:
        state.proposal["agreed"] = sorted(state.proposal["agreed"] + [seat])
    state.events.append({"kind": "propose" if kind == "propose_replace" else "agree", "seat": seat})


def drop_proposal(state) -> None:
    if state.proposal is not None:
        state.proposal = None
        state.events.append({"kind": "proposal_lapsed"})


def everyone_agreed(state) -> bool:
    return state.proposal is not None and len(state.proposal["agreed"]) == state.players


def replace_display(state) -> None:
    """Every player agreed: new stack cards go onto the display piles, covering the old ones (P6)."""
    state.proposal = None
    if state.supply() < state.size:
        state.events.append({"kind": "replace_failed", "supply": state.supply()})
        return
    cards = draw(state, state.size)
    for pile, card in zip(state.display, cards):
        pile.append(card)
    state.events.append({"kind": "replaced", "cards": [card_json(c) for c in cards]})


# --- the end of a hand (P5) -----------------------------------------------------------------------
def end_hand(state, caller: int) -> None:
    """Toppo: the caller scores nothing, everyone else a point per card held (P5); then the next hand."""
    points = [0 if seat == caller else state.held(seat) for seat in range(state.players)]
    state.totals = [t + p for t, p in zip(state.totals, points)]
    state.hand_points.append(points)
    state.events.append(
        {
            "kind": "toppo",
            "seat": caller,
            "held": state.held(caller),
            "hand": state.hand + 1,
            "points": points,
            "totals": list(state.totals),
        }
    )
    state.claims = []
    state.restarter = None
    state.proposal = None
    if state.hand + 1 >= state.hands:
        state.phase = "over"
        state.events.append({"kind": "over", "totals": list(state.totals)})
        return
    state.hand += 1
    worst = max(state.totals)
    tied = [seat for seat in range(state.players) if state.totals[seat] == worst]
    # Highest running total starts and chooses (rules: 3, 4 or 5 cards); a tie is drawn (G0.1).
    state.chooser = tied[0] if len(tied) == 1 else tied[state.rng().randrange(len(tied))]
    state.start = state.chooser
    state.size = None
    state.phase = "choose_display"
    deal(state)
