"""A person plays a whole live Toppo match against a bot in a real Chromium, on the embedded setup.

The bot plays in a real Celery worker on the filesystem broker (tests/browser/conftest.py), with
a person's full reaction time (BOT_DELAY_SCALE = 1): nothing it does happens inside her requests,
so her clicks are answered at once and she can be quicker than the bot, as at a table.  She
reveals, tops, matches and calls toppo by clicking; like her eyes, the test reads the table to
know which calls are right when she lays them by hand (the one-tap claims are tested in test_browser_toppo_pace).
"""

from __future__ import annotations

import time

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the browser tests are skipped without Playwright; the module still imports
    PlaywrightTimeout = TimeoutError

from engine.bots import levels
from engine.toppo.cards import TOPPO_LIMIT, match_choices, top_orders
from games import services
from games.models import Action, Game
from games.selectors.positions import load_state
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.browser.test_browser_toppo import lay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOT_DELAY_SCALE = 1  # the worker's bots take a person's whole reaction time
MATCH_SECONDS = 600  # a one-hand match takes two or three minutes; a loaded machine may need more


CLICK = 3_000  # ms: a button she can see answers at once; one that is gone means the table moved on
MAX_SLIPS = 40


def page_version(page) -> int:
    return int(page.locator(".toppo").get_attribute("data-version"))


def catch_up(page, version: int) -> None:
    """Wait until the page shows at least `version` (its poller asks every second at a live table)."""
    page.wait_for_function(
        f"() => document.querySelector('.toppo') && +document.querySelector('.toppo').dataset.version >= {version}",
        timeout=WAIT,
    )


def in_step(page, game) -> Game:
    """The table as both the database and her page show it: she decides only on what she can see.

    The bot plays in another process, so the stored game may be ahead of the page (the stream brings it
    a moment later) or move on while the test reads it; it waits until the two agree on one version.
    """
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            return game
        catch_up(page, game.version)
        if page_version(page) == game.version:
            return game


def act(page, click) -> None:
    """Click, then wait for the page to be answered (the live region comes back with a newer version)."""
    before = page_version(page)
    click()
    page.wait_for_function(
        f"() => document.querySelector('.toppo') && +document.querySelector('.toppo').dataset.version"
        f" > {before} || document.querySelector('.notices .notice.error')",
        timeout=WAIT,
    )


def test_a_person_plays_live_toppo_against_a_bot_to_the_end(live_server, pages, shots):
    ana = add_person("ana")
    game = services.game_create(
        user=ana, kind="toppo", players=2, options={"hands": 1}, pace="live", turn_seconds=60, bots=["greedy"]
    )
    game = services.game_start(user=ana, game_id=game.pk)
    me = game.seats.get(user=ana).index
    page = pages.open(viewport={"width": 1200, "height": 950})
    page.set_default_timeout(10_000)  # a card that is gone is not waited for half a minute
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/tables/{game.pk}/")

    tops = slips = 0
    end = time.monotonic() + MATCH_SECONDS
    while time.monotonic() < end:
        game = in_step(page, game)
        if game.status == Game.Status.FINISHED:
            break
        state = load_state(game)
        line, tops_now = state.lines[me], state.tops()
        try:
            if state.proposal and me not in state.proposal["agreed"]:
                # The bot asks to replace a display nobody can top (ruling P6): until she agrees, the play goes
                # round renewing it (what kept a match here past its ten minutes once).
                agree = page.get_by_role("button", name="Agree to replace the display")
                act(page, lambda: agree.click(timeout=CLICK))
            elif state.held(me) < TOPPO_LIMIT:
                act(page, lambda: page.get_by_role("button", name="Toppo!").click(timeout=CLICK))
            elif state.restarter is not None and state.restarter != me:
                page.wait_for_timeout(200)  # the bot restarts the play after its top (ruling P3)
            elif len(line) < state.size:
                act(page, lambda: page.get_by_role("button", name="Reveal a card").click(timeout=CLICK))
            else:
                orders, matches = top_orders(line, tops_now), match_choices(line, tops_now)
                page.get_by_role("button", name="Clear").click(timeout=CLICK)
                if orders:
                    for d, j in enumerate(orders[0]):
                        lay(page, j, d)
                    act(page, lambda: page.get_by_role("button", name="Top!", exact=True).click(timeout=CLICK))
                    tops += 1
                elif matches:
                    for j, d in matches[0]:
                        lay(page, j, d)
                    act(page, lambda: page.get_by_role("button", name="Match!", exact=True).click(timeout=CLICK))
                else:
                    act(page, lambda: page.get_by_role("button", name="Renew").click(timeout=CLICK))
        except (PlaywrightTimeout, AssertionError):
            # The bot moved between her look and her hand: the buttons she reached for are gone, as when a
            # person is beaten to the display.  She looks again; a page that never settles still fails below.
            slips += 1
            assert slips <= MAX_SLIPS, "the page kept changing under her hand"

    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED, "the match did not end in time"
    log = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "source", "action", "created_at"))
    bot_moves = [row for row in log if row[1] == "bot"]
    assert bot_moves, "the bot never played"
    assert tops, "she never had a top to call"
    # The person took the display and called toppo first: she can win, because the bot is no faster than a person.
    mine = game.seats.get(user=ana)
    assert mine.rank == 1 and mine.score == 0
    assert log[-1][0] == me and log[-1][2] == {"type": "toppo"}
    # Each bot decision came at least the level's shortest reaction time after its previous one (one task at a time).
    shortest = levels()["greedy"]["delay_seconds"][0] * BOT_DELAY_SCALE
    gaps = [(b[3] - a[3]).total_seconds() for a, b in zip(bot_moves, bot_moves[1:])]
    assert min(gaps) >= shortest - 0.05, gaps
    expect(page.locator(".table-live")).to_have_attribute("data-status", "finished", timeout=WAIT)
    page.screenshot(path=str(shots / "toppo-live-finished.png"), full_page=True)
    assert not pages.errors, pages.errors
