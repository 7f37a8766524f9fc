"""The leaderboard as a person uses it: from the site's navigation, page by page through its links (ruling S5).

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.models import User
from ratings.models import Rating
from tests.browser.helpers import WAIT, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_leaderboard_opens_from_the_navigation_and_pages_through_its_links(live_server, pages, shots):
    users = User.objects.bulk_create([User(username=f"player{i:02d}", email=f"p{i}@example.com") for i in range(60)])
    now = timezone.now()
    # Ratings 1600 down to 1541, with one tie at the page's edge to be kept in order by the older account.
    Rating.objects.bulk_create(
        [
            Rating(user=u, key="topology", mu=25, sigma=6, value=1600 - i + (i == 50), games=3 + i % 5, updated_at=now)
            for i, u in enumerate(users)
        ]
    )
    page = pages.open(viewport={"width": 1100, "height": 900})
    page.goto(f"{live_server.url}/")
    page.locator(".site-header nav").get_by_role("link", name="Leaderboards").click()
    expect(page.locator("h1")).to_have_text("Leaderboard: Topology", timeout=WAIT)
    rows = page.locator(".leaderboard tbody tr")
    expect(rows).to_have_count(50)
    expect(rows.first).to_contain_text("player00")
    expect(rows.first.locator(".rating")).to_have_text("1600?")  # three games: still provisional
    expect(rows.nth(1).locator(".rating")).to_have_text("1599?")
    expect(rows.nth(2).locator(".rating")).to_have_text("1598")  # five games
    expect(page.locator(".previous-page")).to_have_count(0)

    page.get_by_role("link", name="Lower ratings").click()
    expect(rows).to_have_count(10, timeout=WAIT)
    expect(rows.first.locator("td").first).to_have_text("51")
    # player49 (1551) and player50 (1550 + 1 = 1551) tie across the page's edge: the older account ends page
    # one, the other opens page two; nobody is skipped or shown twice.
    expect(rows.first).to_contain_text("player50")
    expect(rows.first.locator(".rating")).to_have_text("1551?")
    expect(page.locator(".next-page")).to_have_count(0)
    page.screenshot(path=str(shots / "leaderboard-page-2.png"))

    page.get_by_role("link", name="Higher ratings").click()
    expect(rows).to_have_count(50, timeout=WAIT)
    expect(rows.first.locator("td").first).to_have_text("1")
    expect(rows.last).to_contain_text("player49")

    page.get_by_role("link", name="Toppo (live)").click()
    expect(page.locator(".leaderboard .empty")).to_be_visible(timeout=WAIT)
    assert pages.errors == []
