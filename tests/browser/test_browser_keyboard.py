"""Decision 13, point 6: each game is played to its end with the keyboard alone, against a bot in the real worker.

To keep them short the games start near their end: random legal moves for both seats are replayed
through the site's move service (tests/browser/positions.py) until a few turns remain, with the
person to decide.  From there the person plays by page.keyboard only (Tab, arrows, Enter, R; never a
click), and the worker's bot answers, until the page says the game is over.  Like her eyes, the
Toppo test reads the table to know which shouts are right when she lays cards by hand.
"""

from __future__ import annotations

import re
import time

import pytest

from engine.toppo.cards import TOPPO_LIMIT, match_choices, top_orders
from games.models import Game
from games.selectors.positions import load_state
from tests.browser.helpers import WAIT, expect, log_in
from tests.browser.positions import fast_forward, near_the_end, person_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_SECONDS = 240  # a few turns each; a loaded machine may need more
OVER = ".panel.outcome"

FOCUSED = "(sel) => { const el = document.activeElement; return !!el && el !== document.body && el.matches(sel); }"
FOCUSED_BUTTON = (
    "(names) => { const el = document.activeElement;"
    " return !!el && el.tagName === 'BUTTON' && names.includes(el.textContent.trim()); }"
)
# With no cell left for a revealed tile she must choose instead of ending the turn (engine/topology/rules.py):
# reveal a third tile while the stack lasts, otherwise keep every tile as it is.
TOPOLOGY_TURN_BUTTONS = ["End turn", "Reveal a third tile", "Keep every tile as it is"]


def focused(page, selector: str) -> bool:
    return page.evaluate(FOCUSED, selector)


def tab_to(page, selector: str = "", button: str | list[str] = "", limit: int = 250) -> None:
    """Press Tab until the focus is on `selector` (or on the button named `button`, or any of those named)."""
    names = [button] if isinstance(button, str) else button
    for _ in range(limit):
        if (button and page.evaluate(FOCUSED_BUTTON, names)) or (selector and focused(page, selector)):
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
    """Until the board shows a later version and its script has taken it over (data-ready, ToposTable.boards).

    htmx swaps the new board in, then runs its scripts a settle later (20 ms): in between, the lit spaces are
    in the page but no key does anything yet, and a key pressed then is lost (what failed in the full suite).
    """
    page.wait_for_function(
        f"() => {{ const b = document.querySelector('{root}');"
        f" return (b && b.dataset.ready && +b.dataset.version > {before}) || !!document.querySelector('{OVER}'); }}",
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
        page.wait_for_selector(f".topology.my-turn[data-ready], {OVER}", timeout=30_000)
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
            tab_to(page, button=TOPOLOGY_TURN_BUTTONS)
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
    """The bug of decision 13: after clicking a cell, R did nothing (the SVG took no focus, the key went to the body)."""
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
        page.wait_for_selector(f".topoum.my-turn[data-ready], {OVER}", timeout=30_000)
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


def lay_claim_by_keyboard(page, line, tops) -> str:
    """Lay the cards of a top (else of a match) by keyboard and tab to its button; the claim's name."""
    if top_orders(line, tops):
        for d, j in enumerate(top_orders(line, tops)[0]):
            lay_by_keyboard(page, j, d)
        tab_to(page, button="Top!")
        return "top"
    for j, d in match_choices(line, tops)[0]:
        if d is not None:
            lay_by_keyboard(page, j, d)
    tab_to(page, button="Match!")
    return "match"


def test_toppo_to_the_end_by_keyboard(live_server, pages, shots):
    game, _ = person_against_a_bot("toppo", options={"hands": 1})
    game = near_the_end(game, lambda view, to_act: to_act == [0] and view["phase"] == "play", leave=12)
    assert game.status == "running"
    page = open_page(pages, live_server.url, game)
    expect(page.locator(".tp-display-card").first).to_be_visible(timeout=WAIT)
    calls = []
    slips = 0
    end = time.monotonic() + GAME_SECONDS
    while time.monotonic() < end:
        page.wait_for_selector(f".tp-status .your-turn, {OVER}", timeout=30_000)
        if over(page):
            break
        before = version(page, ".toppo")
        row = Game.objects.get(pk=game.pk)
        if row.version != before:
            # The bot played since the page last looked (the worker plays its sealed claim at any moment): the page
            # and the table she reads would disagree.  The page takes the new version; she looks again then.
            page.wait_for_timeout(200)
            continue
        state = load_state(row)
        if page.locator(".tp-choose button").count():
            tab_to(page, ".tp-choose button")
            page.keyboard.press("Enter")
            calls.append("display")
            wait_version_above(page, ".toppo", before)
            continue
        line, tops = state.lines[0], state.tops()
        lays = bool(top_orders(line, tops) or match_choices(line, tops))
        agree = page.get_by_role("button", name="Agree to replace the display")
        if agree.count():
            try:
                tab_to(page, button="Agree to replace the display")  # the bot asks after renewals in a row (P6)
            except AssertionError:
                if agree.count():
                    raise
                continue  # the proposal was settled while she tabbed (the bot's claim ended the round)
            calls.append("agree")
        elif state.view(0)["deck_sizes"][0] + len(line) < TOPPO_LIMIT and (calls or not lays):
            tab_to(page, button="Toppo!")  # (her first claim lays cards if it can, to play that by keyboard too)
            calls.append("toppo")
        elif lays:
            try:
                calls.append(lay_claim_by_keyboard(page, line, tops))
            except AssertionError:
                # The bot's sealed claim came in while she laid her cards (the worker plays it at any moment):
                # the page took the new version and its fresh line (her lays with it).  She looks again.
                if version(page, ".toppo") == before:
                    raise
                slips += 1
                assert slips <= 5, calls
                continue
        else:
            try:
                tab_to(page, button="Renew")
            except AssertionError:
                if version(page, ".toppo") == before:  # the bot's claim came in while she tabbed: she looks again
                    raise
                slips += 1
                assert slips <= 5, calls
                continue
            calls.append("renew")
        page.keyboard.press("Enter")
        wait_version_above(page, ".toppo", before)
        refused = page.locator(".notices .notice.error")
        if refused.count():
            # The bot's sealed claim came in while she was tabbing (the worker plays it at any moment): her page
            # was a step behind (409) or that claim ended the match.  The page shows the table as it is; she
            # looks again.  Any other refusal fails.
            expect(refused).to_contain_text(re.compile("moved on since you looked|game is finished"))
            slips += 1
            assert slips <= 5, calls
            continue
    assert over(page), f"the match did not end in time: {calls}"
    assert calls, "she made no claim"
    print("toppo claims by keyboard:", calls)
    expect(page.locator(".tp-status")).to_contain_text("The match is over.")
    assert Game.objects.get(pk=game.pk).status == "finished"
    page.screenshot(path=str(shots / "keyboard-toppo-over.png"), full_page=True)
    assert not pages.errors, pages.errors


# --- Decision 26, point 5 --------------------------------------------------------------------------------------
SKIP_WORDS = {"en": "Skip to the board", "es": "Saltar al tablero", "zh-hant": "跳到棋盤"}


@pytest.mark.parametrize(
    ("kind", "language", "target"),
    [
        ("topology", "en", ".spot.on"),
        ("topoum", "es", ".tm-board .hot.on, .tm-board .hot-arrow.on, button.tm-card.on"),
        ("toppo", "zh-hant", ".tp-line-card"),
    ],
)
def test_skip_to_the_board_comes_first(live_server, pages, kind, language, target):
    """The first Tab lands on "Skip to the board", in her language; Enter takes her to the board's first target."""
    game, _ = person_against_a_bot(kind, language=language, options={"hands": 1} if kind == "toppo" else None)
    ready = {
        "topology": lambda view, to_act: to_act == [0] and len(view["board"]) >= 4 and not view["placed_this_turn"],
        "topoum": lambda view, to_act: to_act == [0] and view["phase"] == "play" and not view["turn"]["log"],
        "toppo": lambda view, to_act: to_act == [0] and view["phase"] == "play",
    }[kind]
    game = fast_forward(game, ready)
    page = open_page(pages, live_server.url, game)
    page.wait_for_selector(target, timeout=WAIT)
    page.keyboard.press("Tab")
    assert focused(page, "a.skip-board")
    assert page.evaluate("() => document.activeElement.textContent.trim()") == SKIP_WORDS[language]
    expect(page.locator("a.skip-board")).to_be_in_viewport()  # shown while it has the focus
    page.keyboard.press("Enter")
    assert focused(page, target), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    assert not pages.errors, pages.errors


# The centre of the last tile placed (its cells' centres, in the SVG's units) and of every lit cell; which is focused.
NEAREST = """() => {
  const svg = document.querySelector('svg.topo-board');
  const last = svg.querySelector('.tile[data-last-move]');
  const box = last.getBBox();
  const lx = box.x + box.width / 2, ly = box.y + box.height / 2;
  const spots = Array.from(svg.querySelectorAll('.spot.on')).map(el => ({
    cell: el.dataset.cell, d: Math.hypot(+el.dataset.x - lx, +el.dataset.y - ly),
    focused: el === document.activeElement}));
  return spots;
}"""


def test_topology_first_lit_cell_is_the_nearest_to_the_last_move(live_server, pages):
    """Topology's first lit cell to take the focus was a far corner (decision 26): it is the one nearest the last
    tile placed now, whether she comes by the skip link or by Tab."""
    game, _ = person_against_a_bot("topology")
    game = fast_forward(
        game, lambda view, to_act: to_act == [0] and len(view["board"]) >= 14 and not view["placed_this_turn"]
    )
    page = open_page(pages, live_server.url, game)
    expect(page.locator(".spot.on").first).to_be_visible(timeout=WAIT)
    expect(page.locator("svg.topo-board .tile[data-last-move]")).to_have_count(1)
    tab_to(page, ".spot.on")
    spots = page.evaluate(NEAREST)
    assert len(spots) > 10
    nearest = min(s["d"] for s in spots)
    chosen = next(s for s in spots if s["focused"])
    print(
        f"first lit cell {chosen['cell']} at {chosen['d']:.0f} from the last tile (nearest {nearest:.0f},"
        f" first in the page's order {spots[0]['d']:.0f}, farthest {max(s['d'] for s in spots):.0f})"
    )
    assert chosen["d"] <= nearest + 1  # (ties: the page measures on the screen, this in the SVG)
    # The same cell through the skip link.
    page.reload()
    expect(page.locator(".spot.on").first).to_be_visible(timeout=WAIT)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert focused(page, f".spot.on[data-cell='{chosen['cell']}']")
    assert not pages.errors, pages.errors


def test_topoum_first_lit_space_is_the_nearest_to_the_mole_in_play(live_server, pages):
    """In the middle of a Topoum move (a mole to push, to turn…), the keyboard starts beside that mole."""
    game, _ = person_against_a_bot("topoum")
    game = fast_forward(
        game,
        lambda view, to_act: (
            to_act == [0] and (view["turn"]["pending"] or {}).get("k") in ("direction", "target")
        ),  # a card played by a mole: where it acts, or which way
        limit=4000,
    )
    if (load_state(game).view(0)["turn"]["pending"] or {}).get("k") not in ("direction", "target"):
        pytest.skip("no pending move with a mole in this random game")
    page = open_page(pages, live_server.url, game)
    lit = ".tm-board .hot.on, .tm-board .hot-arrow.on"
    expect(page.locator(lit).first).to_be_visible(timeout=WAIT)
    tab_to(page, lit)
    distances = page.evaluate(
        """(sel) => { const m = document.querySelector('.tm-board [data-last-move]').getBoundingClientRect();
          const mx = m.left + m.width / 2, my = m.top + m.height / 2;
          return Array.from(document.querySelectorAll(sel)).map(el => { const r = el.getBoundingClientRect();
            return {d: Math.hypot(r.left + r.width / 2 - mx, r.top + r.height / 2 - my), focused: el === document.activeElement}; }); }""",
        lit,
    )
    assert next(d["d"] for d in distances if d["focused"]) <= min(d["d"] for d in distances) + 1
    assert not pages.errors, pages.errors


def test_toppo_no_card_is_picked_for_her(live_server, pages):
    """Toppo picked her first line card for her, so her first Enter on it put it back (decision 26): now nothing is
    picked until she picks, her Enter picks, and the card the page picks next after a lay stays picked on Enter."""
    game, _ = person_against_a_bot("toppo", options={"hands": 1})
    game = fast_forward(game, lambda view, to_act: to_act == [0] and view["phase"] == "play")
    page = open_page(pages, live_server.url, game)
    expect(page.locator(".tp-line-card").first).to_be_visible(timeout=WAIT)
    assert page.locator(".tp-line-card").count() >= 2
    expect(page.locator(".tp-line-card[aria-pressed=true]")).to_have_count(0)
    expect(page.locator(".tp-display-card:not(:disabled)")).to_have_count(0)  # nothing to lay yet
    first = page.locator(".tp-line-card[data-line='0']")
    tab_to(page, ".tp-line-card[data-line='0']")
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    assert focused(page, ".tp-display-card")  # on to where it goes
    page.keyboard.press("Enter")
    expect(first.locator(".tp-onto")).to_have_text("→ 1")
    # The page picked the next free card: her Enter on it keeps it picked (a second one puts it back).
    second = page.locator(".tp-line-card[data-line='1']")
    expect(second).to_have_attribute("aria-pressed", "true")
    second.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-pressed", "true")
    second.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-pressed", "false")
    # Clear takes everything back and picks nothing.
    page.get_by_role("button", name="Clear").click()
    expect(page.locator(".tp-line-card[aria-pressed=true]")).to_have_count(0)
    assert not pages.errors, pages.errors
