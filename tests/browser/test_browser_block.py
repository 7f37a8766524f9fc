"""Ruling S7 in a real Chromium: Ana blocks Bruno from his player page (a second step confirms it); Bruno's
challenge to her is then refused with plain words that do not say she blocked him, and no table is opened."""

from __future__ import annotations

import pytest

from accounts.models import Block
from games.models import Game
from tests.browser.helpers import ana_and_bruno, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_block_from_the_player_page_refuses_his_challenge(live_server, pages):
    base = live_server.url
    ana, bruno = ana_and_bruno(pages, base)

    ana.goto(f"{base}/accounts/players/bruno/")
    ana.locator("details.block-confirm summary").click()  # the first step only explains
    assert not Block.objects.exists()
    ana.get_by_role("button", name="Block bruno").click()
    expect(ana.locator(".flash")).to_contain_text("You blocked bruno.")
    expect(ana.get_by_role("button", name="Unblock bruno")).to_be_visible()
    assert Block.objects.filter(blocker__username="ana", blocked__username="bruno").exists()

    # Bruno challenges her from her page: the form stays, with the plain refusal next to her name.
    bruno.goto(f"{base}/accounts/players/ana/")
    bruno.get_by_role("link", name="Challenge").click()
    bruno.locator("input[name=game][value=topology]").check()
    bruno.fill("input[name=players]", "2")
    bruno.get_by_role("button", name="Open the table").click()
    expect(bruno.locator("body")).to_contain_text("It is not possible to challenge ana.")
    assert "block" not in bruno.locator("main").inner_text().lower()
    assert not Game.objects.exists()
    assert not pages.errors
