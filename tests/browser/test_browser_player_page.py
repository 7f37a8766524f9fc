"""From a finished table to an opponent's page: her name is a link, and her page shows her statistics (decision 11, 5).

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.games.test_replay import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_clicking_an_opponents_name_on_a_finished_table_opens_her_page_with_her_statistics(live_server, pages):
    ana, bruno = add_person("ana"), add_person("bruno")
    games = []
    for _ in range(2):
        game = services.game_create(user=ana, kind="topology", players=2)
        services.game_join(user=bruno, game_id=game.pk)
        games.append(play(services.game_start(user=ana, game_id=game.pk)))
    assert [g.status for g in games] == [Game.Status.FINISHED] * 2
    her_wins = sum(g.seats.get(user=bruno).rank == 1 for g in games)

    page = pages.open(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/tables/{games[-1].pk}/")
    page.locator(".standings").get_by_role("link", name="bruno").click()

    page.wait_for_url(f"{live_server.url}/accounts/players/bruno/", timeout=WAIT)
    expect(page.get_by_role("heading", level=1)).to_have_text("bruno")
    row = page.locator(".player-stats tr.stats-topology")
    expect(row.locator(".played")).to_have_text("2")
    expect(row.locator(".won")).to_contain_text(str(her_wins))
    # Her finished games name ana, linked back to ana's page.
    expect(page.locator(f"#game-{games[-1].pk} .opponents").get_by_role("link", name="ana")).to_have_attribute(
        "href", "/accounts/players/ana/"
    )
    assert pages.errors == []
