"""The capabilities every game declares on engine.core.Game (issue 15) agree with its options and its states."""

from __future__ import annotations

import pytest

from engine.core import all_games

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
