"""The capabilities every game declares on engine.core.Game (decision 15) agree with its options and its states."""

from __future__ import annotations

import pytest

from engine.core import SHARED, all_games, tie_breaks_of

GAMES = sorted(all_games())


@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_played_by_correspondence_and_names_its_paces_in_the_catalogue(name):
    game = all_games()[name]
    meta = game.metadata()
    assert "correspondence" in game.paces and set(game.paces) <= {"correspondence", "live"}
    assert meta["paces"] == list(game.paces) and meta["higher_is_better"] is game.higher_is_better
    assert meta["pace_option"] == game.pace_option


@pytest.mark.parametrize("name", GAMES)
def test_the_pace_option_takes_every_pace_and_the_engine_plays_the_one_given(name):
    game = all_games()[name]
    if game.pace_option is None:
        assert len(game.paces) == 1  # a game with several paces must learn which one its table plays
        assert game.options_at_pace({}, "correspondence") == {}
        return
    option = next(o for o in game.options if o.name == game.pace_option)
    assert set(option.choices) == set(game.paces)
    for pace in game.paces:
        options = game.options_at_pace({game.pace_option: "something else"}, pace)
        state = game.new_state(game.min_players, options, "paces")
        assert state.view(None)[game.pace_option] == pace
        assert game.options_chosen(options) == {}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_names_its_tie_break_rules_in_the_catalogue(name):
    game = all_games()[name]
    assert game.metadata()["tie_breaks"] == list(game.tie_breaks)
    assert len(set(game.tie_breaks)) == len(game.tie_breaks) and SHARED not in game.tie_breaks
    assert all(code.isidentifier() and code.islower() for code in game.tie_breaks)  # codes, not words


def test_a_tied_seat_takes_the_deepest_rule_it_needed_or_shared():
    # Scores, then two rules: seat 0 alone on 9; seats 1-3 tied on 5, told apart by the first rule (1 against 2
    # and 3) and by the second (2 against 3); seats 4 and 5 tied on 2 by every rule.
    keys = [(9, 0, 0), (5, 3, 0), (5, 1, 4), (5, 1, 2), (2, 1, 1), (2, 1, 1)]
    assert tie_breaks_of(keys, ("first", "second")) == [None, "first", "second", "second", SHARED, SHARED]
    assert tie_breaks_of([(1,), (1,), (0,)], ()) == [SHARED, SHARED, None]
    with pytest.raises(ValueError):
        tie_breaks_of([(1, 2)], ())
