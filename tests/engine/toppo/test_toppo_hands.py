"""Hands, penalty points and the match (rulings P2, P5): toppo, running totals, the display choice."""

from __future__ import annotations

import pytest
from toppo_table import GAME, filler, snapshot, table

from engine.core import IllegalAction, NotYourDecision

DISPLAY = "red waves, yellow circle, white square"


def test_toppo_scores_one_point_per_card_in_deck_and_line():  # ruling P5
    s = table(
        3,
        "live",
        display=DISPLAY,
        lines=["blue bar, blue bar, blue bar", "red plus, red plus", ""],
        decks=[filler(6), filler(20), filler(15)],
        hands=3,
    )
    s.apply(0, {"type": "toppo"})  # 6 + 3 = 9 cards: fewer than ten
    assert s.hand_points == [[0, 22, 15]]  # 20 + 2 and 15 + 0; the caller scores nothing
    assert s.totals == [0, 22, 15]
    assert s.events[0]["kind"] == "toppo" and s.events[0]["held"] == 9
    assert {
        "code": "toppo.toppo",
        "seat": 0,
        "held": 9,
        "hand": 1,
        "points": [0, 22, 15],
        "totals": [0, 22, 15],
    } in s.describe(0, {"type": "toppo"})


def test_the_next_hand_is_dealt_and_the_highest_total_chooses_the_display():  # ruling P2
    s = table(3, "live", display=DISPLAY, decks=[filler(6), filler(20), filler(15)], hands=3)
    s.apply(0, {"type": "toppo"})
    assert s.phase == "choose_display" and s.hand == 1
    assert s.chooser == 1 and s.start == 1 and s.to_act() == [1]
    assert [len(d) for d in s.decks] == [33, 33, 33] and s.display == []
    assert s.legal_actions(1) == [{"type": "choose_display", "size": n} for n in (3, 4, 5)]
    assert s.legal_actions(0) == []
    before = snapshot(s)
    with pytest.raises(NotYourDecision, match="toppo.chooser"):
        s.apply(0, {"type": "choose_display", "size": 4})
    with pytest.raises(IllegalAction, match="toppo.choose_size"):
        s.apply(1, {"type": "reveal"})
    assert snapshot(s) == before
    s.apply(1, {"type": "choose_display", "size": 5})
    assert s.size == 5 and len(s.display) == 5 and s.phase == "play"
    assert s.restarter == 1  # the start player plays first (rules: Start)
    for _ in range(5):
        s.apply(1, {"type": "reveal"})
    assert len(s.lines[1]) == 5 and {"type": "reveal"} not in s.legal_actions(1)  # lines as long as the display


def test_two_players_never_choose_five():  # rules: Special Cases
    s = table(
        2, "correspondence", display=DISPLAY, lines=["blue bar, blue bar, blue bar", ""], decks=[filler(3), filler(30)]
    )
    s.apply(0, {"type": "toppo"})
    s.apply(1, {"type": "renew"})
    assert s.chooser == 1
    assert s.legal_actions(1) == [{"type": "choose_display", "size": 3}, {"type": "choose_display", "size": 4}]
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="toppo.choose_size"):
        s.apply(1, {"type": "choose_display", "size": 5})
    assert snapshot(s) == before
    s.apply(1, {"type": "choose_display", "size": 4})
    assert [len(line) for line in s.lines] == [4, 4]  # correspondence: the first round is filled at once
    assert GAME.timeout_action(s, 0) == {"type": "renew"}


def test_a_tie_for_the_highest_total_is_drawn():  # ruling G0.1
    choosers = set()
    for seed in range(30):
        s = table(3, "live", display=DISPLAY, decks=[filler(5), filler(12), filler(12)], seed=seed)
        s.apply(0, {"type": "toppo"})
        choosers.add(s.chooser)
    assert choosers == {1, 2}


def test_a_missed_display_choice_takes_three_cards():
    s = table(2, "live", display=DISPLAY, decks=[filler(3), filler(30)])
    s.apply(0, {"type": "toppo"})
    assert GAME.timeout_action(s, 1) == {"type": "choose_display", "size": 3}
    assert GAME.timeout_action(s, 0) is None


def test_the_match_ends_after_the_last_hand_lowest_total_wins_ties_share():  # ruling P2
    s = table(4, "live", display=DISPLAY, decks=[filler(5), filler(12), filler(30), filler(12)], hands=2)
    s.totals = [20, 3, 0, 8]
    s.hand_points = [[20, 3, 0, 8]]
    s.hand = 1
    s.apply(0, {"type": "toppo"})
    assert s.phase == "over" and s.is_over() and s.to_act() == []
    assert s.totals == [20, 15, 30, 20]
    ranks = {r.seat: r.rank for r in s.results()}
    assert ranks == {1: 1, 0: 2, 3: 2, 2: 4}
    # No rule breaks a tie of penalty totals: the two seats on 20 say they share the place, as data (decision 24).
    assert {r.seat: r.tie_break for r in s.results()} == {0: "shared", 1: None, 2: None, 3: "shared"}
    assert GAME.tie_breaks == ()
    assert s.results()[1].detail == {"penalty_points": 15, "hands": [3, 12]}
    assert s.describe(0, {"type": "toppo"})[-1]["code"] == "toppo.over"
    assert s.legal_actions(0) == []
    with pytest.raises(NotYourDecision, match="game_over"):
        s.apply(0, {"type": "toppo"})


def test_scores_count_penalty_points_lower_is_better():
    s = table(2, "live", display=DISPLAY, lines=["blue bar", ""], decks=[filler(10), filler(20)])
    s.totals = [4, 1]
    assert s.scores() == [15.0, 21.0]  # running total plus the cards held now
    assert GAME.higher_is_better is False


def test_a_whole_match_of_three_hands_keeps_running_totals():
    s = GAME.new_state(2, {"pace": "correspondence", "hands": 3}, 21)
    for hand in range(3):
        if s.phase == "choose_display":
            s.apply(s.chooser, {"type": "choose_display", "size": 4})
        # shrink the first seat's cards so that she may call toppo
        s.decks[0], s.seen[0] = s.decks[0][:5], s.seen[0][:5]
        held_other = s.held(1)
        before = list(s.totals)
        s.apply(0, {"type": "toppo"})
        s.apply(1, {"type": "renew"})
        assert s.totals == [before[0], before[1] + held_other]
    assert s.phase == "over" and len(s.hand_points) == 3
    assert s.results()[0].rank == 1
