"""What each seat sees (ruling G0.3), sampled states for bots, log lines, and refused actions."""

from __future__ import annotations

import json

import pytest
from toppo_table import GAME, cards, filler, snapshot, table, total_cards

from engine.core import IllegalAction, make_rng

DISPLAY = "red waves, yellow circle, white square"
TOPPING = "yellow plus, green square, red circle"


def test_the_table_is_public_the_decks_stack_and_seed_are_nobodys():
    s = table(
        3,
        "live",
        display=["blue bar, red waves", "yellow circle", "white square"],
        lines=["blue plus", "green bar, green bar", ""],
        decks=[filler(10), filler(11), filler(12)],
        stack=filler(7),
    )
    view = s.view(1)
    assert view["lines"][0] == [{"colour": "blue", "symbol": "plus"}]
    assert view["deck_sizes"] == [10, 11, 12] and view["held"] == [11, 13, 12]
    assert view["stack_size"] == 7 and view["covered"] == 1
    assert view["display"][0] == {"top": {"colour": "red", "symbol": "waves"}, "height": 2}
    assert "seed" not in view and "decks" not in view and "stack" not in view
    planted = GAME.plant_secrets(s)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(s.view(viewer))
        assert not any(marker in text for marker in planted[None])
    assert len(planted[None]) == 10 + 11 + 12 + 7 + 1 + 1  # decks, stack, the covered card, the seed


def test_sealed_claims_are_planted_secrets_of_their_owner():
    s = GAME.new_state(3, {}, 2)
    planted = GAME.plant_secrets(s)
    for viewer in (0, 1, 2):
        text = json.dumps(s.view(viewer))
        assert planted[viewer][0] in text
        assert not any(planted[other][0] in text for other in (0, 1, 2) if other != viewer)
    assert not any(planted[s_][0] in json.dumps(s.view(None)) for s_ in (0, 1, 2))


@pytest.mark.parametrize("pace", ["live", "correspondence"])
def test_a_sampled_state_shows_the_seat_the_same_view(pace):
    s = GAME.new_state(4, {"pace": pace}, 13)
    rng = make_rng("t", 0)
    for step in range(300):  # play a while (not to the end) so that piles, claims and lines are varied
        seat = rng.choice(s.to_act())
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    for seat in range(4):
        view = s.view(seat)
        guess = GAME.determinize(view, seat, make_rng("guess", seat))
        assert guess.view(seat) == view
        assert guess.to_act() == s.to_act()
        assert total_cards(guess) == total_cards(s) == 150
    other = GAME.determinize(s.view(0), 0, make_rng("other", 0))

    # Hidden cards are sampled, not copied; cards everyone saw go under a deck stay where they lie.
    def hidden(state):
        unseen = [[c for c, k in zip(d, seen) if not k] for d, seen in zip(state.decks, state.seen)]
        return state.stack, unseen, [p[:-1] for p in state.display]

    assert hidden(other) != hidden(s)
    for deck, guessed, seen in zip(s.decks, other.decks, s.seen):
        assert [c for c, k in zip(guessed, seen) if k] == [c for c, k in zip(deck, seen) if k]


def test_describe_is_data_not_words():  # decision 13: the site words it in each reader's language
    s = table(2, "live", display=DISPLAY, lines=["", ""], decks=[cards("blue bar"), filler(5)])
    s.apply(0, {"type": "reveal"})
    assert s.describe(0, {"type": "reveal"}) == [
        {"code": "toppo.reveal", "seat": 0, "card": {"colour": "blue", "symbol": "bar"}}
    ]
    s = table(2, "live", display=DISPLAY, lines=[TOPPING, "blue bar"], decks=[filler(10), filler(10)])
    s.apply(0, {"type": "top", "order": [0, 1, 2]})
    entry = s.describe(0, {})
    assert [p["code"] for p in entry] == ["toppo.wrong", "toppo.interrupt"]
    assert entry[0]["call"] == "top" and entry[0]["penalty"] == 5 and len(entry[0]["line"]) == 3
    assert entry[1] == {"code": "toppo.interrupt", "restarter": 0}
    s = table(
        2,
        "live",
        display="red waves, blue plus, white bar",
        lines=["red waves, green bar, blue bar", ""],
        decks=[filler(10), filler(10)],
    )
    s.apply(0, {"type": "match", "pairs": [[0, 0]]})
    assert s.describe(0, {}) == [
        {
            "code": "toppo.match",
            "seat": 0,
            "back": 2,
            "pairs": [{"card": {"colour": "red", "symbol": "waves"}, "display": 0}],
        }
    ]


BOGUS = [
    {},
    {"type": "shout"},
    {"type": "top"},
    {"type": "top", "order": [0, 0, 1]},
    {"type": "top", "order": [0, 1]},
    {"type": "top", "order": [0, 1, 2], "extra": 1},
    {"type": "top", "order": [True, 0, 2]},
    {"type": "match", "pairs": []},
    {"type": "match", "pairs": [[0, 3]]},
    {"type": "match", "pairs": [[1, 0], [0, 1]]},
    {"type": "match", "pairs": [[0, 0], [0, 1]]},
    {"type": "match", "pairs": "0,0"},
    {"type": "choose_display", "size": 4},
    "top",
    None,
]


@pytest.mark.parametrize("pace", ["live", "correspondence"])
@pytest.mark.parametrize("action", BOGUS, ids=[json.dumps(a) for a in BOGUS])
def test_malformed_actions_are_refused_and_change_nothing(pace, action):
    s = table(2, pace, display=DISPLAY, lines=[TOPPING, "blue bar, blue bar, blue bar"], decks=[filler(10), filler(10)])
    before = snapshot(s)
    with pytest.raises(IllegalAction) as err:
        s.apply(0, action)
    assert err.value.code and snapshot(s) == before
    assert s.explain_illegal(0, action) == err.value.reason


def test_a_seat_that_is_not_at_the_table_is_refused():
    s = table(2, "live", display=DISPLAY, decks=[filler(10), filler(10)])
    for seat in (-1, 2, "0", True):
        with pytest.raises(IllegalAction, match="no_such_seat"):
            s.apply(seat, {"type": "reveal"})


@pytest.mark.parametrize("pace", ["live", "correspondence"])
def test_a_clone_is_independent_of_its_original(pace):
    s = GAME.new_state(3, {"pace": pace}, 17)
    rng = make_rng("clone", 0)
    for _ in range(150):
        before = snapshot(s)
        copy = s.clone()
        assert snapshot(copy) == before
        seat = rng.choice(copy.to_act())
        copy.apply(seat, rng.choice(copy.legal_actions(seat)))
        assert snapshot(s) == before
        seat = rng.choice(s.to_act())
        s.apply(seat, rng.choice(s.legal_actions(seat)))
