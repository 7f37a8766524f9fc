"""Two people play Topology in a real Chromium: log in, open a table, join, start, place tiles by clicking.

Run with `pytest -m browser tests/browser`; needs Debian's Chromium at /usr/bin/chromium.
Set TOPOS_SCREENSHOTS=/some/dir to keep the screenshots of the table.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from accounts.services import user_create  # noqa: E402
from games.models import Game  # noqa: E402

playwright_sync = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PASSWORD = "a-long-browser-password"
WAIT = 15_000  # ms: a few polling rounds (3 s each) at most

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Chromium is not installed")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("TOPOS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    playwright_sync.expect(page.locator(".site-header .who")).to_have_text(username)


def tile_count(page) -> int:
    return page.locator("svg.topo-board g.tiles > g.tile").count()


def place_one_tile(page) -> None:
    """Pick the selected revealed tile, click a highlighted cell, turn it once if it can turn, place it."""
    before = tile_count(page)
    spot = page.locator("svg.topo-board .spot.on:not(.far)").first
    spot.click()
    turn = page.locator(".place-controls [data-do=turn]")
    playwright_sync.expect(page.locator(".place-controls")).to_be_visible()
    preview_before = page.locator("use.preview").get_attribute("href")
    if turn.is_enabled():
        turn.click()
        assert page.locator("use.preview").get_attribute("href") is not None
    assert preview_before.startswith("#tpl-")
    page.locator(".place-controls [data-do=place]").click()
    playwright_sync.expect(page.locator("svg.topo-board g.tiles > g.tile")).to_have_count(before + 1, timeout=WAIT)


def play_turn(page) -> int:
    """Place every revealed tile by clicking, then end the turn; returns how many were placed."""
    placed = 0
    while page.locator(".hand-tile:not([disabled])").count():
        place_one_tile(page)
        placed += 1
    ended = page.locator(".log-lines li", has_text="ended the turn")
    before = ended.count()
    page.get_by_role("button", name="End turn").click()
    # At least this turn's end shows in the log (a bot may have answered with its own turn already).
    playwright_sync.expect(ended.nth(before)).to_be_visible(timeout=WAIT)
    return placed


def test_two_people_play_topology_by_clicking(live_server, browser, fast_hashing, shots):
    user_create(username="ana", email="ana@example.com", password=PASSWORD)
    user_create(username="bruno", email="bruno@example.com", password=PASSWORD)
    base = live_server.url
    ana_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bruno_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    ana, bruno = ana_ctx.new_page(), bruno_ctx.new_page()
    errors = []
    for page in (ana, bruno):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(ana, base, "ana")
        log_in(bruno, base, "bruno")

        # Ana opens a two-player Topology table.
        ana.goto(f"{base}/tables/new/")
        ana.locator("input[name=game][value=topology]").check()
        ana.fill("input[name=players]", "2")
        ana.get_by_role("button", name="Open the table").click()
        ana.wait_for_url(re.compile(r"/tables/\d+/$"))
        table = int(re.search(r"/tables/(\d+)/$", ana.url).group(1))
        playwright_sync.expect(ana.locator(".seat-list")).to_contain_text("ana")

        # Bruno finds it on the home page and joins.
        bruno.goto(f"{base}/")
        bruno.locator(f"form[action='/tables/{table}/join/'] button").click()
        bruno.wait_for_url(f"{base}/tables/{table}/")
        playwright_sync.expect(bruno.get_by_role("button", name="Leave")).to_be_visible()

        # Ana's waiting room notices him by polling, and she starts the game.
        playwright_sync.expect(ana.locator(".seat-list")).to_contain_text("bruno", timeout=WAIT)
        ana.get_by_role("button", name="Start the game").click()
        playwright_sync.expect(ana.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
        playwright_sync.expect(bruno.locator("svg.topo-board")).to_be_visible(timeout=WAIT)

        game = Game.objects.get(pk=table)
        first, second = (ana, bruno) if game.to_act == [game.seats.get(user__username="ana").index] else (bruno, ana)
        playwright_sync.expect(first.locator(".topo-status .your-turn")).to_be_visible()
        assert second.locator(".topo-status .your-turn").count() == 0
        assert tile_count(first) == 1

        # The first player places her three tiles by clicking, ends the turn; the other page updates.
        assert play_turn(first) == 3
        playwright_sync.expect(first.locator(".topo-status .your-turn")).to_have_count(0)
        playwright_sync.expect(second.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
        assert tile_count(second) == 4
        playwright_sync.expect(second.locator(".log-lines")).to_contain_text("ended the turn")

        # The second player places one tile, takes it back, places it again, and the first sees the moves.
        place_one_tile(second)
        second.get_by_role("button", name="Undo").click()
        playwright_sync.expect(second.locator("svg.topo-board g.tiles > g.tile")).to_have_count(4, timeout=WAIT)
        assert play_turn(second) == 3
        playwright_sync.expect(first.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
        assert tile_count(first) == 7

        game.refresh_from_db()
        assert game.version == 3 + 1 + 1 + 1 + 3 + 1  # three places and an end, a place and an undo, ...
        assert game.status == Game.Status.RUNNING
        first.screenshot(path=str(shots / "topology-desktop.png"), full_page=True)
        bruno.screenshot(path=str(shots / "topology-phone.png"), full_page=True)
        first.locator("svg.topo-board .spot.on:not(.far)").first.click()
        first.locator("svg.topo-board").screenshot(path=str(shots / "topology-preview.png"))
        assert not errors, errors
    finally:
        ana_ctx.close()
        bruno_ctx.close()


def test_the_advanced_variant_against_a_bot_by_clicking(live_server, browser, fast_hashing, shots):
    # ruling L6: reveal two tiles, then reveal a third or turn a placed tile half a turn.
    user_create(username="ana", email="ana@example.com", password=PASSWORD)
    base = live_server.url
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, base, "ana")
        page.goto(f"{base}/tables/new/")
        page.locator("input[name=opt__topology__advanced]").check()
        page.select_option("select[name=bot_1]", "random")
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        page.get_by_role("button", name="Start the game").click()
        # In the embedded setup the bot answers within the request, so it is Ana's turn now.
        playwright_sync.expect(page.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
        playwright_sync.expect(page.get_by_role("button", name="Reveal a third tile")).to_be_visible()
        page.locator("svg.topo-board g.tile.turnable").first.click()
        page.get_by_role("button", name="Turn this tile half a turn").click()
        playwright_sync.expect(page.locator(".log-lines")).to_contain_text("half a turn", timeout=WAIT)
        assert play_turn(page) == 2
        playwright_sync.expect(page.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
        page.screenshot(path=str(shots / "topology-advanced.png"), full_page=True)
        assert not errors, errors
    finally:
        ctx.close()
