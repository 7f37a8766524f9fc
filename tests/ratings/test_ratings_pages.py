"""Ratings in the pages (ruling S5): the rated option of the new-table form, the rating beside every name,
the changes on the finished page, the leaderboard in the site's navigation."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game
from ratings.models import Rating, RatingChange
from ratings.system import PROVISIONAL_GAMES
from tests.ratings.helpers import played, table_of
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db
FORM = {"game": "topology", "players": 2, "pace": "correspondence", "days": 3}


def test_the_new_table_form_offers_rated_play_ticked_and_unrated_when_unticked(owner):
    client = client_for(owner)
    page = client.get("/tables/new/").content.decode()
    assert re.search(r'<input type="checkbox" name="rated"[^>]*checked', page)
    client.post("/tables/new/", {**FORM, "rated": "on"})
    client.post("/tables/new/", FORM)  # a browser sends nothing for an unticked box
    client.post("/tables/new/", {**FORM, "rated": "on", "bot_1": "random"})
    assert list(Game.objects.order_by("id").values_list("rated", flat=True)) == [True, False, False]


def test_the_api_opens_rated_tables_unless_told_not_to(owner_api):
    body = {"game": "topology", "players": 2}
    assert owner_api.post("/api/tables/", body, format="json").json()["rated"] is True
    assert owner_api.post("/api/tables/", {**body, "rated": False}, format="json").json()["rated"] is False
    assert owner_api.post("/api/tables/", {**body, "bots": ["random"]}, format="json").json()["rated"] is False


def test_the_finished_page_shows_each_players_rating_change(owner, member):
    game = played([owner, member])
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    for change in RatingChange.objects.filter(game=game):
        delta = f"+{change.delta}" if change.delta > 0 else (f"\u2212{-change.delta}" if change.delta else "\u00b10")
        assert f"{change.value_before}? → {change.value_after}?" in page
        assert delta in page
    assert "not rated" not in page


def test_an_unrated_finished_page_says_the_ratings_did_not_change(owner, member):
    game = played([owner, member], rated=False)
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    assert "This game was not rated" in page and "unrated" in page


def test_the_rating_stands_beside_every_name_with_a_provisional_mark(owner, member, outsider):
    played([owner, member])
    Rating.objects.filter(user=owner).update(games=PROVISIONAL_GAMES, value=1612)
    game = table_of([owner, member])
    ana = Rating.objects.get(user=owner)
    bruno = Rating.objects.get(user=member)
    page = client_for(outsider).get(f"/tables/{game.pk}/").content.decode()
    seats = page[page.index('class="seat-list"') :]
    assert re.search(r'ana</a> <span class="rating"[^>]*>1612</span>', seats)
    assert re.search(rf'bruno</a> <span class="rating provisional"[^>]*>{bruno.value}\?</span>', seats)
    home = client_for(member).get("/").content.decode()
    assert f">{ana.value}</span>" in home and f">{bruno.value}?</span>" in home

    # A newcomer shows the starting rating, provisional; an open table names its opener with hers.
    opened = services.game_create(user=outsider, kind="topology", players=2)
    assert opened.rated
    home = client_for(owner).get("/").content.decode()
    assert re.search(r'chen</a> <span class="rating provisional"[^>]*>1500\?</span>', home)


def test_the_api_gives_each_seat_its_rating(owner_api, owner, member):
    played([owner, member])
    game = table_of([owner, member])
    seats = owner_api.get(f"/api/tables/{game.pk}/").json()["seats"]
    mine = Rating.objects.get(user=owner)
    assert seats[0]["rating"] == {"value": mine.value, "provisional": True, "games": 1}


def test_the_navigation_leads_to_the_leaderboards(client):
    home = client.get("/").content.decode()
    assert 'href="/leaderboards/"' in home
    board = client.get("/leaderboards/", follow=True)
    assert board.status_code == 200 and "Leaderboard: Topology" in board.content.decode()
