"""Live pace (ruling P3): reveals, tops, matches, renews, wrong calls and the restart lock."""

from __future__ import annotations

import random

import pytest
from toppo_table import GAME, cards, filler, snapshot, table

from engine.bots.hints import hints_for
from engine.core import IllegalAction
from engine.toppo import live

DISPLAY = "red waves, yellow circle, white square"
TOPPING = "yellow plus, green square, red circle"  # tops DISPLAY in the order [2, 0, 1] only


def refused(state, seat, action, match=None):
    """The action raises IllegalAction and leaves the state exactly as it was (ruling G0.4)."""
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=match) as err:
        state.apply(seat, action)
    assert snapshot(state) == before
    return err.value.reason


def test_reveal_one_card_at_a_time_up_to_the_line_length():
    s = table(display=DISPLAY, decks=["blue bar, red plus, green waves, white circle", filler(20)])
    s.apply(0, {"type": "reveal"})
    assert s.lines[0] == cards("blue bar") and len(s.decks[0]) == 3
    s.apply(0, {"type": "reveal"})
    s.apply(0, {"type": "reveal"})
    assert s.lines[0] == cards("blue bar, red plus, green waves") and s.decks[0] == cards("white circle")
    assert {"type": "reveal"} not in s.legal_actions(0)
    refused(s, 0, {"type": "reveal"}, match="toppo.line_full")


def test_nobody_reveals_before_the_start_player():  # rules: Start; ruling P3
    s = GAME.new_state(3, {"pace": "live"}, 5)
    start = s.start
    other = (start + 1) % 3
    assert s.restarter == start
    assert {"type": "reveal"} not in s.legal_actions(other)
    assert refused(s, other, {"type": "reveal"}, match="toppo.wait_restarter") == (
        "toppo.wait_restarter",
        {"restarter": start},
    )
    s.apply(start, {"type": "reveal"})
    assert s.restarter is None
    s.apply(other, {"type": "reveal"})
    assert len(s.lines[other]) == 1


def test_a_right_top_takes_the_display_and_interrupts_everyone():
    s = table(display=DISPLAY, lines=[TOPPING, "blue bar, blue plus"], decks=[filler(10), cards("green circle")])
    assert s.legal_actions(0)[0] == {"type": "top", "order": [2, 0, 1]}
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert [p[-1] for p in s.display] == cards("red circle, yellow plus, green square")
    assert [len(p) for p in s.display] == [2, 2, 2]
    assert s.lines == [[], []]
    assert len(s.decks[0]) == 10  # the topper's cards went onto the display, nothing back to her deck
    assert s.decks[1] == cards("green circle, blue bar, blue plus")  # line to the bottom of the deck
    assert s.restarter == 0
    refused(s, 1, {"type": "reveal"}, match="toppo.wait_restarter")
    s.apply(0, {"type": "reveal"})
    s.apply(1, {"type": "reveal"})
    assert s.lines[1] == cards("green circle")


def test_a_wrong_top_costs_the_line_and_five_stack_cards():  # even if merely the order is wrong
    stack = filler(8, start=3)
    s = table(display=DISPLAY, lines=[TOPPING, "blue bar"], decks=[filler(12), cards("white plus")], stack=stack)
    deck0 = list(s.decks[0])
    assert {"type": "top", "order": [0, 1, 2]} not in s.legal_actions(0)  # wrong calls are not offered
    s.apply(0, {"type": "top", "order": [0, 1, 2]})
    assert s.decks[0] == deck0 + cards(TOPPING) + [stack[7], stack[6], stack[5], stack[4], stack[3]]
    assert s.stack == stack[:3]
    assert s.lines == [[], []]
    assert s.decks[1] == cards("white plus, blue bar")
    assert [p[-1] for p in s.display] == cards(DISPLAY) and [len(p) for p in s.display] == [1, 1, 1]
    assert s.restarter == 0
    assert s.events[0] == {
        "kind": "wrong",
        "seat": 0,
        "call": "top",
        "penalty": 5,
        "line": [
            {"colour": "yellow", "symbol": "plus"},
            {"colour": "green", "symbol": "square"},
            {"colour": "red", "symbol": "circle"},
        ],
    }


def test_a_match_places_identical_cards_and_the_rest_goes_under_the_deck():
    s = table(
        display="red waves, blue plus, white bar",
        lines=["red waves, green bar, red waves", ""],
        decks=[cards("yellow bar"), filler(5)],
    )
    assert {"type": "match", "pairs": [[0, 0], [2, 0]]} in s.legal_actions(0)
    s.apply(0, {"type": "match", "pairs": [[0, 0], [2, 0]]})
    # the second red waves lies on the first one, which it matches again
    assert s.display[0] == cards("red waves, red waves, red waves")
    assert s.lines[0] == [] and s.decks[0] == cards("yellow bar, green bar")
    assert s.restarter is None  # a match does not interrupt
    s.apply(0, {"type": "reveal"})  # she may form a new line at once
    assert s.lines[0] == cards("yellow bar")


def test_a_wrong_match_takes_nothing_and_costs_the_line_plus_five():
    stack = filler(6, start=7)
    s = table(
        display="red waves, blue plus, white bar",
        lines=["red circle, green bar, red waves", "blue bar"],
        decks=[cards("white waves"), cards("red plus")],
        stack=stack,
    )
    s.apply(0, {"type": "match", "pairs": [[0, 0], [2, 0]]})  # red circle is not red waves
    assert [len(p) for p in s.display] == [1, 1, 1]
    assert s.decks[0] == cards("white waves, red circle, green bar, red waves") + stack[:0:-1]
    assert s.stack == stack[:1]
    assert s.decks[1] == cards("red plus, blue bar") and s.lines == [[], []]
    assert s.restarter == 0


def test_renew_needs_a_full_line_and_sends_it_under_the_deck():
    s = table(display=DISPLAY, lines=["blue bar, blue plus", ""], decks=[cards("white waves"), filler(9)])
    refused(s, 0, {"type": "renew"}, match="toppo.live_line_short")
    s.apply(0, {"type": "reveal"})
    s.apply(0, {"type": "renew"})
    assert s.lines[0] == [] and s.decks[0] == cards("blue bar, blue plus, white waves")


def test_calls_need_a_full_line_and_are_refused_not_penalised_otherwise():
    s = table(display=DISPLAY, lines=["yellow plus, green square", ""], decks=[filler(20), filler(20)])
    refused(s, 0, {"type": "top", "order": [1, 0, 2]}, match="toppo.live_line_short")
    refused(s, 0, {"type": "match", "pairs": [[0, 1]]}, match="toppo.live_line_short")


def test_a_wrong_toppo_costs_the_line_and_five_and_interrupts():  # rules: Toppo, Penalty
    stack = filler(10)
    # exactly ten cards: toppo needs FEWER than ten
    s = table(display=DISPLAY, lines=["blue bar", "red plus, red plus"], decks=[filler(9), filler(30)], stack=stack)
    deck0 = list(s.decks[0])
    assert {"type": "toppo"} not in s.legal_actions(0)
    s.apply(0, {"type": "toppo"})
    assert s.phase == "play" and s.totals == [0, 0]
    assert s.decks[0] == deck0 + cards("blue bar") + stack[:4:-1]
    assert s.held(0) == 15
    assert s.lines[1] == [] and s.decks[1][-2:] == cards("red plus, red plus")
    assert s.restarter == 0


def test_a_right_toppo_ends_the_hand_in_live_play():
    s = table(display=DISPLAY, lines=["blue bar", ""], decks=[filler(8), filler(30)], hands=2)
    assert {"type": "toppo"} in s.legal_actions(0)
    s.apply(0, {"type": "toppo"})
    assert s.hand_points == [[0, 30]] and s.totals == [0, 30]


def test_early_reveal_after_an_interruption_is_refused_not_penalised():  # ruling P3
    s = table(
        3,
        display=DISPLAY,
        lines=[TOPPING, "blue bar", "white plus, white plus"],
        decks=[filler(20), filler(20), filler(20)],
    )
    s.apply(0, {"type": "top", "order": [0, 1, 2]})  # wrong order: Seat 1 is penalised and restarts
    held = [s.held(i) for i in range(3)]
    for seat in (1, 2):
        reason = refused(s, seat, {"type": "reveal"}, match="toppo.wait_restarter")
        assert reason == ("toppo.wait_restarter", {"restarter": 0})  # Seat 1 restarts (P3)
    assert [s.held(i) for i in range(3)] == held
    s.apply(0, {"type": "reveal"})
    s.apply(2, {"type": "reveal"})
    assert len(s.lines[2]) == 1


def test_while_waiting_for_the_restart_a_wrong_toppo_is_penalised_and_a_right_one_counts():  # ruling P3
    # Seat 1 restarts after an interruption; Seat 2 shouts toppo with 20 cards: it is not refused for
    # being early but penalised like any wrong toppo, and she becomes the one who restarts.
    stack = filler(10)
    s = table(
        3,
        display=DISPLAY,
        lines=["", "", "blue bar"],
        decks=[filler(20), filler(19), filler(7)],
        stack=stack,
        restarter=0,
    )
    deck1 = list(s.decks[1])
    s.apply(1, {"type": "toppo"})
    assert s.phase == "play" and s.totals == [0, 0, 0]
    assert s.decks[1] == deck1 + stack[:4:-1] and s.held(1) == 24  # five stack cards under her deck
    assert s.lines[2] == [] and s.decks[2][-1:] == cards("blue bar")  # everyone else's line goes back
    assert s.restarter == 1
    assert s.events[0] == {"kind": "wrong", "seat": 1, "call": "toppo", "line": [], "penalty": 5}
    # a right toppo during the new lock ends the hand at once
    s.apply(2, {"type": "toppo"})
    assert s.hand_points == [[20, 24, 0]]


def test_top_and_match_at_the_same_time_the_top_first():
    # Seat 1 can top; Seat 2 can match display card 2 (yellow circle).  Both press at once and the
    # top arrives first: Seat 2's line has gone back, so her match is refused (not penalised).
    s = table(
        2,
        display=DISPLAY,
        lines=[TOPPING, "yellow circle, blue bar, blue bar"],
        decks=[filler(10), cards("green waves")],
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    # Refused with whose call took her line (decision 26).
    refused(s, 1, {"type": "match", "pairs": [[0, 1]]}, match="toppo.beaten")
    assert s.decks[1] == cards("green waves, yellow circle, blue bar, blue bar")
    assert [p[-1] for p in s.display] == cards("red circle, yellow plus, green square")


def test_top_and_match_at_the_same_time_the_match_first():
    # The match arrives first and is applied; the top is judged against the new display.  A match
    # lays an identical card, so the top still fits and wins the display.
    s = table(
        2,
        display=DISPLAY,
        lines=[TOPPING, "yellow circle, blue bar, blue bar"],
        decks=[filler(10), cards("green waves")],
    )
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    assert s.display[1] == cards("yellow circle, yellow circle")
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert s.display[1] == cards("yellow circle, yellow circle, yellow plus")
    assert s.restarter == 0 and s.events[0]["kind"] == "top"


def test_a_stale_call_is_judged_against_the_line_and_display_as_they_are_now():
    # Seat 2 prepared a match for the old display; by the time it arrives Seat 1 has topped and both
    # have revealed new lines.  The call names line and display positions, so it is judged now: wrong.
    s = table(
        2,
        display=DISPLAY,
        lines=[TOPPING, "yellow circle, blue bar, blue bar"],
        decks=[cards("white bar"), cards("green waves, green waves")],
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(0, {"type": "reveal"})
    for _ in range(3):
        s.apply(1, {"type": "reveal"})
    assert s.lines[1] == cards("green waves, green waves, yellow circle")
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    assert s.events[0]["kind"] == "wrong" and s.restarter == 1


def test_live_to_act_lists_every_seat_that_may_act():
    s = table(3, display=DISPLAY, decks=[filler(20), filler(20), filler(20)], restarter=0)
    assert s.to_act() == [0, 1, 2]  # waiting seats may still vote on the display
    s.apply(1, {"type": "propose_replace"})
    s.apply(2, {"type": "agree_replace"})
    # Seats 2 and 3 wait for Seat 1 and have agreed already: nothing is left for them to do.
    assert s.to_act() == [0]
    assert s.legal_actions(1) == [] and s.legal_actions(2) == []


def test_a_top_tells_each_seat_whose_call_took_her_line_until_she_acts():  # decision 26, ruling P3
    s = table(
        players=3,
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue plus", ""],
        decks=[filler(10), cards("green circle, white plus"), filler(5)],
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    # Seat 1 lost two laid cards; seat 2 had none, so nothing was taken from her.
    assert s.bumped == [None, {"by": 0, "call": "top", "cards": 2}, None]
    assert s.view(1)["bumped"] == s.view(None)["bumped"] == s.bumped  # public, as the lines were
    # Her top or match sent before she heard of it is refused with whose call it was, and changes nothing.
    assert refused(s, 1, {"type": "top", "order": [0, 1, 2]}, match="toppo.beaten") == (
        "toppo.beaten",
        {"call": "top", "by": 0, "by_call": "top"},
    )
    s.apply(0, {"type": "reveal"})
    assert s.bumped[1] is not None  # another seat's action does not tell her
    s.apply(1, {"type": "reveal"})
    assert s.bumped == [None, None, None]
    refused(s, 1, {"type": "top", "order": [0, 1, 2]}, match="toppo.live_line_short")


def test_a_wrong_call_that_interrupts_says_so_too():  # decision 26, ruling P3
    s = table(display=DISPLAY, lines=["blue bar, blue plus, blue circle", "green waves"], decks=[filler(5), filler(5)])
    s.stack = filler(10)
    s.apply(0, {"type": "top", "order": [0, 1, 2]})  # wrong: penalised, and everyone's line goes back
    assert s.bumped == [None, {"by": 0, "call": "wrong_top", "cards": 1}]
    from engine.toppo.state import ToppoState

    stored = s.to_json()
    del stored["bumped"]  # a state stored before decision 26
    assert ToppoState.from_json(stored).bumped == [None, None]


def test_a_bots_playout_reads_idleness_off_the_state_as_the_listed_actions_say_it():
    """hints.active at live pace asks live.only_proposes (idle_now) rather than every seat's listed actions: on each
    position of random live games, with the restart lock, a pending proposal and short decks among them, both say the
    same."""
    hints = hints_for(GAME)
    rng = random.Random(5)
    seen = set()
    for game in range(6):
        s = GAME.new_state(2 + game % 2, {"pace": "live", "hands": 1}, game)
        for _ in range(1500):
            actors = s.to_act()
            if not actors:
                break
            for seat in range(s.players):
                listed = s.legal_actions(seat)
                idle = all(a["type"] == "propose_replace" for a in listed)
                assert live.only_proposes(s, seat) == idle
                seen.add((idle, s.restarter is not None, s.proposal is not None))
            a, b = random.Random(rng.random()), random.Random(rng.random())
            b.setstate(a.getstate())
            busy = [x for x in actors if not hints.idle(s, x, s.legal_actions(x))]  # idleness from listed actions
            listed = actors[0] if len(actors) == 1 else (b.choice(busy) if busy else None)
            assert hints.active(s, a) == listed and a.getstate() == b.getstate()  # the same seat, the same draws
            seat = rng.choice(actors)
            s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert {(True, True, False), (False, True, False), (False, False, True)} <= seen
