"""Refused table options are worded by the site from the engine's code (decision 13): every code the engines raise
reads in English, Spanish and Traditional Chinese, never as the fallback, and the facts fill the words."""

import re

import pytest
from django.utils import translation

from engine.core import InvalidOptions, all_games, get_game
from games.options_words import options_argument, options_words

FALLBACK = "These options cannot be played; check them and try again."
# An English phrase: three words of Latin letters in a row (game titles such as "Topology" are one word).
ENGLISH = re.compile(r"[A-Za-z]+[,;:]? [A-Za-z]+ [A-Za-z]+")

# One refusal of every code the engines raise, with the option or argument it is about.
CASES = [
    ("topology", 5, {}, "options.players", "players"),
    ("topology", 2, {"colour": "red"}, "options.unknown", "options"),
    ("topoum", 2, {"radius": 2.5}, "options.whole_number", "options.radius"),
    ("toppo", 2, {"hands": 0}, "options.at_least", "options.hands"),
    ("topoum", 2, {"radius": 11}, "options.at_most", "options.radius"),
    ("toppo", 2, {"pace": "blitz"}, "options.one_of", "options.pace"),
    ("topology", 2, {"advanced": "yes"}, "options.true_or_false", "options.advanced"),
    ("topoum", 2, {"line_values": "1,2"}, "options.list", "options.line_values"),
    ("topoum", 2, {"deck": "custom", "types": ["joker"]}, "options.unknown_values", "options.types"),
    ("topoum", 3, {"preset": "duel"}, "topoum.options.duel_players", "options.preset"),
    ("topoum", 2, {"deck": "custom", "types": ["grenade"] * 7}, "topoum.options.deck_size", "options.types"),
    (
        "topoum",
        2,
        {
            "deck": "custom",
            "types": ["bayonet", "short_range", "long_range", "grenade", "mortar_attack", "slingshot", "advance"],
        },
        "topoum.options.categories",
        "options.types",
    ),
    ("topoum", 2, {"line_values": [1, 2, 3]}, "topoum.options.line_values", "options.line_values"),
    (
        "topoum",
        2,
        {"obstacles": True, "farmer": "the_crusher", "preset": "strategists"},
        "topoum.options.obstacle_farmer_deck",
        "options.farmer",
    ),
    ("topology", 3, {"advanced": True}, "topology.options.advanced_players", "options.advanced"),
]


def refusal(kind, players, options) -> InvalidOptions:
    with pytest.raises(InvalidOptions) as err:
        all_games()[kind].validate_options(players, options)
    return err.value


@pytest.mark.parametrize("kind,players,options,code,argument", CASES)
def test_every_refusal_reads_in_each_language(kind, players, options, code, argument):
    exc = refusal(kind, players, options)
    assert exc.code == code and options_argument(exc) == argument
    words = {}
    for language in ("en", "es", "zh-hant"):
        with translation.override(language):
            words[language] = options_words(exc.code, exc.params)
    assert FALLBACK not in words["en"]
    assert words["es"] != words["en"] and words["zh-hant"] != words["en"]
    assert not ENGLISH.search(words["zh-hant"]), words["zh-hant"]


def test_the_facts_fill_the_words():
    with translation.override("es"):
        assert (
            options_words(*refusal("topoum", 2, {"radius": 11}).reason)
            == "La opción «Radio del tablero» debe ser como mucho 10."
        )
        assert "faltan: Expansión, Especial" in options_words(*refusal("topoum", 2, CASES[11][2]).reason)
    with translation.override("zh-hant"):
        assert options_words(*refusal("toppo", 2, {"hands": 0}).reason) == "選項「局數」至少要是 1。"
        assert "10 人" not in options_words(*refusal("topology", 5, {}).reason)
        assert options_words(*refusal("topology", 5, {}).reason).endswith("不是 5 人。")


def test_an_unknown_game_and_an_unknown_code_still_say_what_to_do():
    with pytest.raises(InvalidOptions) as err:
        get_game("chess")
    assert err.value.code == "options.no_such_game" and options_argument(err.value) == "kind"
    with translation.override("es"):
        assert "chess" in options_words(err.value.code, err.value.params)
        assert (
            options_words("options.someday", {})
            == "Estas opciones no se pueden jugar; revísalas y vuelve a intentarlo."
        )
