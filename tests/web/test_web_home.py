"""The home page: open tables with a join button, my games with the ones waiting for me first."""

import pytest

from games import services
from tests.web.helpers import started_topology

pytestmark = pytest.mark.django_db


def test_it_shows_open_tables_to_anonymous_visitors_with_a_login_link(client, owner):
    game = services.game_create(user=owner, kind="topology", players=2)
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/tables/{game.pk}/" in html
    assert "Log in to join" in html
    assert f'action="/tables/{game.pk}/join/"' not in html


def test_it_offers_a_join_button_to_others_and_not_on_my_own_table(owner_client, member_client, owner):
    game = services.game_create(user=owner, kind="topology", players=2)
    assert f'action="/tables/{game.pk}/join/"' in member_client.get("/").content.decode()
    assert f'action="/tables/{game.pk}/join/"' not in owner_client.get("/").content.decode()


def test_joining_from_the_home_page_takes_me_to_the_table(member_client, owner, member):
    game = services.game_create(user=owner, kind="topology", players=2)
    reply = member_client.post(f"/tables/{game.pk}/join/")
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    assert game.seats.filter(user=member).exists()


def test_private_tables_are_not_listed(member_client, owner):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    assert f"/tables/{game.pk}/" not in member_client.get("/").content.decode()


def test_my_games_list_the_one_waiting_for_me_first(owner, member, outsider, client):
    waiting = started_topology(owner, member)
    other = started_topology(owner, outsider)
    # The owner sits at both; her seat in each is whichever the table dealt her (seats may be drawn), and she is to
    # act in exactly the games whose to_act holds that seat.
    client.force_login(owner)
    html = client.get("/").content.decode()
    hers = {g.pk: g.seats.get(user=owner).index for g in (waiting, other)}
    mine = [g for g in (waiting, other) if hers[g.pk] in g.to_act]
    theirs = [g for g in (waiting, other) if hers[g.pk] not in g.to_act]
    for g in mine:
        for t in theirs:
            assert html.index(f"/tables/{g.pk}/") < html.index(f"/tables/{t.pk}/")
    # the pill on each game she must move in, not the menu's "Your turns"
    assert html.count('<span class="pill hot">Your turn</span>') == len(mine)


def test_the_page_has_the_site_layout(client):
    html = client.get("/").content.decode()
    assert "js/htmx.min.js" in html and "css/site.css" in html
    assert 'action="/i18n/setlang/"' in html
    assert "hx-headers" in html and "X-CSRFToken" in html
