"""Correspondence pace (ruling P4, amended): rounds of sealed claims resolved in the round's priority order."""

from __future__ import annotations

import json

import pytest
from toppo_table import GAME, cards, filler, snapshot, table

from engine.core import IllegalAction, NotYourDecision

DISPLAY = "red waves, yellow circle, white square"
TOPPING = "yellow plus, green square, red circle"  # tops DISPLAY in the order [2, 0, 1]
TOPPING_TOO = "red bar, yellow waves, white plus"  # tops DISPLAY in the order [0, 1, 2]


def refused(state, seat, action, match=None, error=IllegalAction):
    before = snapshot(state)
    with pytest.raises(error, match=match):
        state.apply(seat, action)
    assert snapshot(state) == before


def test_each_round_starts_with_every_line_filled():
    s = GAME.new_state(3, {}, 4)
    assert s.pace == "correspondence" and s.round == 1
    assert [len(line) for line in s.lines] == [3, 3, 3] and [len(d) for d in s.decks] == [30, 30, 30]
    assert s.to_act() == [0, 1, 2]
    for seat in range(3):
        s.apply(seat, {"type": "renew"})
    assert s.round == 2 and [len(line) for line in s.lines] == [3, 3, 3]
    assert [len(d) for d in s.decks] == [30, 30, 30]


def test_wrong_claims_are_refused_with_a_reason_and_cost_nothing():
    s = table(
        2,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue plus, green bar"],
        decks=[filler(20), filler(20)],
    )
    refused(s, 0, {"type": "top", "order": [0, 1, 2]}, match="toppo.not_top")
    refused(s, 1, {"type": "match", "pairs": [[0, 0]]}, match="toppo.not_match")
    refused(s, 0, {"type": "toppo"}, match="toppo.too_many")
    refused(s, 0, {"type": "reveal"}, match="toppo.no_reveal")
    assert {"type": "top", "order": [2, 0, 1]} in s.legal_actions(0)


def test_one_claim_per_round_and_to_act_is_who_has_not_claimed():
    s = table(
        3,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue plus, green bar", ""],
        decks=[filler(20)] * 3,
    )
    s.apply(1, {"type": "renew"})
    assert s.to_act() == [0, 2] and s.legal_actions(1) == []
    refused(s, 1, {"type": "renew"}, match="toppo.claimed", error=NotYourDecision)


def in_round(state, number: int):
    """The same position, as round `number` of the hand (the priority order follows from it)."""
    state.round = number
    return state


def outcomes(state) -> list[tuple[int, str]]:
    return [(o["seat"], o["outcome"]) for o in state.last_round["claims"]]


def test_the_priority_order_moves_on_one_seat_each_round_and_restarts_each_hand():  # ruling P4 amended
    # Seat 1 holds 5 + 3 = 8 cards and may call toppo; everyone else renews, round after round.
    s = table(
        3,
        "correspondence",
        display=DISPLAY,
        lines=["blue bar, blue bar, blue bar", TOPPING, "green bar"],
        decks=[filler(5), filler(20), filler(20)],
        hands=2,
    )
    seen = []
    for arrival in ([2, 1, 0], [0, 1, 2], [1, 0, 2], [2, 0, 1]):
        seen.append([s.view(viewer)["priority"] for viewer in (0, 1, 2, None)])
        for seat in arrival:  # arrival order differs every round and changes nothing
            s.apply(seat, {"type": "renew"})
        assert s.last_round["priority"] == seen[-1][0]
        assert [o["seat"] for o in s.last_round["claims"]] == seen[-1][0]
    # Round r of a hand starts with seat r mod n, r counted from 0: rounds 1-4 start with seats 0, 1, 2, 0.
    assert seen == [[[0, 1, 2]] * 4, [[1, 2, 0]] * 4, [[2, 0, 1]] * 4, [[0, 1, 2]] * 4]
    assert s.round == 5 and s.view(None)["priority"] == [1, 2, 0]
    s.apply(2, {"type": "renew"})
    s.apply(1, {"type": "renew"})
    s.apply(0, {"type": "toppo"})  # last in priority order and nobody topped before it: the hand ends
    assert outcomes(s) == [(1, "renew"), (2, "renew"), (0, "toppo")]
    assert s.phase == "choose_display" and s.view(0)["priority"] is None  # no round is running
    s.apply(s.chooser, {"type": "choose_display", "size": 4})
    assert s.hand == 1 and s.round == 1 and s.view(2)["priority"] == [0, 1, 2]  # the new hand starts over


def test_two_seats_take_turns_at_going_first():
    s = GAME.new_state(2, {}, 11)
    orders = []
    for _ in range(4):
        orders.append(s.view(None)["priority"])
        s.apply(1, {"type": "renew"})
        s.apply(0, {"type": "renew"})
    assert orders == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert GAME.new_state(2, {"pace": "live"}, 11).view(0)["priority"] is None  # live pace: arrival order (P3)


@pytest.mark.parametrize("number,first", [(1, 0), (2, 1)])
def test_the_seat_with_priority_tops_though_her_claim_came_in_last(number, first):
    # Both seats 0 and 1 can top.  The seat without priority claims first; the seat with priority claims
    # last (after seat 2's renew) and still takes the display; the other top is void and its line goes back.
    s = in_round(
        table(
            3,
            "correspondence",
            display=DISPLAY,
            lines=[TOPPING, TOPPING_TOO, "blue bar, blue bar, blue bar"],
            decks=[filler(20, 1), filler(20, 2), filler(20, 3)],
        ),
        number,
    )
    tops = {0: ({"type": "top", "order": [2, 0, 1]}, TOPPING), 1: ({"type": "top", "order": [0, 1, 2]}, TOPPING_TOO)}
    laid = {0: cards("red circle, yellow plus, green square"), 1: cards(TOPPING_TOO)}  # each line in its order
    decks = [list(d) for d in s.decks]
    second = 1 - first
    s.apply(second, tops[second][0])
    s.apply(2, {"type": "renew"})
    assert [p[-1] for p in s.display] == cards(DISPLAY)  # nothing happens before all have claimed
    s.apply(first, tops[first][0])
    assert [p[-1] for p in s.display] == laid[first]
    assert s.view(2)["last_round"]["priority"] == ([0, 1, 2] if first == 0 else [1, 2, 0])
    expected = {0: [(0, "applied"), (1, "void"), (2, "void")], 1: [(1, "applied"), (2, "void"), (0, "void")]}
    assert outcomes(s) == expected[first]
    assert s.round == number + 1
    # The void top's line went under its deck; the next round refilled every line from the decks' tops.
    assert s.decks[second] == decks[second][3:] + cards(tops[second][1])
    assert s.decks[first] == decks[first][3:]
    assert s.lines == [decks[0][:3], decks[1][:3], decks[2][:3]]
    entry = s.describe(first, tops[first][0])
    assert entry[0] == {"code": "toppo.claimed", "seat": first}
    assert entry[1]["code"] == "toppo.round" and entry[1]["round"] == number and entry[1]["priority"][0] == first
    assert entry[1]["claims"][0]["seat"] == first and entry[1]["claims"][0]["outcome"] == "applied"


def test_a_toppo_by_the_seat_with_priority_voids_the_rest():  # rulings P4 amended, P5
    # Round 2: seat 1 goes first.  Seat 0's top and seat 2's match came in before her toppo.
    s = in_round(
        table(
            3,
            "correspondence",
            display=DISPLAY,
            lines=[TOPPING, "blue bar, blue bar, blue bar", "white square, blue bar, blue bar"],
            decks=[filler(17), filler(5), filler(20)],
            hands=2,
        ),
        2,
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(2, {"type": "match", "pairs": [[0, 2]]})
    s.apply(1, {"type": "toppo"})
    assert outcomes(s) == [(1, "toppo"), (2, "void"), (0, "void")]
    # Seat 2 holds 5 + 3 = 8 and scores nothing; seat 1 17 + 3 = 20; seat 3 20 + 3 = 23.
    assert s.hand_points == [[20, 0, 23]]
    assert not {"top", "match"} & {e["kind"] for e in s.events}, "nothing was laid on the display"
    assert s.phase == "choose_display" and s.to_act() == [2]


def test_a_toppo_after_a_top_with_priority_is_void():
    s = table(
        2,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue bar, blue bar"],
        decks=[filler(20), filler(5)],
    )
    s.apply(1, {"type": "toppo"})  # in first, but seat 0 goes first in round 1
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert s.phase == "play" and s.totals == [0, 0]
    assert outcomes(s) == [(0, "applied"), (1, "void")]


def test_a_match_with_priority_then_a_top_both_apply():
    # Round 2 of two seats: seat 1 goes first.  Her match lays an identical card, so seat 0's top still fits.
    s = in_round(
        table(
            2,
            "correspondence",
            display=DISPLAY,
            lines=[TOPPING, "yellow circle, blue bar, blue bar"],
            decks=[filler(20), filler(20)],
        ),
        2,
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    assert outcomes(s) == [(1, "applied"), (0, "applied")]
    assert s.display[1] == cards("yellow circle, yellow circle, yellow plus")
    assert s.decks[1][-2:] == cards("blue bar, blue bar")


def test_a_match_after_a_top_with_priority_is_void():
    s = table(
        2,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "yellow circle, blue bar, blue bar"],
        decks=[filler(20), filler(20)],
    )
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert outcomes(s) == [(0, "applied"), (1, "void")]
    assert [len(p) for p in s.display] == [2, 2, 2]
    assert s.decks[1][-3:] == cards("yellow circle, blue bar, blue bar")


def test_a_match_still_fits_after_a_match_with_priority_on_other_display_cards():
    # Round 3 of three seats: seat 2 goes first, then 0, then 1.  Seat 2 matches the red waves, seat 0
    # the white square; seat 1, last in order but first in, matches the yellow circle and white square:
    # the cards she named are still there (a match lays an identical card), so all three apply.
    s = in_round(
        table(
            3,
            "correspondence",
            display=DISPLAY,
            lines=[
                "white square, blue bar, green plus",
                "yellow circle, white square, blue bar",
                "red waves, green bar, blue plus",
            ],
            decks=[filler(20)] * 3,
        ),
        3,
    )
    s.apply(1, {"type": "match", "pairs": [[0, 1], [1, 2]]})
    s.apply(0, {"type": "match", "pairs": [[0, 2]]})
    s.apply(2, {"type": "match", "pairs": [[0, 0]]})
    assert outcomes(s) == [(2, "applied"), (0, "applied"), (1, "applied")]
    assert s.display == [
        cards("red waves, red waves"),
        cards("yellow circle, yellow circle"),
        cards("white square, white square, white square"),
    ]
    # The unmatched cards of each line went under its deck.
    assert s.decks[0][-2:] == cards("blue bar, green plus") and s.decks[1][-1:] == cards("blue bar")
    assert s.decks[2][-2:] == cards("green bar, blue plus")


def test_a_round_stored_before_the_amendment_loads_and_resolves_by_priority():
    # A stored state has no field for the order (it follows from the round); its last round has no
    # "priority" either.  Loaded, it shows the order and resolves by it, not by the claims' arrival.
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, TOPPING_TOO], decks=[filler(20)] * 2)
    s.apply(0, {"type": "renew"})
    s.apply(1, {"type": "renew"})
    stored = json.loads(snapshot(s))
    del stored["last_round"]["priority"]
    stored["lines"] = [cards(TOPPING), cards(TOPPING_TOO)]
    stored["claims"] = [[1, {"type": "top", "order": [0, 1, 2]}]]  # seat 1 had claimed first
    loaded = GAME.load(stored)
    assert loaded.view(0)["priority"] == [1, 0] and loaded.view(0)["last_round"]["round"] == 1
    loaded.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert outcomes(loaded) == [(1, "applied"), (0, "void")]


def test_claims_are_sealed_until_the_round_resolves():
    s = table(
        3,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue plus, green bar", ""],
        decks=[filler(20)] * 3,
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    for viewer in (1, 2, None):
        view = s.view(viewer)
        assert view["claimed"] == [True, False, False] and view["my_claim"] is None
        assert view["claim_order"] == [0]
        assert '"order"' not in json.dumps(view) and "[2, 0, 1]" not in json.dumps(view)
    assert s.view(0)["my_claim"] == {"type": "top", "order": [2, 0, 1]}
    assert s.describe(0, {"type": "top", "order": [2, 0, 1]}) == [{"code": "toppo.claimed", "seat": 0}]
    s.apply(1, {"type": "renew"})
    s.apply(2, {"type": "renew"})
    entry = s.describe(2, {"type": "renew"})  # the claims are public once the round resolves (P4)
    assert entry[0] == {"code": "toppo.claimed", "seat": 2}
    assert entry[1]["code"] == "toppo.round" and entry[1]["round"] == 1 and entry[1]["priority"][0] == 0
    assert [(c["seat"], c["outcome"]) for c in entry[1]["claims"]] == [(0, "applied"), (1, "void"), (2, "void")]
    assert entry[-1] == {
        "code": "toppo.top",
        "seat": 0,
        "cards": [
            {"colour": "red", "symbol": "circle"},
            {"colour": "yellow", "symbol": "plus"},
            {"colour": "green", "symbol": "square"},
        ],
    }
    assert s.view(1)["last_round"]["claims"][0]["claim"] == {"type": "top", "order": [2, 0, 1]}


def test_a_missed_deadline_is_a_renew():
    s = table(
        3,
        "correspondence",
        display=DISPLAY,
        lines=[TOPPING, "blue bar, blue plus, green bar", "red bar"],
        decks=[filler(20)] * 3,
    )
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert GAME.timeout_action(s, 0) is None  # she has claimed
    for seat in list(s.to_act()):
        action = GAME.timeout_action(s, seat)
        assert action == {"type": "renew"}
        s.apply(seat, action)
    assert s.round == 2 and [o["outcome"] for o in s.last_round["claims"]] == ["applied", "void", "void"]
    live = table(2, "live", display=DISPLAY, decks=[filler(20)] * 2)
    assert GAME.timeout_action(live, 0) is None  # live pace: the site's bot plays (ruling S1)


def test_remembered_tops_and_matches_are_each_callers_own():
    """cards.top_orders and match_choices remember their answers per line and display: a caller that changes
    the lists it got (an action built from them) changes nothing the next caller gets."""
    from engine.toppo.cards import match_choices, top_orders

    line, tops = [0, 1, 5], [0, 6, 1]
    orders, matches = top_orders(line, tops), match_choices(line, tops)
    assert orders and matches
    expected = ([list(o) for o in orders], [[list(p) for p in m] for m in matches])
    orders[0].append(9)
    orders.append([7])
    matches[0][0][1] = 9
    matches.append([])
    assert (top_orders(line, tops), match_choices(line, tops)) == expected
