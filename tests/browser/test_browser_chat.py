"""The chat at the table page (decision 17): a message one player sends shows on the other's open page without a
reload, through the table's stream, escaped; the other reads it on a phone-sized screen."""

from __future__ import annotations

import pytest

from games.views import common
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.games.tables import topology_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_message_shows_on_the_other_players_open_page(live_server, pages, monkeypatch):
    monkeypatch.setattr(common, "POLL_SECONDS", {"live": 3600, "correspondence": 3600})
    base = live_server.url
    ana, bruno = add_person("ana"), add_person("bruno")
    game = topology_table(ana, bruno)
    hers = pages.open(viewport={"width": 1200, "height": 900})
    his = pages.open(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    for page, who in ((hers, "ana"), (his, "bruno")):
        log_in(page, base, who)
        with page.expect_response(lambda r: f"/api/tables/{game.pk}/stream/" in r.url, timeout=WAIT):
            page.goto(f"{base}/tables/{game.pk}/")
        expect(page.locator("#chat-log .chat-messages")).to_contain_text("No messages yet.")

    hers.fill("#chat-body", "<b>good luck</b> & have fun")
    hers.get_by_role("button", name="Send").click()
    expect(hers.locator("#chat-log .chat-body")).to_have_text("<b>good luck</b> & have fun")
    expect(hers.locator("#chat-body")).to_have_value("")  # the box is cleared for the next one

    message = his.locator("#chat-log .chat-message")
    expect(message).to_have_count(1, timeout=WAIT)  # no reload: the stream announced a new chat stamp
    expect(message.locator(".chat-body")).to_have_text("<b>good luck</b> & have fun")  # as text, not markup
    expect(message.locator(".chat-author")).to_have_text("ana")
    assert his.locator("#chat-log b").count() == 0
    box = his.locator("#chat-body").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # the box fits the phone
    assert pages.errors == []
