"""The main pages run under the Content-Security-Policy with nothing refused and no JavaScript error.

Chromium reports every refusal both as a `securitypolicyviolation` event (recorded by a script Playwright
injects outside the page's policy) and as a console error; both are collected, with uncaught exceptions.
Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium and the real worker.
"""

from __future__ import annotations

import pytest

from games import services
from tests.browser.helpers import WAIT, add_person, expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || ""));
});
"""


class Watched:
    """A page whose policy refusals and console errors are kept."""

    def __init__(self, pages):
        self.page = pages.open(viewport={"width": 1200, "height": 900})
        self.page.add_init_script(RECORD_VIOLATIONS)
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        self.seen: list[str] = []

    def visit(self, url: str) -> None:
        self.page.goto(url)
        self.page.wait_for_load_state("networkidle")

    def collect(self) -> None:
        self.seen += self.page.evaluate("window.__cspViolations || []")


def test_the_main_pages_run_under_the_policy(live_server, pages):
    base = live_server.url
    ana = add_person("ana")
    games = {
        kind: services.game_start(
            user=ana, game_id=services.game_create(user=ana, kind=kind, players=2, bots=["random"]).pk
        )
        for kind in ("topology", "topoum", "toppo")
    }
    watched = Watched(pages)

    watched.visit(f"{base}/")  # anonymous home
    watched.collect()
    log_in(watched.page, base, "ana")
    watched.visit(f"{base}/")
    watched.collect()
    for kind, game in games.items():
        watched.visit(f"{base}/tables/{game.pk}/")
        expect(watched.page.locator("#table-live")).to_be_visible()
        if kind in ("topology", "topoum"):
            # A board fits its box; zoomed in, its minimum width comes from data-min-width through table.js,
            # not a style attribute (decision 13: the Zoom button shows only where the board is squeezed).
            board = watched.page.locator("svg.topo-board, svg.tm-board").first
            assert board.evaluate("b => b.style.minWidth") == ""
            board.evaluate("b => b.parentElement.querySelector('.zoom-toggle').click()")
            assert board.evaluate("b => parseFloat(b.style.minWidth)") >= int(board.get_attribute("data-min-width"))
        # htmx works without eval: the poller keeps asking (its hx-trigger has no filter to evaluate).
        with watched.page.expect_response(lambda r: "/poll/" in r.url, timeout=WAIT):
            pass
        watched.collect()
    watched.visit(f"{base}/tables/new/")
    watched.collect()
    watched.visit(f"{base}/notifications/")
    watched.collect()
    watched.visit(f"{base}/accounts/profile/")
    watched.collect()

    # The language menu submits without an onchange= handler.
    watched.page.select_option("#language-select", "es")
    expect(watched.page.locator("html")).to_have_attribute("lang", "es", timeout=WAIT)
    watched.collect()

    watched.visit(f"{base}/api/docs/")
    expect(watched.page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=WAIT)
    watched.collect()
    assert watched.seen == []
    assert watched.console == []
    assert pages.errors == []

    # Redoc works too; the one thing refused there is its maker's logo from a CDN (Redoc hides it when it
    # does not load), so no visitor's browser calls a third party from this site.
    watched.visit(f"{base}/api/redoc/")
    expect(watched.page.locator(".redoc-wrap .api-content").first).to_be_visible(timeout=WAIT)
    watched.collect()
    assert {v.split()[1] for v in watched.seen} <= {"https://cdn.redoc.ly/redoc/logo-mini.svg"}
    assert all("cdn.redoc.ly" in m for m in watched.console)
    assert pages.errors == []
