"""After a finished game, Rematch opens the same table again: she sits first, her opponent is invited (decision 11, 1).

Run with `pytest -m browser tests/browser`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game, Invitation
from tests.browser.helpers import WAIT, add_person, expect, log_in
from tests.games.test_replay import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rematch_from_the_finished_page_opens_a_new_table_with_the_opponent_invited(live_server, pages):
    ana, bruno = add_person("ana"), add_person("bruno")
    game = services.game_create(user=ana, kind="toppo", players=2, options={"hands": 1})
    services.game_join(user=bruno, game_id=game.pk)
    finished = play(services.game_start(user=ana, game_id=game.pk))
    assert finished.status == Game.Status.FINISHED

    page = pages.open(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/tables/{finished.pk}/")
    page.get_by_role("button", name="Rematch").click()

    page.wait_for_url(re.compile(rf"{re.escape(live_server.url)}/tables/(?!{finished.pk}/)\d+/$"), timeout=WAIT)
    new = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert (new.kind, new.players, new.pace, new.status) == ("toppo", 2, finished.pace, Game.Status.OPEN)
    assert new.options["hands"] == 1 and new.rated == finished.rated
    assert new.seats.get(index=0).user == ana
    assert list(Invitation.objects.filter(game=new).values_list("user__username", flat=True)) == ["bruno"]
    # The waiting room says who is invited, linked to her page.
    expect(page.get_by_text("Invited:")).to_be_visible()
    expect(page.get_by_role("link", name="bruno")).to_have_attribute("href", "/accounts/players/bruno/")
    assert pages.errors == []
