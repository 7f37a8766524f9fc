"""Ruling S6 in a real browser: two people by correspondence; one closes her table page 10 seconds before the
other moves, and the turn still reaches her by email once the grace is over (the old presence window swallowed
it).  The worker on the embedded default's filesystem broker times the email; its console mailer writes it.

Run with `pytest -m browser tests/browser/test_browser_turn_mail.py`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import time

import pytest

from games.models import Seat
from notifications.models import NotificationDelivery
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.browser.test_browser_topology import play_turn
from tests.games.tables import topology_table
from tests.integration.workers import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
GRACE = 4
WORKER_ENV = {"TOPOS_TURN_MAIL_GRACE_SECONDS": GRACE}  # the worker's grace (tests/browser/conftest.py)


def test_she_closes_her_page_10_seconds_before_his_move_and_is_mailed_after_the_grace(
    live_server, pages, settings, embedded_worker
):
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = GRACE  # the live server's pages write presence as the worker expects
    ana, bruno = add_person("ana"), add_person("bruno")
    game = topology_table(ana, bruno)  # correspondence; ana moves first
    hers = pages.open(viewport={"width": 1200, "height": 900})
    his = pages.open(viewport={"width": 1200, "height": 900})
    log_in(hers, live_server.url, "bruno")  # "hers": bruno's opponent's view is the one that closes
    log_in(his, live_server.url, "ana")
    hers.goto(f"{live_server.url}/tables/{game.pk}/")
    his.goto(f"{live_server.url}/tables/{game.pk}/")
    expect(hers.locator("svg.topo-board")).to_be_visible(timeout=WAIT)
    expect(his.locator(".topo-status .your-turn")).to_be_visible(timeout=WAIT)
    assert Seat.objects.get(game=game, user=bruno).seen_at is not None  # her page was open: she was present

    hers.close()  # she leaves the table ...
    time.sleep(10)  # ... 10 seconds before the other moves
    play_turn(his, 3)

    delivery = wait_for(
        lambda: NotificationDelivery.objects.filter(recipient=bruno, key__startswith="turn:").first(),
        60,
        "her turn to be told",
    )
    wait_for(lambda: NotificationDelivery.objects.get(pk=delivery.pk).status == "sent", 60, "her turn's email")
    letters = [
        email
        for email in embedded_worker.emails()
        if email.subject.startswith("[Topos] Your turn") and email.to == ["bruno@example.com"]
    ]
    assert len(letters) == 1 and f"/tables/{game.pk}/" in letters[0].body
    assert not pages.errors, pages.errors
