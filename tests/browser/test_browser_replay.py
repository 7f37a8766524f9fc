"""The replay page steps through a finished game with the keyboard and the slider (static replay.js, under the CSP).

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest

from games import replay, services
from tests.browser.helpers import WAIT, add_person, expect
from tests.games.test_replay import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_arrow_keys_and_the_slider_step_through_a_finished_game(live_server, pages):
    ana, bruno = add_person("ana"), add_person("bruno")
    game = services.game_create(user=ana, kind="toppo", players=2, options={"hands": 1})
    services.game_join(user=bruno, game_id=game.pk)
    game = play(services.game_start(user=ana, game_id=game.pk))
    plies = replay.plies_of(game)
    page = pages.open(viewport={"width": 1200, "height": 900})
    shown = page.locator("#replay")

    page.goto(f"{live_server.url}/tables/{game.pk}/replay/?ply=2")
    expect(shown).to_have_attribute("data-ply", "2")
    page.keyboard.press("ArrowRight")
    expect(shown).to_have_attribute("data-ply", "3", timeout=WAIT)
    expect(page.locator(".replay-log li.current")).to_have_count(1)
    page.keyboard.press("ArrowLeft")
    expect(shown).to_have_attribute("data-ply", "2", timeout=WAIT)
    page.keyboard.press("ArrowLeft")
    expect(shown).to_have_attribute("data-ply", "1", timeout=WAIT)
    page.keyboard.press("End")
    expect(shown).to_have_attribute("data-ply", str(plies), timeout=WAIT)
    page.keyboard.press("Home")
    expect(shown).to_have_attribute("data-ply", "0", timeout=WAIT)
    expect(page.locator(".replay-log li.current")).to_have_count(0)

    # The slider shows the move it is set to.
    page.locator("#replay-ply").fill(str(plies // 2))
    expect(shown).to_have_attribute("data-ply", str(plies // 2), timeout=WAIT)
    assert pages.errors == []
