"""Decks remember what the table saw: a line that goes back lies face up in everyone's memory.

Every line is public (rulings P3, P4), so the order of the cards that went under a deck is
known to every player who watched; the view says so (`decks_seen`), so that a player who
comes back after two days knows as much as one who never looked away, and a bot no more
than either.  Cards nobody saw (the deal, penalty cards from the stack) stay hidden.
"""

from __future__ import annotations

import json

from toppo_table import GAME, cards, filler, table

from engine.core import make_rng

DISPLAY = "red waves, yellow circle, white square"
TOPPING = "yellow plus, green square, red circle"  # tops DISPLAY in the order [2, 0, 1]
DULL = "blue bar, blue plus, green bar"  # neither tops nor matches DISPLAY


def named(view_cards):
    return [None if c is None else f"{c['colour']} {c['symbol']}" for c in view_cards]


def test_a_renewed_line_shows_under_the_deck_for_every_viewer():  # ruling P4
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, DULL], decks=[filler(6), filler(6, 7)])
    s.apply(0, {"type": "renew"})
    s.apply(1, {"type": "renew"})
    # The round resolved: both lines went under, then each deck gave its top three to the new line.
    for viewer in (None, 0, 1):
        seen = s.view(viewer)["decks_seen"]
        assert named(seen[0]) == [None] * 3 + ["yellow plus", "green square", "red circle"]
        assert named(seen[1]) == [None] * 3 + ["blue bar", "blue plus", "green bar"]
    assert s.decks[0][3:] == cards(TOPPING)


def test_seen_cards_come_back_into_the_line_and_leave_the_memory():
    s = table(
        2,
        "correspondence",
        display=DISPLAY,
        lines=[DULL, DULL],
        decks=[cards("white waves, white circle, white bar"), filler(3)],
    )
    for _ in range(2):  # round 1 sends DULL under the deck; round 2 deals it back into the line
        s.apply(0, {"type": "renew"})
        s.apply(1, {"type": "renew"})
    assert s.lines[0] == cards(DULL)
    # The three white cards were the line of round 2, so they went under in everyone's sight.
    assert named(s.view(1)["decks_seen"][0]) == ["white waves", "white circle", "white bar"]


def test_a_top_leaves_the_deck_and_the_others_lines_go_under_seen():
    s = table(2, "correspondence", display=DISPLAY, lines=[TOPPING, DULL], decks=[filler(5), filler(5)])
    s.apply(0, {"type": "top", "order": [2, 0, 1]})
    s.apply(1, {"type": "renew"})
    assert named(s.view(0)["decks_seen"][0]) == [None, None]  # her line is on the display now
    assert named(s.view(0)["decks_seen"][1])[-3:] == ["blue bar", "blue plus", "green bar"]


def test_penalty_cards_go_under_unseen():  # ruling P3: a wrong top costs the line plus five stack cards
    s = table(2, "live", display=DISPLAY, lines=[TOPPING, ""], decks=[filler(4), filler(4)], stack=filler(8, 3))
    s.apply(0, {"type": "top", "order": [0, 1, 2]})
    seen = named(s.view(1)["decks_seen"][0])
    assert seen == [None] * 4 + ["yellow plus", "green square", "red circle"] + [None] * 5


def test_a_new_hand_forgets_every_deck():
    s = GAME.new_state(2, {"pace": "correspondence", "hands": 2}, 5)
    for seat in (0, 1):
        s.apply(seat, {"type": "renew"})
    assert any(s.seen[0])
    s.decks[0], s.seen[0] = s.decks[0][:5], s.seen[0][:5]
    s.apply(0, {"type": "toppo"})
    s.apply(1, {"type": "renew"})
    assert s.hand == 1 and s.seen == [[False] * 33, [False] * 33]
    assert all(c is None for deck in s.view(0)["decks_seen"] for c in deck)


def test_a_sampled_state_keeps_what_was_seen_and_draws_the_rest():
    s = GAME.new_state(2, {"pace": "correspondence"}, 8)
    rng = make_rng("play", 0)
    for _ in range(30):
        seat = rng.choice(s.to_act())
        s.apply(seat, {"type": "renew"})
    view = s.view(1)
    guesses = [GAME.determinize(view, 1, make_rng("guess", i)) for i in range(5)]
    for guess in guesses:
        assert guess.view(1) == view
        for deck, guessed, seen in zip(s.decks, guess.decks, s.seen):
            assert [c for c, k in zip(guessed, seen) if k] == [c for c, k in zip(deck, seen) if k]
    assert len({json.dumps(g.stack) for g in guesses}) > 1


def test_only_unseen_deck_cards_are_secret():
    s = table(2, "correspondence", display=DISPLAY, lines=[DULL, DULL], decks=[filler(4), filler(4)])
    s.apply(0, {"type": "renew"})
    s.apply(1, {"type": "renew"})
    planted = GAME.plant_secrets(s)
    text = json.dumps(s.view(0))
    assert not any(marker in text for marker in planted[None])
    assert sum(1 for m in planted[None] if m.startswith("SECRET-deck")) == 2  # one unseen card per deck


def test_a_match_stored_before_decks_remembered_loads_with_nothing_seen():
    s = GAME.new_state(2, {"pace": "correspondence"}, 9)
    data = s.to_json()
    del data["seen"]
    loaded = GAME.state_class.from_json(data)
    assert loaded.seen == [[False] * len(d) for d in loaded.decks]
    assert all(c is None for deck in loaded.view(0)["decks_seen"] for c in deck)
