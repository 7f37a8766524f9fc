"""Decision 13, point 7: the small things of the table page (clocks under a minute, an open table whose other
seats are bots, a Toppo round that waits only on bots).  The browser sides are in
tests/browser/test_browser_phone.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.templatetags.topos import duration, until
from tests.games.factories import seat_user
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_deadline_under_a_minute_away_shows_seconds_not_zero_minutes():
    left = until((timezone.now() + timedelta(seconds=45)).isoformat())
    assert "second" in left and "minute" not in left
    assert duration(30) == "30 seconds"
    assert duration(1) == "1 second"
    assert "minute" in until((timezone.now() + timedelta(seconds=150)).isoformat())
    assert duration(3 * 3600).replace("\xa0", " ") == "3 hours"


def test_an_open_table_whose_other_seats_are_bots_is_ready_to_start_not_waiting_for_players(owner, owner_client):
    full = services.game_create(user=owner, kind="topology", players=2, bots=["random"])
    html = owner_client.get(f"/tables/{full.pk}/").content.decode()
    assert "ready to start" in html and "waiting for players" not in html
    waiting = services.game_create(user=owner, kind="topology", players=3, bots=["random"])
    html = owner_client.get(f"/tables/{waiting.pk}/").content.decode()
    assert "waiting for players" in html and "ready to start" not in html


def test_a_toppo_round_waiting_only_on_the_bot_says_the_bot_is_thinking(owner):
    game = services.game_create(user=owner, kind="toppo", players=2, bots=["random"], options={"hands": 1})
    game = services.game_start(user=owner, game_id=game.pk)
    client = client_for(owner)
    html = client.get(f"/tables/{game.pk}/").content.decode()
    assert "Make your claim for this round." in html  # nobody has claimed: her turn, no waiting line
    services.action_submit(game_id=game.pk, user=owner, action={"type": "renew"}, expected_version=game.version)
    html = client.get(f"/tables/{game.pk}/").content.decode()
    assert "The bots are thinking over their claims:" in html
    assert "Waiting for the claims of:" not in html


def test_without_javascript_the_topoum_form_still_offers_every_card_type(owner_client):
    html = owner_client.get("/tables/new/").content.decode()
    assert html.count('name="opt__topoum__types"') == 22


def test_the_lit_topoum_spaces_are_buttons_named_for_a_screen_reader(owner, member):
    """Decision 13, point 6: a keyboard or screen-reader player hears what lies on a space, not bare coordinates."""
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    first = seat_user(game, game.to_act[0])
    html = client_for(first).get(f"/tables/{game.pk}/").content.decode()
    assert "Your setup placement." in html
    assert "data-min-width" in html and 'role="group"' in html and 'aria-label="The battlefield"' in html
    assert 'role="button" aria-label="space 0,0' in html and "<title>(0,0)</title>" not in html
    assert 'id="tm-keys-help"' in html
