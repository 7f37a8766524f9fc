"""Live pace (ruling P3): no turns, every player acts when she likes, actions apply in arrival order.

Listed actions (legal_actions) are the ones that are right at this moment: reveal, every
top order and match that fits, renew, toppo below ten cards, and the display votes.  A
wrong call is still accepted and penalised, exactly as at the table: a top or match made
with a full line that does not fit the display, or toppo with ten or more cards.  Wrong
calls are not listed: with them, a player picking among listed actions at random shouts
a wrong call nearly every time, the penalties feed the stack back into the decks, and the
hand practically never ends (measured: with even 3% of decisions wrong, a two-player match
takes about 100,000 decisions instead of about 1,700).

Top, match and renew need a full line: one whose line went back to the deck on an
interruption (the player's browser had not heard of it yet) is refused, not penalised, as early
reveals are.  Toppo needs no line and is never refused: right or wrong, it counts at any
moment, while someone else is restarting too (ruling P3).
"""

from __future__ import annotations

from engine.core import Action, IllegalAction

from . import table
from .actions import VOTES, parse_order, parse_pairs
from .cards import TOPPO_LIMIT, card_json, is_top, match_choices, match_fault, top_orders


def locked(state, seat: int) -> bool:
    """True while someone else must reveal her first card before this seat may play (P3)."""
    return state.restarter is not None and state.restarter != seat


def has_action(state, seat: int) -> bool:
    """Cheap form of `bool(legal(state, seat))`."""
    line, deck = state.lines[seat], state.decks[seat]
    if len(line) == state.size or state.held(seat) < TOPPO_LIMIT:
        return True
    if not locked(state, seat) and deck:
        return True
    return bool(table.vote_actions(state, seat))


def only_proposes(state, seat: int) -> bool:
    """Cheap form of: every action `legal` lists is propose_replace (none listed counts too).  A seat whose line went
    back on an interruption waits so while someone else restarts (bots: hints.idle)."""
    line = state.lines[seat]
    if len(line) == state.size or state.held(seat) < TOPPO_LIMIT:
        return False  # top, match and renew, or toppo
    if not locked(state, seat) and state.decks[seat]:
        return False  # reveal
    return state.proposal is None or seat in state.proposal["agreed"]  # propose, or nothing at all


def legal(state, seat: int) -> list[Action]:
    line, size = state.lines[seat], state.size
    acts: list[Action] = []
    if not locked(state, seat) and len(line) < size and state.decks[seat]:
        acts.append({"type": "reveal"})
    if len(line) == size:
        tops = state.tops()
        acts += [{"type": "top", "order": o} for o in top_orders(line, tops)]
        acts += [{"type": "match", "pairs": p} for p in match_choices(line, tops)]
        acts.append({"type": "renew"})
    if state.held(seat) < TOPPO_LIMIT:
        acts.append({"type": "toppo"})
    return acts + table.vote_actions(state, seat)


def _full_line(state, seat: int, call: str) -> None:
    have = len(state.lines[seat])
    bumped = state.bumped[seat] if state.bumped else None
    if have == 0 and bumped:
        # Someone's call took her line while she was laying it (her browser had not heard yet): say whose.
        raise IllegalAction("toppo.beaten", {"call": call, "by": bumped["by"], "by_call": bumped["call"]})
    if have != state.size:
        raise IllegalAction("toppo.live_line_short", {"call": call, "size": state.size, "have": have})


def validate(state, seat: int, kind: str, action: Action) -> tuple:
    size = state.size
    if kind == "reveal":
        if locked(state, seat):
            raise IllegalAction("toppo.wait_restarter", {"restarter": state.restarter})  # ruling P3
        if len(state.lines[seat]) >= size:
            raise IllegalAction("toppo.line_full", {"size": size})
        if not state.decks[seat]:
            raise IllegalAction("toppo.deck_empty")
        return ("reveal",)
    if kind == "top":
        order = parse_order(action, size)
        _full_line(state, seat, "top")
        return ("top", order, is_top(state.lines[seat], state.tops(), order))
    if kind == "match":
        pairs = parse_pairs(action, size)
        _full_line(state, seat, "match")
        return ("match", pairs, match_fault(state.lines[seat], state.tops(), pairs) is None)
    if kind == "renew":
        _full_line(state, seat, "renew")
        return ("renew",)
    if kind == "toppo":
        # A toppo call is never refused for being early, right or wrong: only reveals wait for the
        # restarter (ruling P3). A wrong one is penalised at any moment, during the lock too.
        return ("toppo", state.held(seat) < TOPPO_LIMIT)
    if kind in VOTES:
        table.check_vote(state, seat, kind)
        return (kind,)
    raise IllegalAction("toppo.live_actions")


def execute(state, seat: int, plan: tuple) -> None:
    kind = plan[0]
    if state.bumped and kind not in VOTES:
        state.bumped[seat] = None  # she has acted since her line was sent back: she knows (decision 26)
    if kind == "reveal":
        (card,) = table.take_from_deck(state, seat, 1)
        state.lines[seat].append(card)
        state.events.append({"kind": "reveal", "seat": seat, "card": card_json(card)})
        if state.restarter == seat:
            state.restarter = None  # play is open again for everyone (rules: Restart)
    elif kind == "top":
        if plan[2]:
            table.lay_top(state, seat, plan[1])
        else:
            table.penalise(state, seat, "top")
        interrupt(state, seat, "top" if plan[2] else "wrong_top")
    elif kind == "match":
        if plan[2]:
            table.lay_match(state, seat, plan[1])
        else:
            # A wrong match: she takes her cards back and pays; play stops for everyone (rules: Matching).
            table.penalise(state, seat, "match")
            interrupt(state, seat, "wrong_match")
    elif kind == "renew":
        back = table.line_back(state, seat)
        state.events.append({"kind": "renew", "seat": seat, "back": back})
    elif kind == "toppo":
        if plan[1]:
            table.end_hand(state, seat)
        else:
            table.penalise(state, seat, "toppo")
            interrupt(state, seat, "wrong_toppo")
    else:
        table.vote(state, seat, kind)
        if table.everyone_agreed(state):
            table.replace_display(state)


def interrupt(state, seat: int, call: str) -> None:
    """Everyone else's line goes back; nobody reveals before `seat` has (P3).

    Each seat whose line held cards is told whose call sent them back (`bumped`, public as lines are), until
    she acts again: a page never just wipes what a person was laying out (decision 26)."""
    if len(state.bumped) != state.players:
        state.bumped = [None] * state.players
    for other in range(state.players):
        if other != seat and state.lines[other]:
            state.bumped[other] = {"by": seat, "call": call, "cards": len(state.lines[other])}
    table.all_lines_back(state, but=seat)
    state.restarter = seat
    state.events.append({"kind": "interrupt", "restarter": seat})


def plan_of_legal(kind: str, action: Action) -> tuple:
    """The plan `validate` makes of an action listed by `legal`, without checking it again: listed calls are
    right ones (a wrong call is accepted and penalised, but never listed)."""
    if kind in ("top", "match"):
        return (kind, action["order" if kind == "top" else "pairs"], True)
    if kind == "toppo":
        return ("toppo", True)
    return (kind,)
