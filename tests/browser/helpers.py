"""Small helpers for the browser tests: Chromium's place and flags, the test password, logging in, opening a table."""

from __future__ import annotations

import re

from accounts.services import user_create

try:
    from playwright import sync_api as playwright_sync
except ImportError:  # the `browser` fixture skips every test then
    playwright_sync = None

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "a-long-browser-password"
WAIT = 15_000  # ms: a few polling rounds (3 s each) at most


def expect(locator):
    """Playwright's `expect`, looked up only when a test runs (so this module imports without Playwright)."""
    return playwright_sync.expect(locator)


def add_person(username: str):
    """A user who logs in with PASSWORD."""
    return user_create(username=username, email=f"{username}@example.com", password=PASSWORD)


def log_in(page, base: str, username: str) -> None:
    """Log in through the login form and wait until the header greets the user."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page.locator(".site-header .who")).to_have_text(username)


def ana_and_bruno(pages, base: str) -> tuple:
    """Two people logged in, each in a browser of her own: Ana on a desktop, Bruno on a phone."""
    add_person("ana")
    add_person("bruno")
    ana = pages.open(viewport={"width": 1280, "height": 900})
    bruno = pages.open(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    log_in(ana, base, "ana")
    log_in(bruno, base, "bruno")
    return ana, bruno


def open_table(page, base: str, game: str, bot: str = "", auto_start: bool = False) -> int:
    """Open a two-player table of `game` (with a bot of that level in the second seat if given); returns its id.

    The form starts a table by itself when its last seat is taken (decision 17); the tests that start it themselves
    untick that unless `auto_start`.
    """
    page.goto(f"{base}/tables/new/")
    page.locator(f"input[name=game][value={game}]").check()
    page.fill("input[name=players]", "2")
    if bot:
        page.select_option("select[name=bot_1]", bot)
    if not auto_start:
        page.locator("input[name=auto_start]").uncheck()
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


def ana_starts_against_a_bot(pages, base: str, game: str, viewport: dict):
    """Ana logs in on a fresh page, opens a two-player `game` table with a random bot and starts it: (page, table
    id)."""
    add_person("ana")
    page = pages.open(viewport=viewport)
    log_in(page, base, "ana")
    table = open_table(page, base, game, bot="random")
    page.get_by_role("button", name="Start the game").click()
    return page, table


def wait_for_turn(table: int, seat: int):
    """The game once `seat` is to decide (the bot plays from the worker, after its reaction time)."""
    from games.models import Game
    from tests.integration.workers import wait_for

    return wait_for(
        lambda: next((g for g in [Game.objects.get(pk=table)] if seat in g.to_act), None),
        WAIT / 1000,
        f"seat {seat}'s turn at table {table}",
    )
