"""Decision 17 in a real Chromium: Ana challenges Bruno from his player page; he accepts on his home page and, his seat
being the last, the table starts by itself for both."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.helpers import WAIT, ana_and_bruno, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_challenge_from_the_player_page_is_accepted_and_the_table_starts(live_server, pages):
    base = live_server.url
    ana, bruno = ana_and_bruno(pages, base)

    # Ana opens Bruno's page and challenges him: the new-table form comes with his name filled in.
    ana.goto(f"{base}/accounts/players/bruno/")
    ana.get_by_role("link", name="Challenge").click()
    expect(ana.locator("input[name=opponent]")).to_have_value("bruno")
    expect(ana.locator("input[name=auto_start]")).to_be_checked()
    ana.locator("input[name=game][value=topology]").check()
    ana.fill("input[name=players]", "2")
    ana.get_by_role("button", name="Open the table").click()
    ana.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = int(re.search(r"/tables/(\d+)/$", ana.url).group(1))
    assert Game.objects.get(pk=table).status == Game.Status.OPEN

    # Bruno finds the invitation on his home page and accepts it.
    bruno.goto(f"{base}/")
    invitation = bruno.locator("#my-invitations")
    expect(invitation).to_contain_text("ana")
    invitation.get_by_role("button", name="Accept").click()
    bruno.wait_for_url(f"{base}/tables/{table}/")

    # His seat was the last: the game started by itself, on his page and (by polling) on hers.
    expect(bruno.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    expect(ana.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    assert Game.objects.get(pk=table).status == Game.Status.RUNNING
    assert not pages.errors
