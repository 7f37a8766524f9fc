"""Two people play Topology in a real Chromium: log in, open a table, join, start, place tiles by clicking.

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium and screenshots.
"""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.helpers import WAIT, add_person, ana_and_bruno, expect, log_in, open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tile_count(page) -> int:
    return page.locator("svg.topo-board g.tiles > g.tile").count()


def place_one_tile(page) -> None:
    """Pick the selected revealed tile, click a highlighted cell, turn it once if it can turn, place it."""
    before = tile_count(page)
    spot = page.locator("svg.topo-board .spot.on:not(.far)").first
    spot.click()
    turn = page.locator(".place-controls [data-do=turn]")
    expect(page.locator(".place-controls")).to_be_visible()
    preview_before = page.locator("use.preview").get_attribute("href")
    if turn.is_enabled():
        turn.click()
        assert page.locator("use.preview").get_attribute("href") is not None
    assert preview_before.startswith("#tpl-")
    page.locator(".place-controls [data-do=place]").click()
    expect(page.locator("svg.topo-board g.tiles > g.tile")).to_have_count(before + 1, timeout=WAIT)


def play_turn(page, tiles: int) -> None:
    """Place the turn's `tiles` revealed tiles by clicking, then end the turn.

    Each placement waits for the hand to come back from the server (a loaded machine may swap the
    page a moment after the placed tile shows), so a slow swap is never read as an empty hand.
    """
    free = page.locator(".hand-tile:not([disabled])")
    for _ in range(tiles):
        expect(free.first).to_be_visible(timeout=WAIT)
        place_one_tile(page)
    expect(page.get_by_role("button", name="End turn")).to_be_visible(timeout=WAIT)
    expect(free).to_have_count(0)  # every revealed tile was placed
    ended = page.locator(".log-lines li", has_text="ended the turn")
    before = ended.count()
    page.get_by_role("button", name="End turn").click()
    # At least this turn's end shows in the log (a bot may have answered with its own turn already).
    expect(ended.nth(before)).to_be_visible(timeout=WAIT)


def test_two_people_play_topology_by_clicking(live_server, pages, shots):
    base = live_server.url
    ana, bruno = ana_and_bruno(pages, base)

    # Ana opens a two-player Topology table.
    table = open_table(ana, base, "topology")
    expect(ana.locator(".seat-list")).to_contain_text("ana")

    # Bruno finds it on the home page and joins.
    bruno.goto(f"{base}/")
    bruno.locator(f"form[action='/tables/{table}/join/'] button").click()
    bruno.wait_for_url(f"{base}/tables/{table}/")
    expect(bruno.get_by_role("button", name="Leave")).to_be_visible()

    # Ana's waiting room notices him by polling, and she starts the game.
    expect(ana.locator(".seat-list")).to_contain_text("bruno", timeout=WAIT)
    ana.get_by_role("button", name="Start the game").click()
    expect(ana.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    expect(bruno.locator("svg.topo-board")).to_be_visible(timeout=WAIT)

    game = Game.objects.get(pk=table)
    first, second = (ana, bruno) if game.to_act == [game.seats.get(user__username="ana").index] else (bruno, ana)
    expect(first.locator(".topo-status .your-turn")).to_be_visible()
    assert second.locator(".topo-status .your-turn").count() == 0
    assert tile_count(first) == 1

    # The first player places her three tiles by clicking, ends the turn; the other page updates.
    play_turn(first, 3)
    expect(first.locator(".topo-status .your-turn")).to_have_count(0)
    expect(second.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
    assert tile_count(second) == 4
    expect(second.locator(".log-lines")).to_contain_text("ended the turn")

    # The second player places one tile, takes it back, places it again, and the first sees the moves.
    place_one_tile(second)
    second.get_by_role("button", name="Undo").click()
    expect(second.locator("svg.topo-board g.tiles > g.tile")).to_have_count(4, timeout=WAIT)
    play_turn(second, 3)
    expect(first.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
    assert tile_count(first) == 7

    game.refresh_from_db()
    assert game.version == 3 + 1 + 1 + 1 + 3 + 1  # three places and an end, a place and an undo, ...
    assert game.status == Game.Status.RUNNING
    first.screenshot(path=str(shots / "topology-desktop.png"), full_page=True)
    bruno.screenshot(path=str(shots / "topology-phone.png"), full_page=True)
    first.locator("svg.topo-board .spot.on:not(.far)").first.click()
    first.locator("svg.topo-board").screenshot(path=str(shots / "topology-preview.png"))
    assert not pages.errors, pages.errors


def test_the_advanced_variant_against_a_bot_by_clicking(live_server, pages, shots):
    # ruling L6: reveal two tiles, then reveal a third or turn a placed tile half a turn.
    add_person("ana")
    base = live_server.url
    page = pages.open(viewport={"width": 1100, "height": 900})
    log_in(page, base, "ana")
    page.goto(f"{base}/tables/new/")
    page.locator("input[name=opt__topology__advanced]").check()
    page.select_option("select[name=bot_1]", "random")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    # Every other seat a bot and the form's "start when full" ticked: the table deals itself at once (decision 26,
    # point 7); there is no "Start the game" to press.
    expect(page.get_by_role("button", name="Start the game")).to_have_count(0)
    # In the embedded setup the bot answers within the request, so it is Ana's turn now.
    expect(page.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("button", name="Reveal a third tile")).to_be_visible()
    page.locator("svg.topo-board g.tile.turnable").first.click()
    page.get_by_role("button", name="Turn this tile half a turn").click()
    expect(page.locator(".log-lines")).to_contain_text("half a turn", timeout=WAIT)
    play_turn(page, 2)
    expect(page.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
    page.screenshot(path=str(shots / "topology-advanced.png"), full_page=True)
    assert not pages.errors, pages.errors
