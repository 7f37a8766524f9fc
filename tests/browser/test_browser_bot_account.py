"""Decision 12 in a real browser: she turns her account into a bot account from her profile; the button does nothing
until she ticks the confirmation, and afterwards her public page shows the BOT mark and no button is left.

Run with `pytest -m browser tests/browser/test_browser_bot_account.py`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.helpers import WAIT, add_person, expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_she_confirms_before_her_account_becomes_a_bot_account(live_server, pages):
    ana = add_person("ana")
    page = pages.open(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/accounts/profile/")
    section = page.locator("#bot-account")
    button = section.get_by_role("button", name="Turn this account into a bot account")
    button.click()  # not ticked: the browser keeps the form back
    assert section.locator("input[name=confirm]").evaluate("box => box.validity.valueMissing") is True
    assert not get_user_model().objects.get(pk=ana.pk).is_bot_account

    section.get_by_label("I understand: this cannot be undone.").check()
    button.click()
    expect(page.locator(".flash")).to_contain_text("This is now a bot account", timeout=WAIT)
    assert get_user_model().objects.get(pk=ana.pk).is_bot_account
    expect(page.locator("#bot-account button")).to_have_count(0)

    page.goto(f"{live_server.url}/accounts/players/ana/")
    expect(page.locator("h1 .bot-account-mark")).to_have_text("BOT")
    assert pages.errors == []
