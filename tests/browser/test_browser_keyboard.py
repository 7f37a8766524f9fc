"""Issue 13, point 6: each game is played to its end with the keyboard alone, against a bot in the real worker.

To keep them short the games start near their end: random legal moves for both seats are replayed
through the site's move service (tests/browser/positions.py) until a few turns remain, with the
person to decide.  From there the person plays by page.keyboard only (Tab, arrows, Enter, R; never a
click), and the worker's bot answers, until the page says the game is over.  Like her eyes, the
Toppo test reads the table to know which shouts are right (the page never tells, ruling P3).
"""

from __future__ import annotations

import time

import pytest

from engine.toppo.cards import TOPPO_LIMIT, match_choices, top_orders
from games.models import Game
from games.positions import load_state
from tests.browser.helpers import WAIT, expect, log_in
from tests.browser.positions import fast_forward, near_the_end, person_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 240  # a few turns each; a loaded machine may need more
OVER = ".panel.outcome"

FOCUSED = "(sel) => { const el = document.activeElement; return !!el && el !== document.body && el.matches(sel); }"
FOCUSED_BUTTON = (
    "(name) => { const el = document.activeElement;"
    " return !!el && el.tagName === 'BUTTON' && el.textContent.trim() === name; }"
)


def focused(page, selector: str) -> bool:
    return page.evaluate(FOCUSED, selector)


def tab_to(page, selector: str = "", button: str = "", limit: int = 250) -> None:
    """Press Tab until the focus is on `selector` (or on the button named `button`)."""
    for _ in range(limit):
        if (button and page.evaluate(FOCUSED_BUTTON, button)) or (selector and focused(page, selector)):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector or button}")


def open_page(pages, base: str, game: Game):
    page = pages.open(viewport={"width": 1280, "height": 1000})
    log_in(page, base, "ana")
    page.goto(f"{base}/tables/{game.pk}/")
    return page


def version(page, root: str) -> int:
    return int(page.locator(root).get_attribute("data-version"))


def wait_version_above(page, root: str, before: int) -> None:
    page.wait_for_function(
        f"() => {{ const b = document.querySelector('{root}');"
        f" return (b && +b.dataset.version > {before}) || !!document.querySelector('{OVER}'); }}",
        timeout=WAIT,
    )


def over(page) -> bool:
    return page.locator(OVER).count() > 0


def test_topology_to_the_end_by_keyboard(live_server, pages, shots):
    game, _ = person_against_a_bot("topology")
    game = near_the_end(game, lambda view, to_act: to_act == [0] and not view["placed_this_turn"], leave=8)
    assert game.status == "running"
    page = open_page(pages, live_server.url, game)
    expect(page.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    turned = placed = 0
    end = time.monotonic() + GAME_SECONDS
    while time.monotonic() < end:
        page.wait_for_selector(f".topology.my-turn, {OVER}", timeout=30_000)
        if over(page):
            break
        before = version(page, ".topology")
        if page.locator(".spot.on").count():
            # The first revealed tile is picked for her; the lit cells are one Tab stop.
            tab_to(page, ".spot.on")
            page.keyboard.press("ArrowRight")  # on to a neighbouring lit cell (or round again)
            assert focused(page, ".spot.on")
            page.keyboard.press("Enter")
            expect(page.locator(".place-controls")).to_be_visible()
            assert page.locator("svg.topo-board use.preview").get_attribute("display") is None
            if page.locator(".place-controls [data-do=turn]").is_enabled():
                shown = page.locator("use.preview").get_attribute("href")
                page.keyboard.press("r")
                expect(page.locator("use.preview")).not_to_have_attribute("href", shown)
                turned += 1
            page.keyboard.press("Enter")  # places the tile as shown
            placed += 1
        else:
            tab_to(page, button="End turn")
            page.keyboard.press("Enter")
        wait_version_above(page, ".topology", before)
    assert over(page), "the game did not end in time"
    expect(page.locator(".topo-status")).to_contain_text("The game is over.")
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert placed >= 2 and turned >= 1, (placed, turned)
    # What happened is told to a screen reader by a live region outside the swapped table.
    expect(page.locator("#table-announcer[aria-live=polite]")).to_contain_text("The game is over.")
    page.screenshot(path=str(shots / "keyboard-topology-over.png"), full_page=True)
    assert not pages.errors, pages.errors


def test_topology_r_turns_the_tile_after_a_cell_was_clicked(live_server, pages):
    """The bug of issue 13: after clicking a cell, R did nothing (the SVG took no focus, the key went to the body)."""
    game, _ = person_against_a_bot("topology")
    game = fast_forward(
        game, lambda view, to_act: to_act == [0] and len(view["board"]) >= 6 and not view["placed_this_turn"]
    )
    page = open_page(pages, live_server.url, game)
    spots = page.locator(".spot.on")
    expect(spots.first).to_be_visible(timeout=WAIT)
    for i in range(spots.count()):  # a cell where the tile has more than one way to lie
        spots.nth(i).click()
        if page.locator(".place-controls [data-do=turn]").is_enabled():
            break
    shown = page.locator("use.preview").get_attribute("href"), page.locator("use.preview").get_attribute("transform")
    page.keyboard.press("R")
    now = page.locator("use.preview").get_attribute("href"), page.locator("use.preview").get_attribute("transform")
    assert now != shown
    assert not pages.errors, pages.errors


def topoum_decide(page) -> str:
    """One Topoum decision by keyboard: end the turn when she may, else the first lit thing, then confirm."""
    before = version(page, ".topoum")
    if page.get_by_role("button", name="End turn").count():
        tab_to(page, button="End turn")
        page.keyboard.press("Enter")
        wait_version_above(page, ".topoum", before)
        return "end"
    lit = ".tm-board .hot.on, .tm-board .hot-arrow.on, button.tm-card.on, .tm-extra-keys button.on, button.tm-dir.on"
    tab_to(page, lit)
    kind = "space" if focused(page, ".tm-board [data-key]") else "button"
    page.keyboard.press("Enter")
    for _ in range(4):
        if page.evaluate(f"() => +document.querySelector('.topoum').dataset.version > {before}"):
            break
        if focused(page, ".tm-choice-buttons button"):
            page.keyboard.press("Enter")  # confirm the action the bar names
        elif focused(page, ".tm-board .source"):
            page.keyboard.press("ArrowRight")  # a mole picked: on to one of its destinations
            page.keyboard.press("Enter")
        elif focused(page, ".tm-board .chosen"):
            page.keyboard.press("Enter")  # Enter again on the chosen space confirms
        else:
            page.wait_for_timeout(500)
            if page.evaluate(f"() => +document.querySelector('.topoum').dataset.version > {before}"):
                break
            page.screenshot(path="/tmp/phone-shots/lost.png", full_page=True)
            raise AssertionError(
                "the keyboard is lost: "
                + page.evaluate(
                    "() => document.activeElement.outerHTML.slice(0, 200) + ' | ' + document.querySelector('.tm-decision').outerHTML.slice(0, 3000)"
                )
            )
        page.wait_for_timeout(100)
    wait_version_above(page, ".topoum", before)
    return kind


def test_topoum_to_the_end_by_keyboard(live_server, pages, shots):
    game, _ = person_against_a_bot("topoum")
    game = near_the_end(
        game,
        lambda view, to_act: (
            to_act == [0] and view["phase"] == "play" and not view["turn"]["log"] and view["turns"] > 0
        ),
        leave=8,
    )
    assert game.status == "running"
    page = open_page(pages, live_server.url, game)
    expect(page.locator("svg.tm-board")).to_be_visible(timeout=WAIT)
    # The lit spaces are named for a screen reader by what lies there and what choosing them does.
    label = (
        page.locator(".tm-board .hot.on").first.get_attribute("aria-label")
        if page.locator(".tm-board .hot.on").count()
        else "space"
    )
    assert "space" in label
    kinds = []
    end = time.monotonic() + GAME_SECONDS
    while time.monotonic() < end:
        page.wait_for_selector(f".topoum.my-turn, {OVER}", timeout=30_000)
        if over(page):
            break
        kinds.append(topoum_decide(page))
    assert over(page), f"the game did not end in time: {kinds}"
    expect(page.locator(".tm-status")).to_contain_text("The war is over.")
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert "end" in kinds and ("space" in kinds or "button" in kinds), kinds
    print("topoum decisions by keyboard:", kinds)
    page.screenshot(path=str(shots / "keyboard-topoum-over.png"), full_page=True)
    assert not pages.errors, pages.errors


def lay_by_keyboard(page, j: int, d: int) -> None:
    """Pick line card j by keyboard (unless it is picked already) and lay it on display card d."""
    card = f".tp-line-card[data-line='{j}']"
    if page.locator(card).get_attribute("aria-pressed") != "true":
        tab_to(page, card)
        page.keyboard.press("Enter")
    expect(page.locator(card)).to_have_attribute("aria-pressed", "true")
    tab_to(page, f".tp-display-card[data-display='{d}']")
    page.keyboard.press("Enter")
    expect(page.locator(card).locator(".tp-onto")).to_have_text(f"→ {d + 1}")


def test_toppo_to_the_end_by_keyboard(live_server, pages, shots):
    game, _ = person_against_a_bot("toppo", options={"hands": 1})
    game = near_the_end(game, lambda view, to_act: to_act == [0] and view["phase"] == "play", leave=12)
    assert game.status == "running"
    page = open_page(pages, live_server.url, game)
    expect(page.locator(".tp-display-card").first).to_be_visible(timeout=WAIT)
    calls = []
    end = time.monotonic() + GAME_SECONDS
    while time.monotonic() < end:
        page.wait_for_selector(f".tp-status .your-turn, {OVER}", timeout=30_000)
        if over(page):
            break
        before = version(page, ".toppo")
        state = load_state(Game.objects.get(pk=game.pk))
        if page.locator(".tp-choose button").count():
            tab_to(page, ".tp-choose button")
            page.keyboard.press("Enter")
            calls.append("display")
            wait_version_above(page, ".toppo", before)
            continue
        line, tops = state.lines[0], state.tops()
        lays = bool(top_orders(line, tops) or match_choices(line, tops))
        if page.get_by_role("button", name="Agree to replace the display").count():
            tab_to(page, button="Agree to replace the display")  # the bot asks after renewals in a row (ruling P6)
            calls.append("agree")
        elif state.view(0)["deck_sizes"][0] + len(line) < TOPPO_LIMIT and (calls or not lays):
            tab_to(page, button="Toppo!")  # (her first claim lays cards if it can, to play that by keyboard too)
            calls.append("toppo")
        elif top_orders(line, tops):
            for d, j in enumerate(top_orders(line, tops)[0]):
                lay_by_keyboard(page, j, d)
            tab_to(page, button="Top!")
            calls.append("top")
        elif match_choices(line, tops):
            for j, d in match_choices(line, tops)[0]:
                if d is not None:
                    lay_by_keyboard(page, j, d)
            tab_to(page, button="Match!")
            calls.append("match")
        else:
            tab_to(page, button="Renew")
            calls.append("renew")
        page.keyboard.press("Enter")
        wait_version_above(page, ".toppo", before)
        expect(page.locator(".notices .notice.error")).to_have_count(0)
    assert over(page), f"the match did not end in time: {calls}"
    assert calls, "she made no claim"
    print("toppo claims by keyboard:", calls)
    expect(page.locator(".tp-status")).to_contain_text("The match is over.")
    assert Game.objects.get(pk=game.pk).status == "finished"
    page.screenshot(path=str(shots / "keyboard-toppo-over.png"), full_page=True)
    assert not pages.errors, pages.errors
