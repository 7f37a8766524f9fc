"""Every option word a game's engine declares is listed in its home for makemessages (boards/<game>/option_words.py),
so a new option cannot reach the new-table form in English only."""

from __future__ import annotations

import pytest
from django.utils import translation

from boards import registry
from engine.core import all_games
from games.forms import asked_options


@pytest.mark.parametrize("kind", sorted(registry.board_kinds()))
def test_each_game_lists_the_words_of_its_options(kind):
    module = registry.game_module(kind, "option_words")
    assert module is not None, f"boards/{kind}/option_words.py is missing"
    with translation.override("en"):
        listed = {str(text) for text in module.EXTRACTED}
    wanted = set()
    for option in asked_options(all_games()[kind]):
        wanted.update(text for text in (option["label"], option["help"]) if text)
        wanted.update(value.replace("_", " ") for value in option["choices"] if isinstance(value, str))
    assert sorted(wanted - listed) == []
