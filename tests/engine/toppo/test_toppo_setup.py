"""The card set, the deal and the table options (rulings P1, P2, G0.1)."""

from __future__ import annotations

from collections import Counter

import pytest
from toppo_table import GAME, card, cards, total_cards

from engine.core import InvalidOptions
from engine.toppo.cards import (
    COLOURS,
    SYMBOLS,
    coincide,
    full_set,
    is_top,
    match_choices,
    sets_for,
    top_orders,
)


def test_one_set_is_five_colours_by_five_symbols_six_times():  # ruling P1
    deck = full_set(1)
    assert len(deck) == 150
    assert COLOURS == ("red", "yellow", "white", "green", "blue")
    assert SYMBOLS == ("waves", "circle", "square", "bar", "plus")
    counts = Counter(deck)
    assert len(counts) == 25 and set(counts.values()) == {6}


def test_two_sets_from_five_players():  # ruling P1
    assert [sets_for(n) for n in range(2, 9)] == [1, 1, 1, 2, 2, 2, 2]
    assert len(full_set(2)) == 300 and set(Counter(full_set(2)).values()) == {12}


@pytest.mark.parametrize("players,total", [(2, 150), (3, 150), (4, 150), (5, 300), (8, 300)])
@pytest.mark.parametrize("pace", ["live", "correspondence"])
def test_deal_gives_33_cards_each_and_the_rest_is_the_stack(players, total, pace):  # ruling P2
    s = GAME.new_state(players, {"pace": pace}, 11)
    held = [len(d) + len(line) for d, line in zip(s.decks, s.lines)]
    assert held == [33] * players
    assert s.size == 3 and [len(p) for p in s.display] == [1, 1, 1]
    assert len(s.stack) == total - 33 * players - 3
    assert total_cards(s) == total
    every = (
        [c for d in s.decks for c in d]
        + [c for line in s.lines for c in line]
        + s.stack
        + [c for p in s.display for c in p]
    )
    assert set(Counter(every).values()) == {total // 25}


def test_five_players_use_300_cards_and_decks_of_33():
    s = GAME.new_state(5, {}, 3)
    view = s.view(0)
    assert view["held"] == [33] * 5
    assert view["stack_size"] + view["covered"] + sum(view["held"]) + len(view["display"]) == 300
    assert view["stack_size"] == 300 - 165 - 3


def test_start_player_is_drawn_from_the_seed():  # ruling G0.1
    starts = {GAME.new_state(4, {"pace": "live"}, seed).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert GAME.new_state(4, {}, "same").start == GAME.new_state(4, {}, "same").start


def test_options_defaults_and_refusals():
    assert GAME.validate_options(2, {}) == {"hands": 3, "pace": "correspondence"}
    for players in (1, 9):
        with pytest.raises(InvalidOptions) as err:
            GAME.validate_options(players, {})
        assert err.value.reason == ("options.players", {"game": "toppo", "min": 2, "max": 8, "players": str(players)})
    with pytest.raises(InvalidOptions) as err:
        GAME.validate_options(3, {"pace": "blitz"})
    assert err.value.code == "options.one_of" and err.value.params["option"] == "pace"
    with pytest.raises(InvalidOptions) as err:
        GAME.validate_options(3, {"hands": 0})
    assert err.value.code == "options.at_least" and err.value.params["option"] == "hands"


def test_coincide_means_same_colour_or_same_symbol():
    assert coincide(card("red waves"), card("red plus"))
    assert coincide(card("red waves"), card("blue waves"))
    assert not coincide(card("red waves"), card("blue plus"))


def test_top_orders_lists_every_fitting_order():
    tops = cards("red waves, yellow circle, white square")
    line = cards("yellow plus, green square, red circle")
    # red circle -> red waves (colour), yellow plus -> yellow circle (colour), green square -> white square
    assert top_orders(line, tops) == [[2, 0, 1]]
    assert is_top(line, tops, [2, 0, 1]) and not is_top(line, tops, [0, 1, 2])
    line2 = cards("red circle, red circle, white square")
    # red circle fits display 0 (red) and display 1 (circle); white square only display 2
    assert sorted(top_orders(line2, tops)) == [[0, 1, 2], [1, 0, 2]]


def test_match_choices_pair_identical_cards_only():
    tops = cards("red waves, blue plus, red waves")
    line = cards("red waves, green bar, blue plus")
    choices = match_choices(line, tops)
    assert [[0, 0]] in choices and [[0, 2]] in choices and [[2, 1]] in choices
    assert [[0, 0], [2, 1]] in choices and [[0, 2], [2, 1]] in choices
    assert len(choices) == 5  # (2 places for red waves + skip) x (1 place for blue plus + skip) - nothing
    assert all(pair[0] != 1 for choice in choices for pair in choice)
    assert match_choices(cards("green bar, green bar, green bar"), tops) == []
