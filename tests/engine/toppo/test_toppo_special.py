"""Special cases (ruling P6): the stack running out and the agreed display replacement."""

from __future__ import annotations

from collections import Counter

import pytest
from toppo_table import cards, filler, snapshot, table, total_cards

from engine.core import IllegalAction

TOPPING = "yellow plus, green square, red circle"  # tops red waves, yellow circle, white square as [2, 0, 1]


def test_an_empty_stack_is_refilled_with_the_covered_display_cards():
    piles = ["blue bar, green bar, red waves", "white plus, yellow circle", "white square"]
    s = table(
        2, "live", display=piles, lines=[TOPPING, ""], decks=[filler(10), filler(10)], stack="blue waves, blue circle"
    )
    total = total_cards(s)
    deck0 = list(s.decks[0])
    s.apply(0, {"type": "top", "order": [0, 1, 2]})  # wrong order: line plus five penalty cards
    penalty = s.decks[0][len(deck0) + 3 :]
    assert s.decks[0][: len(deck0) + 3] == deck0 + cards(TOPPING)
    assert penalty[:2] == cards("blue circle, blue waves")  # the stack's last two, top first
    assert Counter(penalty[2:]) == Counter(cards("blue bar, green bar, white plus"))  # the covered cards
    assert s.display == [cards("red waves"), cards("yellow circle"), cards("white square")]
    assert s.stack == []
    assert total_cards(s) == total
    assert any(e == {"kind": "restock", "cards": 3} for e in s.events)
    assert {"code": "toppo.restock", "cards": 3} in s.describe(0, {})


def test_with_no_stack_and_nothing_covered_a_penalty_takes_what_is_left():
    s = table(
        2,
        "live",
        display="red waves, yellow circle, white square",
        lines=[TOPPING, ""],
        decks=[filler(10), filler(10)],
        stack=[],
    )
    s.apply(0, {"type": "top", "order": [0, 1, 2]})
    assert s.held(0) == 13 and s.events[0]["penalty"] == 0


def test_the_display_is_replaced_when_everybody_agrees():
    s = table(
        3,
        "live",
        display="red waves, yellow circle, white square",
        decks=[filler(10)] * 3,
        stack="blue waves, blue circle, blue bar, green plus",
    )
    s.apply(1, {"type": "propose_replace"})
    assert s.proposal == {"by": 1, "agreed": [1]}
    assert {"type": "propose_replace"} not in s.legal_actions(0) and {"type": "agree_replace"} in s.legal_actions(0)
    s.apply(0, {"type": "agree_replace"})
    assert [len(p) for p in s.display] == [1, 1, 1]  # Seat 3 has not agreed yet
    s.apply(2, {"type": "agree_replace"})
    assert s.display == [
        cards("red waves, green plus"),
        cards("yellow circle, blue bar"),
        cards("white square, blue circle"),
    ]
    assert s.stack == cards("blue waves") and s.proposal is None
    assert {
        "code": "toppo.replaced",
        "cards": [
            {"colour": "green", "symbol": "plus"},
            {"colour": "blue", "symbol": "bar"},
            {"colour": "blue", "symbol": "circle"},
        ],
    } in s.describe(2, {})


def test_vote_mistakes_are_refused():
    s = table(2, "live", display="red waves, yellow circle, white square", decks=[filler(10)] * 2)
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="toppo.nothing_proposed"):
        s.apply(0, {"type": "agree_replace"})
    assert snapshot(s) == before
    s.apply(0, {"type": "propose_replace"})
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="toppo.already_proposed"):
        s.apply(1, {"type": "propose_replace"})
    with pytest.raises(IllegalAction, match="toppo.already_agreed"):
        s.apply(0, {"type": "agree_replace"})
    assert snapshot(s) == before


def test_a_proposal_lapses_when_someone_tops():
    s = table(
        3, "live", display="red waves, yellow circle, white square", lines=["", TOPPING, ""], decks=[filler(10)] * 3
    )
    s.apply(0, {"type": "propose_replace"})
    s.apply(1, {"type": "top", "order": [2, 0, 1]})
    assert s.proposal is None and {"type": "propose_replace"} in s.legal_actions(2)


def test_without_enough_cards_the_agreed_replacement_cannot_happen():
    s = table(2, "live", display="red waves, yellow circle, white square", decks=[filler(10)] * 2, stack="blue waves")
    s.apply(0, {"type": "propose_replace"})
    s.apply(1, {"type": "agree_replace"})
    assert [len(p) for p in s.display] == [1, 1, 1] and s.stack == cards("blue waves") and s.proposal is None
    assert "toppo.replace_failed" in [p["code"] for p in s.describe(1, {})]


def test_correspondence_votes_count_before_claims_and_replace_at_the_round_end():
    s = table(
        2,
        "correspondence",
        display="red waves, yellow circle, white square",
        lines=["blue bar, blue bar, blue bar", "green bar, green bar, green bar"],
        decks=[filler(10)] * 2,
        stack="blue waves, blue circle, blue plus",
    )
    s.apply(0, {"type": "propose_replace"})
    assert s.to_act() == [0, 1]  # a vote does not use up the claim
    s.apply(0, {"type": "renew"})
    s.apply(1, {"type": "agree_replace"})
    assert [len(p) for p in s.display] == [1, 1, 1]
    s.apply(1, {"type": "renew"})
    assert [p[-1] for p in s.display] == cards("blue plus, blue circle, blue waves")
    assert s.round == 2
