"""Live Toppo that a person can win (decision 26): she plays at a person's pace against one beginner bot.

She clicks every 1-2 s and claims with the one-tap claims the page found for her line
(tests/browser/live_toppo_player.py); the bot plays in the real Celery worker (tests/browser/conftest.py)
with its level's whole reaction time.  "A fair share": in a two-seat match she makes at least a third of
the claims (tops and matches).  Nothing here asserts a time; bench/bench_live_toppo.py prints them.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Action, Game
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.browser.live_toppo_player import claim_figures, play_at_a_persons_pace

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOT_DELAY_SCALE = 1  # the worker's bots take their level's whole reaction time (tests/browser/conftest.py)
MATCH_SECONDS = 420  # a one-hand match at a person's pace takes a few minutes; she stops here if it has not ended
ENOUGH_CLAIMS = 6  # fewer claims than this in the time say nothing about a share


def test_a_person_at_a_persons_pace_wins_a_fair_share_of_claims_against_a_beginner(live_server, pages, shots):
    ana = add_person("ana")
    game = services.game_create(
        user=ana, kind="toppo", players=2, options={"hands": 1}, pace="live", turn_seconds=60, bots=["beginner"]
    )
    game = services.game_start(user=ana, game_id=game.pk)
    me = game.seats.get(user=ana).index
    page = pages.open(viewport={"width": 1200, "height": 950})
    log_in(page, live_server.url, "ana")
    # The page follows the table through its event stream (polling is the fallback).
    with page.expect_response(lambda r: f"/api/tables/{game.pk}/stream/" in r.url, timeout=WAIT) as streamed:
        page.goto(f"{live_server.url}/tables/{game.pk}/")
    assert streamed.value.status == 200

    clicks = play_at_a_persons_pace(page, seconds=MATCH_SECONDS)

    game = Game.objects.get(pk=game.pk)
    rows = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "action", "created_at"))
    figures = claim_figures(rows)
    bot = 1 - me
    print(
        f"\nher clicks {clicks}; claims: hers {figures.count(me)} ({figures.spread(figures.claims.get(me, []))}),"
        f" the beginner's {figures.count(bot)} ({figures.spread(figures.claims.get(bot, []))}); {game.status}"
    )
    assert any(seat == bot for seat, _, _ in rows), "the bot never played"
    assert clicks.get("top", 0) + clicks.get("match", 0) > 0, "she never claimed with one tap"
    assert figures.total() >= ENOUGH_CLAIMS or game.status == Game.Status.FINISHED, figures.claims
    assert figures.share(me) >= 1 / 3, f"she made {figures.count(me)} of {figures.total()} claims"
    if game.status == Game.Status.FINISHED:
        expect(page.locator(".table-live")).to_have_attribute("data-status", "finished", timeout=WAIT)
    page.screenshot(path=str(shots / "toppo-live-pace.png"), full_page=True)
    assert not pages.errors, pages.errors
