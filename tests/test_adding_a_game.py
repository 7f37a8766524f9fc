"""docs/adding-a-game.md lists what a new game needs; this keeps the list true for every game the registry finds."""

from __future__ import annotations

import pathlib
import re

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template.loader import get_template, select_template

from boards import registry
from engine.core import all_games

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "adding-a-game.md"


def fenced(kind: str) -> list[str]:
    match = re.search(rf"^```{kind}\n(.*?)^```", GUIDE.read_text(), re.M | re.S)
    assert match, f"docs/adding-a-game.md has no ```{kind} block"
    return [line.strip() for line in match.group(1).splitlines() if line.strip()]


GAMES = sorted(all_games())


def test_the_registry_finds_the_three_games():
    assert {"topoum", "toppo", "topology"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_each_file_the_guide_lists(game):
    missing = [
        pattern.format(game=game) for pattern in fenced("files") if not (ROOT / pattern.format(game=game)).is_file()
    ]
    assert missing == [], f"{game} lacks what docs/adding-a-game.md says a game needs: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_shared_place_the_guide_lists_names_each_game(game):
    """A shared place that no longer names a game (it reads the registry now) must leave the guide's list."""
    places = fenced("places")
    assert places
    silent = [place for place in places if game not in (ROOT / place).read_text(errors="replace").lower()]
    assert silent == [], f"these no longer name {game}: take them off docs/adding-a-game.md's shared list: {silent}"


def test_the_guide_names_no_file_that_is_not_there():
    for place in fenced("places"):
        assert (ROOT / place).is_file(), place


@pytest.mark.parametrize("game", GAMES)
def test_the_boards_registry_finds_each_part_of_the_game_in_its_home(game):
    """What boards.registry hands the site (board, rules pages, script, styles, app) is the game's own."""
    home = ROOT / "boards" / game
    assert game in registry.board_kinds()
    assert apps.get_app_config(f"board_{game}").path == str(home)
    assert pathlib.Path(select_template(registry.board_template(game)).origin.name).is_relative_to(home)
    for locale in ("en", "es", "zh_Hant"):
        prose = get_template(registry.rules_templates(game, locale)[0])
        assert pathlib.Path(prose.origin.name).is_relative_to(home)
    for path in (registry.script(game), registry.stylesheet(game)):
        assert pathlib.Path(finders.find(path)).is_relative_to(home), path
    assert registry.presenter_for(game).__name__ == f"boards.{game}.presenter"
