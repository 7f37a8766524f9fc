"""Decision 13, point 5: every board fits a 390 x 844 phone screen, the hand shows with it, no word is cut in two.

Each game is fast-forwarded to the middle of a game against a bot (tests/browser/positions.py), then
opened as the person on a phone-sized page.  Topoum, whose card names were broken mid-word, is seen in
the three languages.
"""

from __future__ import annotations

import pytest

from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.browser.positions import fast_forward, person_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Per word of every visible text inside `root`: the word's line boxes.  A word on two lines was broken
# inside.  Chinese characters count one by one (a line may break between any two of them).
BROKEN_WORDS = """(root) => {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const unit = /[\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff00-\\uffef]|[^\\s\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff00-\\uffef]+/g;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("code, pre, script, style, title, [hidden], details:not([open]) > :not(summary)")) continue;
    if (!parent.getClientRects().length) continue;
    let m;
    unit.lastIndex = 0;
    while ((m = unit.exec(node.data))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""

# Text boxes whose text is wider than they are (cut off by overflow: hidden), by class.
OVERFLOWING = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""


def open_on_phone(pages, base: str, game_id: int, username: str = "ana"):
    page = pages.open(viewport=PHONE)
    log_in(page, base, username)
    page.goto(f"{base}/tables/{game_id}/")
    return page


def fits(page, board_selector: str, hand_selector: str, shots, name: str) -> None:
    """The page does not scroll sideways, the board's box lies inside the width (the board itself may be zoomed
    in it, decision 26), and a piece of the hand and the board are both on the first screen."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"phone-{name}.png"))
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    board = page.locator(board_selector).bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"], board
    assert board["y"] < PHONE["height"] - 100, board  # the board starts on the first screen
    card = page.locator(hand_selector).first.bounding_box()
    assert card is not None
    assert 0 <= card["y"] and card["y"] + card["height"] <= PHONE["height"], card
    assert card["x"] >= 0 and card["x"] < PHONE["width"], card
    assert not page.evaluate(BROKEN_WORDS, page.locator("#table-live").element_handle())


@pytest.mark.parametrize("language", ["en", "es", "zh-hant"])
def test_topoum_fits_a_phone(live_server, pages, shots, language):
    game, _ = person_against_a_bot("topoum", language=language)
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0] and view["phase"] == "play" and len(view["hand"]) >= 2 and view["turns"] >= 4
        ),
    )
    page = open_on_phone(pages, live_server.url, game.pk)
    expect(page.locator("svg.tm-board")).to_be_visible(timeout=WAIT)
    fits(page, ".tm-board-wrap", ".tm-hand .tm-card", shots, f"topoum-{language}")
    # The hand's strip stays at the bottom of the screen while the board scrolls by.
    page.evaluate("() => window.scrollBy(0, 200)")
    card = page.locator(".tm-hand .tm-card").first.bounding_box()
    assert card["y"] + card["height"] <= PHONE["height"]
    # No card name is cut off, in the hand or on the Line of Operations.
    assert not page.evaluate(OVERFLOWING, ".tm-card-title")
    # Spaces are lit: the board zoomed in by itself (decision 26); it is wider than the screen and pans inside its
    # own box, the page does not.  Her Zoom button shows the whole board, and zooms in again.
    zoom = page.locator(".tm-board-wrap .zoom-toggle")
    expect(zoom).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    wrap = page.locator(".tm-board-wrap")
    for pressed in ("true", "false", "true"):
        expect(zoom).to_have_attribute("aria-pressed", pressed)
        board = page.locator("svg.tm-board").bounding_box()["width"]
        assert (board > PHONE["width"]) == (pressed == "true"), board
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
        assert wrap.evaluate("el => el.scrollWidth > el.clientWidth") == (pressed == "true")  # pannable
        zoom.click()
    assert not pages.errors, pages.errors


def test_topology_fits_a_phone(live_server, pages, shots):
    game, _ = person_against_a_bot("topology")
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0] and len(view["board"]) >= 12 and len(view["hand"]) >= 2 and not view["placed_this_turn"]
        ),
    )
    page = open_on_phone(pages, live_server.url, game.pk)
    expect(page.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    fits(page, ".topo-board-wrap", ".hand-tile", shots, "topology")
    assert not pages.errors, pages.errors


def test_toppo_fits_a_phone(live_server, pages, shots):
    game, _ = person_against_a_bot("toppo", options={"hands": 1})
    game = fast_forward(game, lambda view, to_act: to_act == [0] and view["phase"] == "play" and view["round"] >= 2)
    page = open_on_phone(pages, live_server.url, game.pk)
    expect(page.locator(".tp-display-card").first).to_be_visible(timeout=WAIT)
    fits(page, ".tp-display", ".tp-line-card", shots, "toppo")
    assert not pages.errors, pages.errors


# The widest number of a reversed log (its first line's) set in the log's own font, and the room the
# list keeps for its numbers (its left padding, clipped by the scrolling box beyond).
LOG_NUMBER_ROOM = """() => {
  const ol = document.querySelector("#table-live .log-lines");
  const first = ol.querySelector("li");
  const probe = document.createElement("span");
  probe.textContent = ol.children.length + ". ";
  probe.style.position = "absolute";
  probe.style.whiteSpace = "pre";
  first.appendChild(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return {lines: ol.children.length, number: width, room: parseFloat(getComputedStyle(ol).paddingLeft)};
}"""


def test_log_numbers_of_three_digits_are_not_clipped(live_server, pages, shots):
    game, _ = person_against_a_bot("toppo", options={"hands": 3})
    moves = iter(range(100_000))
    game = fast_forward(game, lambda view, to_act: next(moves) >= 115 and to_act == [0])
    assert game.status == "running" and game.version > 100
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        page = pages.open(viewport=viewport)
        log_in(page, live_server.url, "ana")
        page.goto(f"{live_server.url}/tables/{game.pk}/")
        expect(page.locator(".log-lines li").first).to_be_visible(timeout=WAIT)
        room = page.evaluate(LOG_NUMBER_ROOM)
        assert room["lines"] > 100
        assert room["number"] <= room["room"], room
    page.locator(".log-lines").screenshot(path=str(shots / "log-numbers.png"))
    assert not pages.errors, pages.errors


def test_topoum_card_types_show_only_for_a_custom_deck(live_server, pages):
    add_person("ana")
    page = pages.open(viewport=PHONE)
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/tables/new/")
    page.locator("input[name=game][value=topoum]").check()
    types = page.locator("input[name=opt__topoum__types]")
    preset = page.locator("select[name=opt__topoum__preset]")
    assert types.count() == 22
    expect(types.first).to_be_hidden()  # the preset deck is the default
    expect(preset).to_be_visible()
    page.select_option("select[name=opt__topoum__deck]", "custom")
    expect(types.first).to_be_visible()
    expect(preset).to_be_hidden()
    page.select_option("select[name=opt__topoum__deck]", "random")
    expect(types.first).to_be_hidden()
    expect(preset).to_be_hidden()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert not pages.errors, pages.errors
