"""Decision 17 on the pages: the lobby's filters, invitations answered from the home page, the watch page and its
spectators, the challenge button and its prefilled form, and the spectator's public view."""

import re

import pytest
from django.test import Client

from games import services
from games.models import Game, Invitation, Spectator
from games.services.challenges import challenge_create
from tests.web.helpers import started_topology

pytestmark = pytest.mark.django_db


def _open_rows(html: str) -> set[int]:
    section = html.split('id="open-tables"', 1)[1]
    return {int(n) for n in re.findall(r'href="/tables/(\d+)/"', section)}


def test_the_home_page_filters_open_tables_and_never_lists_full_ones(client, owner, member):
    topology = services.game_create(user=owner, kind="topology", players=3)
    toppo = services.game_create(user=owner, kind="toppo", players=2, pace="live", rated=False)
    full = services.game_create(user=owner, kind="topology", players=2, auto_start=False)
    services.game_join(user=member, game_id=full.pk)
    assert _open_rows(client.get("/").content.decode()) == {topology.pk, toppo.pk}
    assert _open_rows(client.get("/?game=toppo").content.decode()) == {toppo.pk}
    assert _open_rows(client.get("/?players=3").content.decode()) == {topology.pk}
    assert _open_rows(client.get("/?pace=live").content.decode()) == {toppo.pk}
    assert _open_rows(client.get("/?rated=no").content.decode()) == {toppo.pk}
    assert _open_rows(client.get("/?rated=yes").content.decode()) == {topology.pk}
    # A value that is not a choice is ignored rather than emptying the list.
    assert _open_rows(client.get("/?game=chess").content.decode()) == {topology.pk, toppo.pk}


def test_my_invitations_are_on_the_home_page_with_accept_and_decline(member_client, owner, member):
    game = challenge_create(user=owner, username="bruno", kind="topology")
    invitation = Invitation.objects.get(game=game, user=member)
    html = member_client.get("/").content.decode()
    assert f'action="/invitations/{invitation.pk}/accept/"' in html
    assert f'action="/invitations/{invitation.pk}/decline/"' in html
    reply = member_client.post(f"/invitations/{invitation.pk}/accept/")
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING  # her seat was the last one
    assert f"/invitations/{invitation.pk}/accept/" not in member_client.get("/").content.decode()


def test_declining_removes_the_invitation(member_client, owner_client, owner, member):
    game = challenge_create(user=owner, username="bruno", kind="topology")
    invitation = Invitation.objects.get(game=game, user=member)
    assert owner_client.post(f"/invitations/{invitation.pk}/decline/").status_code == 302  # not hers: nothing
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    reply = member_client.post(f"/invitations/{invitation.pk}/decline/", follow=True)
    assert "Invitation declined." in reply.content.decode()
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    # a challenge is opened for her: her decline closes it, and the challenger is told (ruling S6)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert owner.notifications.filter(kind="answered", game=game).exists()


def test_answering_an_invitation_needs_a_login(client, owner, member):
    game = challenge_create(user=owner, username="bruno", kind="topology")
    invitation = Invitation.objects.get(game=game)
    reply = client.post(f"/invitations/{invitation.pk}/accept/")
    assert reply.status_code == 302 and "/accounts/login/" in reply["Location"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_the_watch_page_lists_running_public_games_with_filters_and_spectators(client, owner, member):
    watched = started_topology(owner, member)
    waiting = services.game_create(user=owner, kind="topology", players=2)
    Spectator.objects.create(game=watched, viewer="v1", seen_at=watched.updated_at)
    Spectator.objects.create(game=watched, viewer="v2", seen_at=watched.updated_at)
    html = client.get("/watch/").content.decode()
    assert f'href="/tables/{watched.pk}/"' in html and f'href="/tables/{waiting.pk}/"' not in html
    assert '<td class="spectator-count">2</td>' in html
    assert f'href="/tables/{watched.pk}/"' not in client.get("/watch/?game=toppo").content.decode()
    assert f'href="/tables/{watched.pk}/"' in client.get("/watch/?game=topology&rated=yes").content.decode()


def test_watching_a_table_counts_me_as_a_spectator_but_not_its_players(owner_client, member_client, owner, member):
    game = started_topology(owner, member)
    owner_client.get(f"/tables/{game.pk}/")
    Client().get(f"/tables/{game.pk}/")  # an anonymous visitor
    viewer = Client(HTTP_USER_AGENT="another browser")
    viewer.get(f"/tables/{game.pk}/")
    page = viewer.get(f"/tables/{game.pk}/")
    assert page.context["detail"]["spectators"] == 2
    assert "2 watching" in page.content.decode()


def test_a_spectators_page_is_built_from_the_public_view(client, outsider_client, owner_client, owner, member):
    """Ruling G0.3: the page of someone who does not sit at a Topoum table carries no hand."""
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    for visitor in (client, outsider_client):
        detail = visitor.get(f"/tables/{game.pk}/").context["detail"]
        assert detail["my_seat"] is None and "hand" not in detail["view"]
    assert "hand" in owner_client.get(f"/tables/{game.pk}/").context["detail"]["view"]


def test_the_player_page_offers_a_challenge_that_prefills_the_form(owner_client, member_client, owner, member):
    html = owner_client.get("/accounts/players/bruno/").content.decode()
    assert 'href="/tables/new/?opponent=bruno"' in html
    assert "/tables/new/?opponent=" not in member_client.get("/accounts/players/bruno/").content.decode()  # herself
    form = owner_client.get("/tables/new/?opponent=bruno").content.decode()
    assert re.search(r'<input[^>]*name="opponent"[^>]*value="bruno"', form)
    assert re.search(r'<input[^>]*name="auto_start"[^>]*checked', form)


def test_the_new_table_form_with_an_opponent_challenges_her(owner_client, owner, member):
    reply = owner_client.post(
        "/tables/new/",
        {
            "game": "topology",
            "players": 2,
            "pace": "correspondence",
            "days": 3,
            "opponent": "bruno",
            "auto_start": "on",
            "rated": "on",
        },
    )
    game = Game.objects.get()
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    assert game.auto_start and Invitation.objects.filter(game=game, user=member, invited_by=owner).exists()


def test_challenging_nobody_says_so_next_to_the_field_and_opens_nothing(owner_client, owner):
    reply = owner_client.post(
        "/tables/new/", {"game": "topology", "players": 2, "pace": "correspondence", "days": 3, "opponent": "nobody"}
    )
    assert reply.status_code == 400
    assert "There is no player called" in str(reply.context["form"].errors["opponent"])
    assert not Game.objects.exists()


def test_a_poll_within_half_a_minute_writes_nothing_for_the_spectator(owner, member):
    """The viewer's row is written at most every 30 s (a throttle in the cache); the game's row never."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = started_topology(owner, member)
    viewer = Client()
    with CaptureQueriesContext(connection) as first:
        viewer.get(f"/tables/{game.pk}/")
    with CaptureQueriesContext(connection) as later:
        viewer.get(f"/tables/{game.pk}/poll/?stamp=x", HTTP_HX_REQUEST="true")
    writes = [q["sql"] for q in first.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "DELETE"))]
    assert any("games_spectator" in sql for sql in writes) and not any("games_game" in sql for sql in writes)
    assert not [q for q in later.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "DELETE"))]
