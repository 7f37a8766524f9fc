"""Vacation in a real browser (ruling S4): started and ended on the profile in place (htmx), and the opponent's open
table page shows it at its next poll, without a reload.

Run with `pytest -m browser tests/browser/test_browser_vacation.py`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest

from games.models import Vacation
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.games.tables import topology_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_she_goes_on_vacation_from_her_profile_and_her_opponent_sees_it_at_the_table(live_server, pages):
    ana, bruno = add_person("ana"), add_person("bruno")
    game = topology_table(ana, bruno)
    hers = pages.open(viewport={"width": 1200, "height": 900})
    his = pages.open(viewport={"width": 1200, "height": 900})
    log_in(hers, live_server.url, "ana")
    log_in(his, live_server.url, "bruno")
    his.goto(f"{live_server.url}/tables/{game.pk}/")
    seat = his.locator(".seat-list li").first
    expect(seat.locator(".deadline")).to_be_visible()

    hers.goto(f"{live_server.url}/accounts/profile/")
    section = hers.locator("#vacation")
    section.locator("input[name=days]").fill("3")
    section.get_by_role("button", name="Start my vacation now").click()
    expect(hers.locator("#vacation .vacation-now")).to_contain_text("You are on vacation until", timeout=WAIT)
    assert hers.url.endswith("/accounts/profile/")  # swapped in place, no new page
    assert Vacation.objects.get(user=ana).ended_at is None

    expect(seat.locator(".vacation")).to_contain_text("on vacation until", timeout=WAIT)
    expect(seat.locator(".vacation")).to_contain_text("clock stopped")
    expect(seat.locator(".deadline")).to_have_count(0)

    hers.locator("#vacation").get_by_role("button", name="End my vacation now").click()
    expect(hers.locator("#vacation .notice.ok")).to_contain_text("Welcome back!", timeout=WAIT)
    expect(seat.locator(".vacation")).to_have_count(0, timeout=WAIT)
    expect(seat.locator(".deadline")).to_be_visible()
    assert pages.errors == []
