"""What may happen in a Toppo match at either pace: whose decision it is, the legal actions, checking and applying
one, and the scores (rulings G0, P2, P5).

The pace rules live in live.py (ruling P3) and rounds.py (ruling P4), the card movements both share in table.py;
this module chooses between the paces and settles what both share (the display choice, the results).
"""

from __future__ import annotations

from engine.core import Action, IllegalAction, NotYourDecision, Result, find_action, tie_breaks_of

from . import live, rounds, table
from .actions import kind_of

LIVE, CORRESPONDENCE = "live", "correspondence"
FIRST_DISPLAY = 3  # the first hand's display (P2); later ones are chosen


def pace_rules(state):
    """The module of the state's pace: live (P3) or rounds (P4)."""
    return live if state.pace == LIVE else rounds


def begin_match(state) -> None:
    """The first hand dealt, its start player drawn (G0.1), a display of three (P2)."""
    state.start = state.rng().randrange(state.players)
    table.deal(state)
    lay_display(state, FIRST_DISPLAY)


def lay_display(state, size: int) -> None:
    """The start player lays the display and play begins: live, she reveals first (rules: Start); by
    correspondence, the first round deals every line (P4)."""
    table.lay_display(state, size)
    if state.pace == LIVE:
        state.restarter = state.start
    else:
        rounds.start_round(state)


def turn_marker(state) -> str:
    """A new hand or correspondence round restarts every clock (ruling S1: a Toppo round is a turn)."""
    return f"{state.hand}:{state.round}:{state.phase}"


def to_act(state) -> list[int]:
    if state.phase == "over":
        return []
    if state.phase == "choose_display":
        return [state.chooser]
    if state.pace == LIVE:
        return [seat for seat in range(state.players) if live.has_action(state, seat)]
    return rounds.waiting(state)


def display_actions(state) -> list[Action]:
    """3, 4 or 5 cards; never 5 with two players (rules: Special Cases, P2)."""
    return [{"type": "choose_display", "size": n} for n in state.display_choices()]


def legal_actions(state, seat: int) -> list[Action]:
    if not isinstance(seat, int) or not 0 <= seat < state.players or state.phase == "over":
        return []
    if state.phase == "choose_display":
        return display_actions(state) if seat == state.chooser else []
    return pace_rules(state).legal(state, seat)


def validate(state, seat: int, action: Action) -> tuple:
    """The plan for `action` by `seat`, or IllegalAction with the reason; changes nothing."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise NotYourDecision(
            "no_such_seat", {"seat": seat if isinstance(seat, int) else None}, action=action, seat=seat
        )
    kind = kind_of(action)
    if state.phase == "over":
        raise NotYourDecision("game_over", action=action, seat=seat)
    if state.phase == "choose_display":
        if seat != state.chooser:
            raise NotYourDecision("toppo.chooser", {"chooser": state.chooser}, action=action, seat=seat)
        # Compared exactly (ruling G0.4): a size of 3.0 or true is refused here, not met later by draw().
        if find_action(action, display_actions(state)) is None:
            raise IllegalAction("toppo.choose_size", {"sizes": state.display_choices()}, action=action, seat=seat)
        return ("choose_display", action["size"])
    if kind == "choose_display":
        raise IllegalAction("toppo.size_later", action=action, seat=seat)
    try:
        return pace_rules(state).validate(state, seat, kind, action)
    except IllegalAction as err:
        err.action, err.seat = action, seat
        raise


def apply(state, seat: int, action: Action) -> None:
    """Check `action` and carry it out, or raise IllegalAction and change nothing."""
    carry_out(state, seat, validate(state, seat, action))


def apply_legal(state, seat: int, action: Action) -> None:
    """Carry out an action taken from `legal_actions(state, seat)` without checking it again (core.State)."""
    kind = action["type"]
    if kind == "choose_display":
        plan = ("choose_display", action["size"])
    else:
        plan = pace_rules(state).plan_of_legal(kind, action)
    carry_out(state, seat, plan)


def carry_out(state, seat: int, plan: tuple) -> None:
    """Apply a plan made by `validate` (or `plan_of_legal`); the events of this action replace the last ones."""
    state.events = []
    if plan[0] == "choose_display":
        state.events.append({"kind": "choose", "seat": seat, "size": plan[1]})
        state.chooser = None
        lay_display(state, plan[1])
    else:
        pace_rules(state).execute(state, seat, plan)


def scores(state) -> list[float]:
    """Penalty points (lower is better): running totals plus, during a hand, the cards each seat holds (P5)."""
    if state.phase != "play":
        return [float(t) for t in state.totals]
    return [float(state.totals[s] + state.held(s)) for s in range(state.players)]


def results(state) -> list[Result]:
    """Rank by penalty total, lowest first; equal totals share a rank (P2): no tie-break rule, so a tie is SHARED."""
    decided = tie_breaks_of([(total,) for total in state.totals], ())
    return [
        Result(
            seat=s,
            rank=1 + sum(1 for t in state.totals if t < state.totals[s]),
            score=float(state.totals[s]),
            detail={"penalty_points": state.totals[s], "hands": [p[s] for p in state.hand_points]},
            tie_break=decided[s],
        )
        for s in range(state.players)
    ]
