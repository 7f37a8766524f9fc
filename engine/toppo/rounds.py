"""Correspondence pace (ruling P4, amended): the hand runs in rounds of sealed claims.

At the start of a round the server fills every line.  Each player makes one claim (top,
match, renew or toppo); a claim that is wrong when made is refused, without penalty.  When
the last claim is in, the round resolves in its priority order, never in the order the
claims arrived (at this pace speed must not matter: a bot would always be first):
  - toppo ends the hand; the claims after it are void;
  - a top that still fits takes the display and interrupts: the claims after it are void;
  - a match is applied when the display cards it named still show those cards;
  - a top or match that no longer fits (a claim before it changed the display) is void.
Then every line left goes to the bottom of its deck, an agreed display replacement
(ruling P6) is made, and the next round starts.

Priority order.  `state.round` counts the rounds of a hand from 1, as the page and the log
show them ("Round 1"); it restarts with every hand (`ToppoState.deal`).  The ruling's "round r
of a hand starts with seat r mod n" counts from 0, so r = state.round - 1: the first round of
every hand starts with seat 0, and each later round with the seat after the previous round's
first seat; then clockwise (seats are numbered clockwise, ruling G0.1).  The order follows
from the round and the number of players alone, so states stored before the amendment load
and resolve by it unchanged.  It is public: every view carries it (`priority`).

Claims are sealed: until the round resolves a seat sees who has claimed (the log says so as
each claim comes in) and her own claim, never the content of another's.  Display votes
(propose/agree) are public and do not use up the claim.
"""

from __future__ import annotations

from engine.core import Action, IllegalAction, NotYourDecision

from . import table
from .actions import VOTES, parse_order, parse_pairs
from .cards import TOPPO_LIMIT, is_top, match_choices, match_fault, top_fault, top_orders


def claimed(state, seat: int) -> bool:
    return any(s == seat for s, _ in state.claims)


def waiting(state) -> list[int]:
    """Seats that have not claimed this round."""
    done = {s for s, _ in state.claims}
    return [seat for seat in range(state.players) if seat not in done]


def priority(state) -> list[int]:
    """The seats in the current round's priority order (ruling P4 amended; counting: module docstring)."""
    n = state.players
    first = (state.round - 1) % n
    return [(first + k) % n for k in range(n)]


def start_round(state) -> None:
    """A new round: every player's line is filled from her deck."""
    state.round += 1
    state.claims = []
    for seat in range(state.players):
        need = state.size - len(state.lines[seat])
        state.lines[seat].extend(table.take_from_deck(state, seat, need))


def legal(state, seat: int) -> list[Action]:
    if claimed(state, seat):
        return []
    line = state.lines[seat]
    acts: list[Action] = []
    if len(line) == state.size:
        tops = state.tops()
        acts += [{"type": "top", "order": o} for o in top_orders(line, tops)]
        acts += [{"type": "match", "pairs": p} for p in match_choices(line, tops)]
    acts.append({"type": "renew"})
    if state.held(seat) < TOPPO_LIMIT:
        acts.append({"type": "toppo"})
    return acts + table.vote_actions(state, seat)


def _full_line(state, seat: int, call: str) -> None:
    if len(state.lines[seat]) != state.size:
        raise IllegalAction("toppo.round_line_short", {"call": call, "size": state.size})


def validate(state, seat: int, kind: str, action: Action) -> tuple:
    if claimed(state, seat):
        raise NotYourDecision("toppo.claimed")
    size = state.size
    if kind == "reveal":
        raise IllegalAction("toppo.no_reveal")
    if kind == "top":
        order = parse_order(action, size)
        _full_line(state, seat, "top")
        fault = top_fault(state.lines[seat], state.tops(), order)
        if fault:
            raise IllegalAction("toppo.not_top", fault)  # refused, not penalised (ruling P4)
        return ("claim", {"type": "top", "order": order})
    if kind == "match":
        pairs = parse_pairs(action, size)
        _full_line(state, seat, "match")
        fault = match_fault(state.lines[seat], state.tops(), pairs)
        if fault:
            raise IllegalAction("toppo.not_match", fault)
        return ("claim", {"type": "match", "pairs": pairs})
    if kind == "toppo":
        if state.held(seat) >= TOPPO_LIMIT:
            raise IllegalAction("toppo.too_many", {"held": state.held(seat), "limit": TOPPO_LIMIT})
        return ("claim", {"type": "toppo"})
    if kind == "renew":
        return ("claim", {"type": "renew"})
    if kind in VOTES:
        table.check_vote(state, seat, kind)
        return (kind,)
    raise IllegalAction("toppo.round_actions")


def execute(state, seat: int, plan: tuple) -> None:
    if plan[0] in VOTES:
        table.vote(state, seat, plan[0])
        return
    state.claims.append([seat, plan[1]])  # a fresh copy built by validate: sealed until resolved
    state.events.append({"kind": "claimed", "seat": seat})
    if len(state.claims) == state.players:
        resolve(state)


def resolve(state) -> None:
    """Apply the round's claims in its priority order (P4 amended); arrival order plays no part."""
    order = priority(state)
    outcomes = []
    first = len(state.events)  # the round's summary goes before the events it explains
    stop = None  # "top" or "toppo" once a claim has interrupted the round
    caller = None
    for seat, claim in sorted(state.claims, key=lambda c: order.index(c[0])):
        kind = claim["type"]
        if stop:
            outcome = "void"
        elif kind == "toppo":
            outcome, stop, caller = "toppo", "toppo", seat
        elif kind == "top":
            if is_top(state.lines[seat], state.tops(), claim["order"]):
                table.lay_top(state, seat, claim["order"])
                table.all_lines_back(state, but=seat)
                outcome, stop = "applied", "top"
            else:
                outcome = "void"
        elif kind == "match":
            if match_fault(state.lines[seat], state.tops(), claim["pairs"]) is None:
                table.lay_match(state, seat, claim["pairs"])
                outcome = "applied"
            else:
                outcome = "void"
        else:
            outcome = "renew"
        outcomes.append({"seat": seat, "claim": claim, "outcome": outcome})
    summary = {"hand": state.hand + 1, "round": state.round, "priority": order, "claims": outcomes}
    state.last_round = summary
    state.events.insert(
        first,
        {
            "kind": "round",
            "hand": state.hand + 1,
            "round": state.round,
            "priority": list(order),
            "claims": [dict(o) for o in outcomes],
        },
    )
    if stop == "toppo":
        table.end_hand(state, caller)
        return
    table.all_lines_back(state)
    if table.everyone_agreed(state):
        table.replace_display(state)
    start_round(state)


def plan_of_legal(kind: str, action: Action) -> tuple:
    """The plan `validate` makes of an action listed by `legal`, without checking it again: a claim is stored as a
    fresh copy (sealed until resolved), a vote is the vote."""
    if kind in VOTES:
        return (kind,)
    if kind == "top":
        return ("claim", {"type": "top", "order": list(action["order"])})
    if kind == "match":
        return ("claim", {"type": "match", "pairs": [list(p) for p in action["pairs"]]})
    return ("claim", {"type": kind})
