"""A person plays Topoum against a bot in a real Chromium: her setup placements and one turn, all by clicking.

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium and screenshots.
"""

from __future__ import annotations

import pytest

from games import selectors
from games.models import Action, Game
from games.selectors.positions import load_state
from tests.browser.helpers import WAIT, ana_starts_against_a_bot, expect, wait_for_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def version(page) -> int:
    return int(page.locator(".topoum").get_attribute("data-version"))


def confirm_and_wait(page, before: int) -> None:
    """Click the (single, primary) choice the bar offers and wait for the fresh board."""
    choice = page.locator(".tm-choice-buttons button").first
    expect(choice).to_be_visible()
    choice.click()
    page.wait_for_function(
        f"() => document.querySelector('.topoum') && +document.querySelector('.topoum').dataset.version > {before}",
        timeout=WAIT,
    )


def click_one_decision(page) -> str:
    """Make the page's next decision by clicking: a lit card first, else a lit space (and where it goes)."""
    # The bot answers from the worker and the poller redraws the board: wait until something is lit.
    page.wait_for_selector(
        "button.tm-card.on, .tm-extra-keys button.on, button.tm-dir.on, "
        "svg.tm-board polygon.hot.on, button:has-text('End turn')",
        timeout=WAIT,
    )
    before = version(page)
    if not page.locator(
        "button.tm-card.on, .tm-extra-keys button.on, button.tm-dir.on, svg.tm-board polygon.hot.on"
    ).count():
        return "none"  # only ending the turn is left (ruling T21: every action would cost her a mole)
    card = page.locator("button.tm-card.on")
    if card.count():
        card.first.click()
        confirm_and_wait(page, before)
        return "card"
    extra = page.locator(".tm-extra-keys button.on, button.tm-dir.on")
    space = page.locator("svg.tm-board polygon.hot.on")
    if not space.count() and extra.count():
        extra.first.click()
        confirm_and_wait(page, before)
        return "button"
    space.first.click()
    if page.locator(".tm-choice").is_hidden():
        # A mole was picked: its destinations are lit now; pick one that keeps it alive if there is one.
        expect(page.locator(".tm-source-hint")).to_be_visible()
        page.locator("svg.tm-board polygon.hot.on:not(.source)").first.click()
    confirm_and_wait(page, before)
    return "space"


def test_a_person_sets_up_and_plays_a_turn_of_topoum_by_clicking(live_server, pages, shots):
    page, table = ana_starts_against_a_bot(pages, live_server.url, "topoum", viewport={"width": 1280, "height": 1000})
    expect(page.locator("svg.tm-board")).to_be_visible(timeout=WAIT)
    assert page.locator("svg.tm-board polygon.space").count() == 127  # ruling T1
    said = []  # what the page said its log holds with each move (decision 16)
    page.on("request", lambda r: said.append(r.headers.get("x-topos-log")) if r.url.endswith("/act/") else None)
    swaps = []  # how each move's answer swaps: "none" for the fragments alone, out of band (decision 16)
    page.on("response", lambda r: swaps.append(r.headers.get("hx-reswap")) if r.url.endswith("/act/") else None)

    # The setup: each of her placements is a click on a lit space and a confirmation (the bot answers inline).
    game = Game.objects.get(pk=table)
    ana = game.seats.get(user__username="ana").index
    placements = 0
    while True:
        expect(page.locator(".tm-status .your-turn")).to_be_visible(timeout=WAIT)
        if page.locator(".tm-status .your-turn").inner_text() != "Your setup placement.":
            break
        lit = page.locator("svg.tm-board polygon.hot.on")
        assert lit.count() >= 1
        if placements == 1:
            lit.first.click()
            expect(page.locator(".tm-choice")).to_be_visible()
            page.locator("svg.tm-board").screenshot(path=str(shots / "topoum-setup-choice.png"))
            before = version(page)
            lit.first.click()  # clicking the chosen space again confirms
            page.wait_for_function(f"() => +document.querySelector('.topoum').dataset.version > {before}", timeout=WAIT)
        else:
            lit.first.click()
            confirm_and_wait(page, version(page))
        placements += 1
    game.refresh_from_db()
    assert load_state(game).phase == "play"
    assert placements >= 2  # a barracks by the centre and a barracks with a mole (and the centre if she started)
    assert Action.objects.filter(game=game, seat=ana, action__type="place").count() == placements
    # Every mole on the battlefield is drawn (the bot may have played a first turn already).
    moles = sum(1 for cell in load_state(game).view(ana)["board"] if "mole" in cell)
    assert moles and page.locator("svg.tm-board .mole").count() == moles

    # One turn: enter or move, a card, its target...; then she ends the turn.  The bot plays in the worker,
    # after its reaction time: wait for her turn, and for the page to show it.
    game = wait_for_turn(table, ana)
    page.wait_for_function(f"() => +document.querySelector('.topoum').dataset.version >= {game.version}", timeout=WAIT)
    kinds = []
    while not page.get_by_role("button", name="End turn").count() and len(kinds) < 10:
        kinds.append(click_one_decision(page))
        if len(kinds) == 1:
            expect(page.get_by_role("button", name="Undo")).to_be_visible()
    assert "card" in kinds or "button" in kinds, kinds
    page.screenshot(path=str(shots / "topoum-desktop.png"), full_page=True)
    ended = page.locator(".log-lines li", has_text="ends the turn")
    before = ended.count()
    page.get_by_role("button", name="End turn").click()
    expect(ended.nth(before)).to_be_visible(timeout=WAIT)
    game.refresh_from_db()
    mine = list(Action.objects.filter(game=game, seat=ana).order_by("seq").values_list("action__type", flat=True))
    assert mine[-1] == "end_turn" and "play" in mine
    # The bot played its turn inline: it is Ana's decision again and the board says so.
    expect(page.locator(".tm-status .your-turn")).to_be_visible(timeout=WAIT)
    # Each answer brought only the log lines after those the page held (decision 16): the page holds them all, in
    # order, newest first, exactly as a fresh page would show them.
    game.refresh_from_db()
    lines = list(reversed(selectors.action_log(game, game.seats.get(index=ana).user)))
    expect(page.locator("#log-lines li")).to_have_count(len(lines), timeout=WAIT)
    shown = page.locator("#log-lines li").all_inner_texts()
    assert [text.endswith(line["description"]) for text, line in zip(shown, lines, strict=True)] == [True] * len(lines)
    assert said and all(said) and said[-1] != "0:0"
    assert "none" in swaps  # her moves were answered with the fragments, and the region took what they said:
    expect(page.locator("#table-live")).to_have_attribute("data-version", str(version(page)), timeout=WAIT)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("svg.tm-board")).to_be_visible()
    page.screenshot(path=str(shots / "topoum-phone.png"), full_page=True)
    page.locator(".tm-board-wrap").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "topoum-phone-board.png"))
    assert not pages.errors, pages.errors


def test_a_bots_thinking_seconds_count_on_without_a_reload(live_server, pages):
    """Decision 26: "Random 2 is thinking… 4 s" counts on in the page by itself (static/js/table.js), from the seconds
    the server said, while nothing is reloaded."""
    page, table = ana_starts_against_a_bot(pages, live_server.url, "topoum", viewport={"width": 1280, "height": 900})
    expect(page.locator("svg.tm-board")).to_be_visible(timeout=WAIT)
    # A line as the server draws it while a bot thinks (its turn passes too fast here to be caught in the act).
    page.evaluate(
        """() => {
          const p = document.createElement('p');
          p.id = 'thinking-probe';
          p.innerHTML = '<span class="bot-thinking" data-since="2026-01-01T00:00:00+00:00">Random 2 is thinking… '
            + '<span class="bot-thinking-secs">4 s</span></span>';
          document.body.appendChild(p);
          window.__probeNavigations = performance.getEntriesByType('navigation').length;
        }"""
    )
    page.wait_for_function(
        "() => { const m = document.querySelector('#thinking-probe .bot-thinking-secs').textContent.match(/\\d+/);"
        " return m && +m[0] >= 6; }",
        timeout=WAIT,
    )
    text = page.locator("#thinking-probe .bot-thinking-secs").text_content()
    assert text.endswith(" s") and 6 <= int(text.split()[0]) <= 20  # counted from the server's 4, not the 2026 date
    assert page.evaluate("() => window.__probeNavigations === performance.getEntriesByType('navigation').length")
