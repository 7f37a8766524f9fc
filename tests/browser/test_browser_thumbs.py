"""Decision 26, point 3: boards for thumbs.  Each game is opened on a 390 x 844 touch phone at a position where
targets are highlighted, and every target she must tap is measured.

Measured are the lit cells of the board (Topology's cells, Topoum's spaces and arrows: the board zooms by itself
until they suit a thumb), the cards and buttons that play, and the main action button (Toppo's Top!, End turn):
each at least 40 px across (its bounding box's smaller side), the main action inside the screen, card text at
least 14 px, no sideways scroll, the site header collapsed, the table's options folded, a card's effect readable
with a tap.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from games.selectors.positions import load_state
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.browser.positions import fast_forward, person_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
THUMB = 40  # px: the smallest target the issue allows
TEXT = 14  # px: the smallest card text

# Every visible element matching `selector`: its smaller side, where it is, what it is.
SIZES = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
                  && getComputedStyle(el).visibility !== 'hidden'; })
  .map(el => { const r = el.getBoundingClientRect();
               return {size: Math.min(r.width, r.height), w: r.width, h: r.height, x: r.left, y: r.top,
                       what: (el.getAttribute('class') || el.tagName) + ' ' + (el.dataset.key || el.dataset.cell
                             || el.dataset.line || el.dataset.display || el.textContent.trim().slice(0, 30))}; })"""

# The font size of every text of a visible element matching `selector` (elements with their own text only).
FONT_SIZES = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(el => el.getClientRects().length && el.textContent.trim())
  .map(el => ({px: parseFloat(getComputedStyle(el).fontSize), text: el.textContent.trim().slice(0, 30)}))"""


def open_on_a_phone(pages, base: str, game_id: int):
    page = pages.open(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, base, "ana")
    page.goto(f"{base}/tables/{game_id}/")
    return page


def sizes(page, selector: str) -> list[dict]:
    return page.evaluate(SIZES, selector)


def assert_thumb_sized(page, selector: str, name: str) -> list[dict]:
    found = sizes(page, selector)
    assert found, f"no {name} to measure ({selector})"
    small = [t for t in found if t["size"] < THUMB]
    smallest = min(t["size"] for t in found)
    print(f"{name}: {len(found)} targets, smallest {smallest:.1f} px")
    assert not small, f"{len(small)} of {len(found)} {name} under {THUMB} px: {small[:5]}"
    return found


def assert_the_page_suits_a_phone(page, shots, name: str) -> None:
    """No sideways scroll, a collapsed header, the options folded away."""
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    header = page.locator(".site-header").bounding_box()
    print(f"{name}: header {header['height']:.0f} px high")
    assert header["height"] <= 70, header
    expect(page.locator(".site-header .nav")).to_be_hidden()
    page.locator(".menu-toggle").tap()
    expect(page.locator(".site-header .nav")).to_be_visible()
    expect(page.locator(".menu-toggle")).to_have_attribute("aria-expanded", "true")
    page.locator(".menu-toggle").tap()
    expect(page.locator(".site-header .nav")).to_be_hidden()
    options = page.locator("details.table-options")
    expect(options).to_have_count(1)
    assert options.get_attribute("open") is None
    page.screenshot(path=str(shots / f"thumbs-{name}.png"))


def assert_in_view(page, locator, name: str) -> None:
    box = locator.bounding_box()
    assert box is not None, f"{name} is not shown"
    print(f"{name}: {box['width']:.0f} x {box['height']:.0f} px at y {box['y']:.0f}")
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert min(box["width"], box["height"]) >= THUMB, box


def test_topology_targets_suit_a_thumb(live_server, pages, shots):
    game, _ = person_against_a_bot("topology")
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0] and len(view["board"]) >= 16 and len(view["hand"]) >= 2 and not view["placed_this_turn"]
        ),
    )
    page = open_on_a_phone(pages, live_server.url, game.pk)
    expect(page.locator(".spot.on").first).to_be_visible(timeout=WAIT)
    assert_the_page_suits_a_phone(page, shots, "topology")
    # The board zoomed by itself: every lit cell is big enough, and the board's box pans (the page does not).
    assert_thumb_sized(page, ".spot.on", "lit cells")
    assert_thumb_sized(page, ".hand-tile:not(:disabled)", "revealed tiles")
    zoom = page.locator(".topo-board-wrap .zoom-toggle")
    expect(zoom).to_have_attribute("aria-pressed", "true")
    # Some lit cell is in view without panning, next to the last tile placed.
    wrap = page.locator(".topo-board-wrap").bounding_box()
    shown = [
        t
        for t in sizes(page, ".spot.on")
        if wrap["x"] <= t["x"] and t["x"] + t["w"] <= wrap["x"] + wrap["width"] and wrap["y"] <= t["y"]
    ]
    assert shown
    # A tap shows the tile there; the Place bar is on screen, its buttons big enough.
    page.locator(".spot.on").nth(0).scroll_into_view_if_needed()
    page.locator(".spot.on").nth(0).tap()
    expect(page.locator(".place-controls")).to_be_visible()
    assert_in_view(page, page.locator(".place-controls [data-do=place]"), "Place here")
    assert_thumb_sized(page, ".place-controls button", "Place bar buttons")
    page.screenshot(path=str(shots / "thumbs-topology-placing.png"))
    # Her Zoom button shows the whole board again (and it stays so).
    page.locator(".place-controls [data-do=cancel]").tap()
    zoom.tap()
    expect(zoom).to_have_attribute("aria-pressed", "false")
    assert page.locator("svg.topo-board").bounding_box()["width"] <= PHONE["width"]
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert not pages.errors, pages.errors


def test_topology_end_turn_stays_on_screen(live_server, pages, shots):
    game, _ = person_against_a_bot("topology")
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0] and len(view["board"]) >= 10 and view["placed_this_turn"] and not view["hand"]
        ),
    )
    page = open_on_a_phone(pages, live_server.url, game.pk)
    end = page.get_by_role("button", name="End turn")
    expect(end).to_be_visible(timeout=WAIT)
    for y in (0, 400, 10_000):  # wherever the page is scrolled to
        page.evaluate(f"() => window.scrollTo(0, {y})")
        assert_in_view(page, end, "End turn")
    assert_thumb_sized(page, ".turn-controls button", "turn buttons")
    page.screenshot(path=str(shots / "thumbs-topology-end-turn.png"))
    assert not pages.errors, pages.errors


def test_topoum_targets_suit_a_thumb(live_server, pages, shots):
    game, _ = person_against_a_bot("topoum")
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0]
            and view["phase"] == "play"
            and len(view["hand"]) >= 2
            and view["turns"] >= 4
            and not view["turn"]["log"]
        ),
    )
    page = open_on_a_phone(pages, live_server.url, game.pk)
    expect(page.locator("svg.tm-board")).to_be_visible(timeout=WAIT)
    page.wait_for_selector("svg.tm-board .hot.on, button.tm-card.on", timeout=WAIT)
    assert_the_page_suits_a_phone(page, shots, "topoum")
    lit = ".tm-board .hot.on, .tm-board .hot-arrow.on, button.tm-card.on, .tm-extra-keys button.on, button.tm-dir.on"
    assert_thumb_sized(page, lit, "lit spaces, cards and buttons")
    assert_thumb_sized(page, ".tm-hand .tm-card, .tm-line button.tm-card", "cards")
    # Card text of 14 px at least, in the hand and on the Line.
    fonts = page.evaluate(FONT_SIZES, ".tm-card-cat, .tm-card-title, .tm-card-effect")
    assert fonts and min(f["px"] for f in fonts) >= TEXT, [f for f in fonts if f["px"] < TEXT][:5]
    # What a card does, without hover: a tap opens the cards' notes, at 14 px too.
    notes = page.locator(".tm-hand details.tm-card-notes")
    notes.locator("summary").tap()
    expect(notes.locator("dd").first).to_be_visible()
    assert notes.locator("dd").first.text_content().strip()
    assert min(f["px"] for f in page.evaluate(FONT_SIZES, ".tm-hand .tm-card-notes dd")) >= TEXT
    page.screenshot(path=str(shots / "thumbs-topoum-notes.png"))
    notes.locator("summary").tap()
    # A lit space on the board: tapped, what it does is offered in the bar at the bottom, on screen.
    space = page.locator("svg.tm-board .hot.on")
    if space.count():
        space.first.scroll_into_view_if_needed()
        space.first.tap()
        if page.locator(".tm-choice").is_visible():
            assert_in_view(page, page.locator(".tm-choice-buttons button").first, "the choice bar's button")
        else:  # a mole: its destinations are lit now, and as big
            assert_thumb_sized(page, ".tm-board .hot.on:not(.source)", "destinations")
    page.screenshot(path=str(shots / "thumbs-topoum.png"))
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert not pages.errors, pages.errors


def test_topoum_end_turn_stays_on_screen(live_server, pages, shots):
    game, _ = person_against_a_bot("topoum")

    def may_end(view, to_act) -> bool:  # in her turn, after a first decision, with ending it among her choices
        if not (to_act == [0] and view["phase"] == "play" and view["turns"] >= 4 and view["turn"]["log"]):
            return False
        state = load_state(Game.objects.get(pk=game.pk))
        return any(a["type"] == "end_turn" for a in state.legal_actions(0))

    game = fast_forward(game, may_end)
    page = open_on_a_phone(pages, live_server.url, game.pk)
    end = page.get_by_role("button", name="End turn")
    expect(end).to_be_visible(timeout=WAIT)
    for y in (0, 600, 10_000):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        assert_in_view(page, end, "End turn")
    # The hand's strip rides above the bar, not under it.
    card = page.locator(".tm-hand .tm-card").first
    if card.count():
        assert card.bounding_box()["y"] + card.bounding_box()["height"] <= end.bounding_box()["y"]
    page.screenshot(path=str(shots / "thumbs-topoum-end-turn.png"))
    assert not pages.errors, pages.errors


def test_toppo_targets_suit_a_thumb(live_server, pages, shots):
    game, _ = person_against_a_bot("toppo", options={"hands": 1})
    game = fast_forward(game, lambda view, to_act: to_act == [0] and view["phase"] == "play" and view["round"] >= 2)
    page = open_on_a_phone(pages, live_server.url, game.pk)
    expect(page.locator(".tp-line-card").first).to_be_visible(timeout=WAIT)
    assert_the_page_suits_a_phone(page, shots, "toppo")
    top = page.get_by_role("button", name="Top!", exact=True)  # not a one-tap claim ("Top! red plus → …")
    for y in (0, 10_000):  # the shouts stay on screen wherever the page is scrolled to
        page.evaluate(f"() => window.scrollTo(0, {y})")
        assert_in_view(page, top, "Top!")
    page.evaluate("() => window.scrollTo(0, 0)")
    assert_thumb_sized(page, ".tp-line-card:not(:disabled)", "line cards")
    assert_thumb_sized(page, ".tp-calls button", "shouts")
    # A line card tapped: the display cards are the targets now.
    page.locator(".tp-line-card").first.tap()
    expect(page.locator(".tp-display-card.target").first).to_be_enabled()
    assert_thumb_sized(page, ".tp-display-card.target", "display cards")
    page.locator(".tp-display-card").first.tap()
    expect(page.locator(".tp-line-card").first.locator(".tp-onto")).to_be_visible()
    page.screenshot(path=str(shots / "thumbs-toppo.png"))
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert not pages.errors, pages.errors


def test_live_toppo_reveal_and_shouts_stay_on_screen(live_server, pages, shots):
    """At a live table "Reveal a card" and the shouts ride at the bottom of the screen, one above the other."""
    ana = add_person("ana")
    game = services.game_create(
        user=ana, kind="toppo", players=2, options={"hands": 1}, pace="live", turn_seconds=60, bots=["random"]
    )
    game = services.game_start(user=ana, game_id=game.pk)
    page = open_on_a_phone(pages, live_server.url, game.pk)
    reveal = page.get_by_role("button", name="Reveal a card")
    expect(reveal).to_be_visible(timeout=WAIT)
    page.evaluate("() => window.scrollTo(0, 10000)")
    assert_in_view(page, reveal, "Reveal a card")
    top = page.get_by_role("button", name="Top!", exact=True)  # not a one-tap claim ("Top! red plus → …")
    if top.count():
        assert_in_view(page, top, "Top!")
        # Both boxes read in one go: the bot plays live, and the board it re-renders may replace either button
        # between two separate reads.
        bottom_of_top, top_of_reveal = page.evaluate(
            """() => {
                const top = document.querySelector('button[data-call="top"]');
                const reveal = [...document.querySelectorAll('button.primary')].find(
                    (b) => b.textContent.trim() === 'Reveal a card');
                return [top.getBoundingClientRect().bottom, reveal.getBoundingClientRect().top];
            }"""
        )
        assert bottom_of_top <= top_of_reveal
    page.screenshot(path=str(shots / "thumbs-toppo-live.png"))
    # Both seats are to play at once, each with a clock: still no sideways scroll.
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert not pages.errors, pages.errors
