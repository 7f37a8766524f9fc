"""Correspondence pace (ruling P4): rounds of sealed claims resolved in the order they came in."""
from __future__ import annotations

import json

import pytest

from engine.core import IllegalAction, NotYourDecision

from toppo_table import GAME, cards, filler, snapshot, table

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
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, "blue bar, blue plus, green bar"],
              decks=[filler(20), filler(20)])
    refused(s, 0, {"type": "top", "order": [0, 1, 2]}, match="shares neither colour nor symbol.*not penalised")
    refused(s, 1, {"type": "match", "pairs": [[0, 0]]}, match="not identical")
    refused(s, 0, {"type": "toppo"}, match="23 cards")
    refused(s, 0, {"type": "reveal"}, match="fills your line")
    assert {"type": "top", "order": [2, 0, 1]} in s.legal_actions(0)


def test_one_claim_per_round_and_to_act_is_who_has_not_claimed():
    s = table(3, "correspondence", display=DISPLAY, lines=[TOPPING, "blue bar, blue plus, green bar", ""],
              decks=[filler(20)] * 3)
    s.apply(1, {"type": "renew"})
    assert s.to_act() == [0, 2] and s.legal_actions(1) == []
    refused(s, 1, {"type": "renew"}, match="made your claim", error=NotYourDecision)


def test_two_tops_in_one_round_the_earlier_claim_wins():
    s = table(3, "correspondence", display=DISPLAY, lines=[TOPPING, TOPPING_TOO, "blue bar, blue bar, blue bar"],
              decks=[filler(20, 1), filler(20, 2), filler(20, 3)])
    decks = [list(d) for d in s.decks]
    s.apply(1, {"type": "top", "order": [0, 1, 2]})
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert s.round == 1 and [p[-1] for p in s.display] == cards(DISPLAY)  # nothing happens before all claimed
    s.apply(2, {"type": "renew"})
    assert [p[-1] for p in s.display] == cards(TOPPING_TOO)
    assert [o["outcome"] for o in s.last_round["claims"]] == ["applied", "void", "void"]
    assert [o["seat"] for o in s.last_round["claims"]] == [1, 0, 2]
    # Seat 1's topping line went under her deck (void claim); the next round refilled every line.
    assert s.round == 2
    assert s.decks[0] == decks[0][3:] + cards(TOPPING)
    assert s.decks[1] == decks[1][3:]
    assert s.lines == [decks[0][:3], decks[1][:3], decks[2][:3]]


def test_a_match_is_void_when_an_earlier_top_covered_its_card():
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, "yellow circle, blue bar, blue bar"],
              decks=[filler(20), filler(20)])
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    assert [o["outcome"] for o in s.last_round["claims"]] == ["applied", "void"]
    assert [len(p) for p in s.display] == [2, 2, 2]
    assert s.decks[1][-3:] == cards("yellow circle, blue bar, blue bar")


def test_a_match_then_a_top_both_apply():
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, "yellow circle, blue bar, blue bar"],
              decks=[filler(20), filler(20)])
    s.apply(1, {"type": "match", "pairs": [[0, 1]]})
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert [o["outcome"] for o in s.last_round["claims"]] == ["applied", "applied"]
    assert s.display[1] == cards("yellow circle, yellow circle, yellow plus")
    assert s.decks[1][-2:] == cards("blue bar, blue bar")


def test_toppo_ends_the_hand_and_voids_later_claims():  # rulings P4, P5
    s = table(3, "correspondence", display=DISPLAY, lines=["blue bar, blue bar, blue bar", TOPPING, "green bar"],
              decks=[filler(5), filler(17), filler(0)], hands=2)
    s.apply(0, {"type": "toppo"})
    s.apply(1, {"type": "top", "order": [2, 0, 1]})
    s.apply(2, {"type": "renew"})
    # Seat 1: 5 + 3 = 8 cards, scores nothing; Seat 2: 17 + 3 = 20; Seat 3: 0 + 1 = 1
    assert s.hand_points == [[0, 20, 1]] and s.totals == [0, 20, 1]
    assert [o["outcome"] for o in s.last_round["claims"]] == ["toppo", "void", "void"]
    assert s.phase == "choose_display" and s.to_act() == [1]


def test_an_earlier_top_voids_a_later_toppo():
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, "blue bar, blue bar, blue bar"],
              decks=[filler(20), filler(5)])
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(1, {"type": "toppo"})
    assert s.phase == "play" and s.totals == [0, 0]
    assert [o["outcome"] for o in s.last_round["claims"]] == ["applied", "void"]


def test_claims_are_sealed_until_the_round_resolves():
    s = table(3, "correspondence", display=DISPLAY, lines=[TOPPING, "blue bar, blue plus, green bar", ""],
              decks=[filler(20)] * 3)
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    for viewer in (1, 2, None):
        view = s.view(viewer)
        assert view["claimed"] == [True, False, False] and view["my_claim"] is None
        assert view["claim_order"] == [0]
        assert "\"order\"" not in json.dumps(view) and "[2, 0, 1]" not in json.dumps(view)
    assert s.view(0)["my_claim"] == {"type": "top", "order": [2, 0, 1]}
    assert s.describe(0, {"type": "top", "order": [2, 0, 1]}) == "Seat 1 has made her claim for this round."
    s.apply(1, {"type": "renew"})
    s.apply(2, {"type": "renew"})
    text = s.describe(2, {"type": "renew"})
    assert text.startswith("Seat 3 has made her claim for this round. Round 1 resolves")
    assert "Seat 1's top is carried out; Seat 2's renew is void; Seat 3's renew is void." in text
    assert text.endswith("Seat 1 tops the display with red circle, yellow plus, green square.")
    assert s.view(1)["last_round"]["claims"][0]["claim"] == {"type": "top", "order": [2, 0, 1]}


def test_a_missed_deadline_is_a_renew():
    s = table(3, "correspondence", display=DISPLAY, lines=[TOPPING, "blue bar, blue plus, green bar", "red bar"],
              decks=[filler(20)] * 3)
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    assert GAME.timeout_action(s, 0) is None  # she has claimed
    for seat in list(s.to_act()):
        action = GAME.timeout_action(s, seat)
        assert action == {"type": "renew"}
        s.apply(seat, action)
    assert s.round == 2 and [o["outcome"] for o in s.last_round["claims"]] == ["applied", "void", "void"]
    live = table(2, "live", display=DISPLAY, decks=[filler(20)] * 2)
    assert GAME.timeout_action(live, 0) is None  # live pace: the site's bot plays (ruling S1)
