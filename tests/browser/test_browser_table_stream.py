"""The table page follows the table's event stream: a move made elsewhere shows at once on every open page.

The poller (the fallback) is set to ask once an hour here, so what refreshes the pages can only be the
stream (under the live server's threads, the WSGI stream: each open page holds one thread).
"""

from __future__ import annotations

import pytest

from games.views import common
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.games.tables import decide, topology_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_shows_on_every_open_page_through_the_stream(live_server, pages, monkeypatch):
    monkeypatch.setattr(common, "POLL_SECONDS", {"live": 3600, "correspondence": 3600})
    base = live_server.url
    ana, bruno = add_person("ana"), add_person("bruno")
    game = topology_table(ana, bruno)  # ana decides first
    opened = []
    for who in ("bruno", "bruno", None):  # two tabs of hers, and a spectator who is not logged in
        page = pages.open(viewport={"width": 1200, "height": 900})
        if who:
            log_in(page, base, who)
        with page.expect_response(lambda r: f"/api/tables/{game.pk}/stream/" in r.url, timeout=WAIT) as streamed:
            page.goto(f"{base}/tables/{game.pk}/")
        assert streamed.value.status == 200
        assert streamed.value.headers["content-type"].startswith("text/event-stream")
        expect(page.locator("#table-live")).to_have_attribute("data-version", "0")
        opened.append(page)

    decide(game, ana)  # elsewhere: the test stands for her own browser

    for page in opened:
        expect(page.locator("#table-live")).to_have_attribute("data-version", "1", timeout=WAIT)
    assert pages.errors == []
