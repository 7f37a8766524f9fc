"""The table page while open: who sees it, and the waiting-room writes (join, leave, bots, invite, start)."""

import pytest

from games import services
from games.models import Game, Invitation
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(owner):
    return services.game_create(user=owner, kind="topology", players=3)


def test_anonymous_visitors_see_a_public_table_and_a_login_link(client, table):
    html = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Log in to join" in html
    assert "Join this table" not in html and "Start the game" not in html


def test_the_creator_sees_start_and_bots_and_no_join(owner_client, table):
    html = owner_client.get(f"/tables/{table.pk}/").content.decode()
    assert "Start the game" in html and "Add bot" in html and "Invite" in html
    assert "Join this table" not in html


def test_another_user_sees_join(member_client, table):
    html = member_client.get(f"/tables/{table.pk}/").content.decode()
    assert "Join this table" in html and "Start the game" not in html


def test_a_private_table_is_hidden_from_outsiders_but_open_with_its_code(outsider_client, owner):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    assert outsider_client.get(f"/tables/{game.pk}/").status_code == 404
    page = outsider_client.get(f"/tables/{game.pk}/?code={game.invite_code}")
    assert page.status_code == 200 and "Join this table" in page.content.decode()
    joined = outsider_client.post(f"/tables/{game.pk}/join/", {"invite_code": game.invite_code})
    assert joined.status_code == 302 and game.seats.count() == 2


def test_the_creator_sees_the_invite_link_of_a_private_table(owner_client, owner):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    assert f"?code={game.invite_code}" in owner_client.get(f"/tables/{game.pk}/").content.decode()


def test_joining_by_htmx_answers_with_the_live_region(member_client, member, table):
    reply = member_client.post(f"/tables/{table.pk}/join/", **HX)
    html = reply.content.decode()
    assert reply.status_code == 200
    assert html.lstrip().startswith('<section id="table-live"') and "<html" not in html
    assert "Leave" in html and table.seats.filter(user=member).exists()


def test_leaving(member_client, member, table):
    services.game_join(user=member, game_id=table.pk)
    reply = member_client.post(f"/tables/{table.pk}/leave/", **HX)
    assert reply.status_code == 200 and not table.seats.filter(user=member).exists()


def test_only_the_creator_adds_bots_and_the_refusal_is_shown(member_client, member, owner_client, table):
    services.game_join(user=member, game_id=table.pk)
    refused = member_client.post(f"/tables/{table.pk}/bots/", {"level": "random"}, **HX)
    assert refused.status_code == 403 and "Only the player who opened the table" in refused.content.decode()
    added = owner_client.post(f"/tables/{table.pk}/bots/", {"level": "random"}, **HX)
    assert added.status_code == 200 and table.seats.filter(bot_level="random").count() == 1


def test_inviting_by_username(owner_client, member, table):
    reply = owner_client.post(f"/tables/{table.pk}/invite/", {"username": "bruno"}, **HX)
    assert reply.status_code == 200 and Invitation.objects.filter(game=table, user=member).exists()
    unknown = owner_client.post(f"/tables/{table.pk}/invite/", {"username": "nobody-here"}, **HX)
    assert unknown.status_code == 404 and "no player called" in unknown.content.decode()


def test_starting_needs_full_seats_or_bots(owner_client, table):
    early = owner_client.post(f"/tables/{table.pk}/start/", {"fill_with_bots": ""}, **HX)
    assert early.status_code == 409 and "still empty" in early.content.decode()
    started = owner_client.post(f"/tables/{table.pk}/start/", {"fill_with_bots": "random"})
    assert started.status_code == 302
    table.refresh_from_db()
    assert table.status == Game.Status.RUNNING and table.seats.count() == 3


def test_writes_need_a_login(client, table):
    plain = client.post(f"/tables/{table.pk}/join/")
    assert plain.status_code == 302 and "/accounts/login/" in plain["Location"]
    by_htmx = client.post(f"/tables/{table.pk}/join/", **HX)
    assert by_htmx.status_code == 401 and "/accounts/login/" in by_htmx["HX-Redirect"]


def test_closing_the_table(owner_client, table):
    owner_client.post(f"/tables/{table.pk}/abort/", **HX)
    table.refresh_from_db()
    assert table.status == Game.Status.ABORTED


def test_htmx_refusals_are_marked_as_the_sites_own_fragments(member_client, member, table):
    # static/js/table.js swaps a 403/404 only when it carries this header (never Django's error pages).
    services.game_join(user=member, game_id=table.pk)
    refused = member_client.post(f"/tables/{table.pk}/start/", **HX)
    assert refused.status_code == 403 and refused["X-Topos-Fragment"] == "1"
    plain = member_client.post(f"/tables/{table.pk}/start/")
    assert plain.status_code == 403 and "X-Topos-Fragment" not in plain
