"""The tournament pages: the list (upcoming, running, finished), the create form, one tournament with its
register/withdraw buttons, its tables and standings, and the link in the site's navigation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services as game_services
from games.models import Game
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _open(owner, name="Spring cup", **kwargs):
    return services.tournament_create(
        user=owner, name=name, kind="topology", players=2, starts_at=timezone.now() + timedelta(hours=2), **kwargs
    )


def test_the_list_shows_each_state_and_the_nav_links_to_it(owner, member):
    upcoming = _open(owner, "Upcoming one")
    done = _open(owner, "Done one")
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED, winner=member)
    page = Client().get("/tournaments/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'href="/tournaments/"' in html  # the site's navigation
    assert f'href="/tournaments/{upcoming.pk}/"' in html and f'href="/tournaments/{done.pk}/"' in html
    assert html.index("Upcoming one") < html.index('id="tournaments-running"') < html.index("Done one")
    assert "bruno" in html  # the winner of the finished one


def test_creating_needs_a_login_and_goes_through_the_service(owner_client):
    assert Client().get("/tournaments/new/").status_code == 302
    assert owner_client.get("/tournaments/new/").status_code == 200
    start = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Club night",
        "game": "topology",
        "players": 2,
        "days": 2,
        "time_bank_days": 0,
        "starts_at": start,
        "min_entrants": 3,
        "max_entrants": 6,
        "join": "on",
        "rated": "on",
    }
    reply = owner_client.post("/tournaments/new/", form)
    tournament = Tournament.objects.get()
    assert reply.status_code == 302 and reply["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.turn_seconds, tournament.min_entrants, tournament.max_entrants) == (2 * 86400, 3, 6)
    assert tournament.entrants.filter(user__username="ana").exists()
    refused = owner_client.post("/tournaments/new/", {**form, "min_entrants": 7})  # more than the most
    assert refused.status_code == 400 and "fewer than the fewest" in refused.content.decode()
    assert Tournament.objects.count() == 1


def test_register_and_withdraw_buttons(owner, member_client):
    tournament = _open(owner)
    url = f"/tournaments/{tournament.pk}/"
    html = member_client.get(url).content.decode()
    assert f'action="{url}register/"' in html and "Pairings: every entrant plays every other once" in html
    assert member_client.post(f"{url}register/").status_code == 302
    html = member_client.get(url).content.decode()
    assert f'action="{url}withdraw/"' in html and "bruno" in html
    member_client.post(f"{url}register/")  # again: refused, said on the page
    assert "already registered" in member_client.get(url).content.decode()
    member_client.post(f"{url}withdraw/")
    assert not tournament.entrants.filter(user__username="bruno").exists()
    assert "Log in to register." in Client().get(url).content.decode()
    assert Client().post(f"{url}register/").status_code == 302  # to the login page
    assert Client().get("/tournaments/999999/").status_code == 404


def test_a_running_tournament_shows_its_tables_and_standings(owner, member):
    tournament = _open(owner, min_entrants=2)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.tournament_start(tournament_id=tournament.pk)
    game = Game.objects.get(tournament_table__tournament=tournament)
    html = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tables/{game.pk}/"' in html
    assert 'class="list standings tournament-standings"' in html and "Sonneborn–Berger" in html
    assert "Register" not in html.split("<h2>")[0]  # registration closed


def test_the_pages_speak_the_reader_language(owner):
    tournament = _open(owner)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    assert "Próximos" in client.get("/tournaments/").content.decode()
    html = Client(HTTP_ACCEPT_LANGUAGE="zh-hant").get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "配對：每位參賽者與其他每人對戰一次" in html and "排名" in html


def test_a_tournament_table_links_back_to_its_tournament(owner, member):
    tournament = _open(owner, name="Back link cup", min_entrants=2)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.tournament_start(tournament_id=tournament.pk)
    game = Game.objects.get(tournament_table__tournament=tournament)
    html = Client().get(f"/tables/{game.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in html and "Table 1 of the tournament “Back link cup”" in html
    other = game_services.game_create(user=owner, kind="topology", players=2)
    assert "tournament-link" not in Client().get(f"/tables/{other.pk}/").content.decode()


def test_the_organiser_has_the_start_and_cancel_buttons(owner, member, owner_client, member_client):
    tournament = _open(owner, min_entrants=2)
    url = f"/tournaments/{tournament.pk}/"
    assert f'action="{url}cancel/"' in owner_client.get(url).content.decode()
    assert f'action="{url}start/"' not in owner_client.get(url).content.decode()  # one entrant of the two needed
    services.tournament_register(user=member, tournament_id=tournament.pk)
    assert f'action="{url}start/"' in owner_client.get(url).content.decode()
    assert f'action="{url}cancel/"' not in member_client.get(url).content.decode()
    member_client.post(f"{url}cancel/")  # refused: not hers
    assert "Only the organiser" in member_client.get(url).content.decode()
    owner_client.post(f"{url}cancel/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
