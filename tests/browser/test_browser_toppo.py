"""A person plays correspondence Toppo against a bot in a real Chromium and makes her claims by clicking.

She lays her line cards onto the display cards one click at a time and shouts (not the one-tap claims the page
offers, decision 26, point 1), so the test looks the answer up in the engine, as her eyes would.
Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium and screenshots.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from engine.toppo.cards import match_choices, top_orders
from games.models import Action, Game
from games.selectors.positions import load_state
from tests.browser.helpers import WAIT, ana_starts_against_a_bot, expect, wait_for_turn
from tests.integration.workers import wait_for

ROUNDS = 40  # renew until a top or a match turns up; a 3-card display gives one within a few rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def lay(page, j: int, d: int) -> None:
    """Pick line card j (unless the page already picked it) and lay it on display card d."""
    card = page.locator(f".tp-line-card[data-line='{j}']")
    if card.get_attribute("aria-pressed") != "true":
        card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    page.locator(f".tp-display-card[data-display='{d}']").click()
    expect(card.locator(".tp-onto")).to_have_text(f"→ {d + 1}")


def her_decisions(table: int, seat: int) -> int:
    return Action.objects.filter(game_id=table, seat=seat).count()


def page_version(page) -> int:
    return int(page.locator(".toppo").get_attribute("data-version"))


def claim_by_clicking(page, line, tops, shots) -> dict | None:
    """Lay the cards of a top (else of a match) and shout it, else renew; the claim made (None: a renew)."""
    page.get_by_role("button", name="Clear").click()
    orders, matches = top_orders(line, tops), match_choices(line, tops)
    if orders:
        for d, j in enumerate(orders[0]):
            lay(page, j, d)
        page.locator("section.tp-centre").screenshot(path=str(shots / "toppo-laid.png"))
        page.get_by_role("button", name="Top!", exact=True).click()
        return {"type": "top", "order": orders[0]}
    if matches:
        for j, d in matches[0]:
            lay(page, j, d)
        page.get_by_role("button", name="Match!", exact=True).click()
        return {"type": "match", "pairs": matches[0]}
    page.get_by_role("button", name="Renew").click()
    return None


def wait_for_version_above(page, before: int) -> None:
    page.wait_for_function(f"() => +document.querySelector('.toppo').dataset.version > {before}", timeout=WAIT)


def test_a_person_claims_by_clicking_at_correspondence_pace(live_server, pages, shots):
    page, table = ana_starts_against_a_bot(pages, live_server.url, "toppo", viewport={"width": 1200, "height": 950})
    expect(page.locator(".tp-display-card")).to_have_count(3, timeout=WAIT)
    game = Game.objects.get(pk=table)
    ana = game.seats.get(user__username="ana").index

    # A wrong top is refused with the reason, not penalised (ruling P4); she may claim again.
    expect(page.locator(".tp-status .your-turn")).to_have_text("Make your claim for this round.")
    state = load_state(Game.objects.get(pk=table))
    line, tops = state.lines[ana], state.tops()
    wrong = next(
        (
            o
            for o in ([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2], [2, 1, 0])
            if o not in top_orders(line, tops)
        ),
        None,
    )
    if wrong is not None:
        for d, j in enumerate(wrong):
            lay(page, j, d)
        page.get_by_role("button", name="Top!", exact=True).click()
        expect(page.locator(".notices .notice.error")).to_contain_text("does not top the display", timeout=WAIT)
        expect(page.get_by_role("button", name="Top!", exact=True)).to_be_visible()

    claimed = None
    for _ in range(ROUNDS):
        # The bot claims from the worker after its reaction time: wait for a round in which she has yet to
        # claim, and for the page to show it.
        game = wait_for_turn(table, ana)
        page.wait_for_function(
            f"() => +document.querySelector('.toppo').dataset.version >= {game.version}", timeout=WAIT
        )
        state = load_state(game)
        expect(page.locator(".tp-line-card")).to_have_count(3, timeout=WAIT)
        line, tops = state.lines[ana], state.tops()
        before = page_version(page)
        decided = her_decisions(table, ana)
        try:
            claimed = claim_by_clicking(page, line, tops, shots)
        except (AssertionError, PlaywrightError):  # a check, or an element the page had just swapped away
            if page_version(page) == before:
                raise
            continue  # the bot's sealed claim came in while she laid her cards: the page took it; she looks again
        # The bot's own sealed claim also raises the page's version, so wait for hers to be stored.  If that claim
        # came in between her last lay and her click, the fresh board took her lays and her click was refused.
        try:
            wait_for(lambda: her_decisions(table, ana) > decided, WAIT / 1000, "her decision to be stored")
        except AssertionError:
            if page_version(page) == before:
                raise
            claimed = None
            continue
        wait_for_version_above(page, before)
        if claimed:
            break
    assert claimed, "no top or match in all those rounds"
    mine = Action.objects.filter(game_id=table, seat=ana).order_by("-seq").first()
    assert mine.action == claimed and mine.source == "player"
    # The bot claims too (from the worker), so the round resolves: its words and the next round are on the page.
    expect(page.locator(".tp-last-round")).to_contain_text("ana:", timeout=WAIT)
    expect(page.locator(".tp-last-round")).to_contain_text("carried out")
    page.screenshot(path=str(shots / "toppo-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "toppo-phone.png"), full_page=True)
    assert not pages.errors, pages.errors
