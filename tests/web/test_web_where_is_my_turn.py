"""Where is my turn, on the pages: "Your games" the most urgent first with the time left in her words and zone; a
logged-out reader of a turn's email logs in and lands at her seat; an invitation answered from the table page, which
says truthfully when the table starts."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Invitation, Seat
from games.services.vacation import vacation_start
from tests.accounts.conftest import PASSWORD, links_in
from tests.games.tables import play_turn, topology_table
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def her_turn_at(owner, member, *, hours: float, **table):
    """A running table waiting for `member`, her deadline `hours` from now (as if the turn had come then)."""
    game = play_turn(topology_table(owner, member, **table), owner)
    Seat.objects.filter(game=game, user=member).update(deadline=timezone.now() + timedelta(hours=hours))
    return game


def speaking(user, language: str, zone: str = "UTC"):
    user.language, user.time_zone = language, zone
    user.save(update_fields=["language", "time_zone"])
    return client_for(user)


def card(html: str, pk: int) -> str:
    """The "Your games" card of table `pk`."""
    match = re.search(rf'<li class="card[^"]*">\s*<a class="card-link" href="/tables/{pk}/">.*?</li>', html, re.S)
    assert match, pk
    return match.group(0)


@pytest.mark.parametrize(
    "language,left,stopped",
    [("en", " left", "clock stopped"), ("es", "quedan ", "reloj parado"), ("zh-hant", "剩餘 ", "計時暫停")],
)
def test_your_games_come_her_turns_first_by_time_left_with_the_time_left(owner, member, language, left, stopped):
    theirs = topology_table(owner, member)  # waiting for the owner, who decides first
    late = her_turn_at(owner, member, hours=50)
    soon = her_turn_at(owner, member, hours=3)
    html = speaking(member, language, "Asia/Taipei").get("/").content.decode()
    assert html.index(f"/tables/{soon.pk}/") < html.index(f"/tables/{late.pk}/") < html.index(f"/tables/{theirs.pk}/")
    for game in (soon, late):
        shown = card(html, game.pk)
        assert left in shown and "(Asia/Taipei)" in shown
        deadline = Seat.objects.get(game=game, user=member).deadline
        assert f'datetime="{timezone.localtime(deadline, timezone.get_fixed_timezone(480)).isoformat()}"' in shown
    assert left not in card(html, theirs.pk) and stopped not in html


def test_a_clock_her_vacation_stops_says_so_and_comes_after_a_running_one(owner, member):
    stopped = her_turn_at(owner, member, hours=1)
    banked = her_turn_at(owner, member, hours=60, time_bank_days=1)  # a time bank instead of vacation (ruling S4)
    vacation_start(user=member, days=3)
    html = client_for(member).get("/").content.decode()
    assert html.index(f"/tables/{banked.pk}/") < html.index(f"/tables/{stopped.pk}/")
    assert "clock stopped" in card(html, stopped.pk) and " left" not in card(html, stopped.pk)
    assert " left" in card(html, banked.pk)


@pytest.mark.django_db(transaction=True)
def test_a_logged_out_reader_of_her_turns_email_logs_in_and_lands_at_her_seat(owner, member, celery_eager, settings):
    settings.SITE_URL = "https://topos.example"
    game = play_turn(topology_table(owner, member), owner)
    mailed = [link for m in mail.outbox if m.to == [member.email] for link in links_in(m)]
    # The link names the table and nothing else: no token, no code (whoever reads it logs in as herself).
    assert f"/tables/{game.pk}/" in mailed
    reader = Client()
    page = reader.get(f"/tables/{game.pk}/").content.decode()
    login = f"/accounts/login/?next=/tables/{game.pk}/"
    assert "Log in to play" in page and f'href="{login}"' in page
    assert reader.get(login).status_code == 200
    reply = reader.post(login, {"username": member.username, "password": PASSWORD, "next": f"/tables/{game.pk}/"})
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    table = reader.get(reply["Location"])
    assert table.context["detail"]["my_seat"] == 1 and table.context["detail"]["my_turn"]
    assert "Log in to play" not in table.content.decode()


def test_a_private_table_sends_a_logged_out_reader_to_log_in_and_back(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    game = services.game_start(user=owner, game_id=game.pk)
    reader = Client()
    missing = reader.get(f"/tables/{game.pk}/")
    # To anyone else a private table does not exist; the page says how to see it if it is hers.
    assert missing.status_code == 404 and reader.get("/tables/999999/").status_code == 404
    assert f'href="/accounts/login/?next=/tables/{game.pk}/"' in missing.content.decode()
    reply = reader.post(
        f"/accounts/login/?next=/tables/{game.pk}/",
        {"username": member.username, "password": PASSWORD, "next": f"/tables/{game.pk}/"},
    )
    assert reply["Location"] == f"/tables/{game.pk}/"
    assert reader.get(reply["Location"]).context["detail"]["my_seat"] == 1


def test_spectators_who_are_logged_in_are_not_asked_to_log_in(owner, member, outsider):
    game = topology_table(owner, member)
    assert "Log in to play" not in client_for(outsider).get(f"/tables/{game.pk}/").content.decode()


def invited_to(owner, guest, *, auto_start: bool, players: int = 3):
    game = services.game_create(user=owner, kind="topology", players=players, auto_start=auto_start)
    services.game_invite(user=owner, game_id=game.pk, username=guest.username)
    return game, Invitation.objects.get(game=game, user=guest)


@pytest.mark.parametrize(
    "language,starts_itself,creator_starts",
    [
        ("en", "The game starts by itself when the last seat is taken: 2 seats are still free.", "ana starts the game"),
        ("es", "quedan 2 asientos libres", "Esta mesa no empieza sola: ana inicia la partida."),
        ("zh-hant", "還有 2 個空位", "由 ana 開始對局"),
    ],
)
def test_the_invitation_says_truthfully_when_the_table_starts(owner, member, language, starts_itself, creator_starts):
    reader = speaking(member, language)
    by_itself, _ = invited_to(owner, member, auto_start=True)
    by_creator, _ = invited_to(owner, member, auto_start=False)
    page = reader.get(f"/tables/{by_itself.pk}/").content.decode()
    assert starts_itself in page and creator_starts not in page
    page = reader.get(f"/tables/{by_creator.pk}/").content.decode()
    assert creator_starts in page and starts_itself not in page
    home = reader.get("/").content.decode()
    assert starts_itself in home and creator_starts in home


def test_the_last_seat_of_a_table_that_starts_itself_is_named_one(owner, member):
    game, _ = invited_to(owner, member, auto_start=True, players=2)
    page = client_for(member).get(f"/tables/{game.pk}/").content.decode()
    assert "when the last seat is taken: 1 seat is still free." in page


def test_accepting_from_the_table_page_seats_her_and_may_start_the_game(owner, member):
    game, invitation = invited_to(owner, member, auto_start=True, players=2)
    reader = client_for(member)
    page = reader.get(f"/tables/{game.pk}/").content.decode()
    assert "ana invites you to this table." in page
    assert f'action="/invitations/{invitation.pk}/accept/"' in page
    assert f'action="/invitations/{invitation.pk}/decline/"' in page
    reply = reader.post(f"/invitations/{invitation.pk}/accept/")
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    game.refresh_from_db()
    assert game.is_running and game.seats.filter(user=member).exists()  # her seat was the last: it started


def test_declining_from_the_table_page_in_spanish(owner, member):
    game, invitation = invited_to(owner, member, auto_start=False)
    reader = speaking(member, "es")
    page = reader.get(f"/tables/{game.pk}/").content.decode()
    assert "ana te invita a esta mesa." in page and ">Rechazar<" in page
    reply = reader.post(f"/invitations/{invitation.pk}/decline/", follow=True)
    assert reply.redirect_chain[-1][0] == "/"
    assert not Invitation.objects.filter(pk=invitation.pk).exists() and not game.seats.filter(user=member).exists()
    assert f'action="/invitations/{invitation.pk}/accept/"' not in reader.get(f"/tables/{game.pk}/").content.decode()


def test_the_creator_reads_who_starts_her_table(owner):
    reader = client_for(owner)
    by_itself = services.game_create(user=owner, kind="topology", players=2, auto_start=True)
    by_her = services.game_create(user=owner, kind="topology", players=2, auto_start=False)
    assert "1 seat is still free" in reader.get(f"/tables/{by_itself.pk}/").content.decode()
    assert "you start the game" in reader.get(f"/tables/{by_her.pk}/").content.decode()
