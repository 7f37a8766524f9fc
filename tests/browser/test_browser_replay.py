"""The replay page steps through a finished game with the keyboard and the slider (static replay.js, under the CSP).

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest

from games import services
from games.selectors import replay
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


STATE = """() => {
  const nav = document.querySelector('.replay-controls').getBoundingClientRect();
  const current = document.querySelector('.replay-log li.current');
  return {
    marker: window.__kept || null, ply: document.getElementById('replay').dataset.ply,
    fresh: !document.getElementById('replay-step').dataset.seen, board:
    document.getElementById('replay-step').innerHTML, row: current ? current.dataset.seq : null, label:
    document.getElementById('replay-label').textContent, navTop: Math.round(nav.top), scrollY:
    Math.round(window.scrollY), stepMs: window.toposReplay.stepMs,
  };
}"""


@pytest.mark.parametrize("kind,options", [("topology", {}), ("topoum", {}), ("toppo", {"hands": 1})])
def test_stepping_swaps_the_board_and_the_log_row_without_loading_the_page(live_server, pages, kind, options):
    # Decision 26: a step replaces the board and the current log row only; the page is not loaded again (a marker set
    # on the window survives), the controls do not move, and the address follows the move (Back steps back).
    ana, bruno = add_person("ana"), add_person("bruno")
    game = services.game_create(user=ana, kind=kind, players=2, options=options)
    services.game_join(user=bruno, game_id=game.pk)
    game = play(services.game_start(user=ana, game_id=game.pk))
    page = pages.open(viewport={"width": 1200, "height": 900})
    base = f"{live_server.url}/tables/{game.pk}/replay/"
    page.goto(f"{base}?ply=2")
    page.locator(".replay-controls").evaluate("nav => window.scrollTo(0, nav.getBoundingClientRect().top - 40)")
    page.evaluate("() => { window.__kept = 'the same page'; }")

    def step(how, ply: int) -> dict:
        before = page.evaluate(STATE)
        page.evaluate("() => { document.getElementById('replay-step').dataset.seen = '1'; }")
        how()
        expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply), timeout=WAIT)
        after = page.evaluate(STATE)
        assert after["marker"] == "the same page" and after["fresh"]  # no page load; a new board
        assert (after["navTop"], after["scrollY"]) == (before["navTop"], before["scrollY"])  # nothing moved
        assert after["label"] != before["label"] and after["row"] != before["row"]
        assert page.url.endswith(f"?ply={ply}") or how == page.go_back
        return after

    boards = {page.evaluate(STATE)["board"]}
    boards.add(step(lambda: page.locator("#replay-forward").click(), 3)["board"])
    boards.add(step(lambda: page.keyboard.press("ArrowRight"), 4)["board"])
    boards.add(step(lambda: page.keyboard.press("ArrowLeft"), 3)["board"])
    assert len(boards) >= 2  # the boards drawn differ
    step(page.go_back, 4)  # the history holds each step: Back goes to the move shown before
    assert page.url.endswith("?ply=4")
    step(page.go_back, 3)
    row = page.locator(".replay-log li[data-seq]").nth(0)  # a log row steps to the move it made
    row.scroll_into_view_if_needed()  # where a person scrolls to click it; the step itself moves nothing
    step(lambda: row.locator("a").click(), 1)
    assert page.evaluate(STATE)["row"] == row.get_attribute("data-seq")
    page.reload()  # the address of a move is a link to it
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")
    assert pages.errors == []
