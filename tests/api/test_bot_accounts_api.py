"""Decision 12, bot accounts: turning an account into one (irreversible; not while she sits at a table as a person),
answering invitations through the API, the BOT mark wherever names are shown, and no moves from the table page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.core import get_game
from games import services
from games.models import Action, Game
from tests.games.tables import everyone_played, pick, topology_table
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

User = get_user_model()


def is_bot(user) -> bool:
    return User.objects.get(pk=user.pk).is_bot_account


def test_she_turns_her_account_into_a_bot_account_once_and_for_all(owner_api, owner):
    reply = owner_api.post("/api/me/bot/")
    assert reply.status_code == 200, reply.content
    assert reply.json() == {"username": "ana", "bot_account": True} and is_bot(owner)
    again = owner_api.post("/api/me/bot/")
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert is_bot(owner)


@pytest.mark.parametrize("started", [False, True])
def test_not_while_she_sits_at_an_open_or_running_table(owner_api, owner, member, started):
    topology_table(owner, member, start=started)
    reply = owner_api.post("/api/me/bot/")
    assert reply.status_code == 409 and "1 open or running table" in reply.json()["detail"]
    assert not is_bot(owner)


def test_a_finished_or_left_table_does_not_hold_her_back(owner_api, owner, member):
    game = topology_table(owner, member)
    everyone_played(game)  # ruling S1, turn 3: before that, leaving aborts the game
    services.game_resign(user=owner, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert owner_api.post("/api/me/bot/").status_code == 200 and is_bot(owner)


def test_invitations_are_listed_accepted_and_declined(owner, member, member_api, outsider_api):
    first = services.game_create(user=owner, kind="topology", players=2, private=True)
    second = services.game_create(user=owner, kind="topoum", players=2)
    mine = [services.game_invite(user=owner, game_id=g.pk, username="bruno") for g in (first, second)]
    listed = member_api.get("/api/invitations/").json()["results"]
    assert [(i["id"], i["table"], i["kind"], i["invited_by"]) for i in listed] == [
        (mine[0].pk, first.pk, "topology", "ana"),
        (mine[1].pk, second.pk, "topoum", "ana"),
    ]

    assert outsider_api.post(f"/api/invitations/{mine[0].pk}/accept/").status_code == 404  # not hers
    assert outsider_api.get("/api/invitations/").json()["results"] == []
    accepted = member_api.post(f"/api/invitations/{mine[0].pk}/accept/")
    assert accepted.status_code == 200 and accepted.json() == {"table": first.pk, "joined": True}
    assert first.seats.filter(user=member, index=1).exists()
    assert member_api.post(f"/api/invitations/{mine[0].pk}/accept/").status_code == 409  # she sits there

    assert member_api.post(f"/api/invitations/{mine[1].pk}/decline/").status_code == 204
    assert member_api.get("/api/invitations/").json()["results"] == []
    assert not second.seats.filter(user=member).exists()
    assert member_api.post(f"/api/invitations/{mine[1].pk}/decline/").status_code == 404


def test_a_bot_account_is_marked_in_the_api_and_on_pages_and_cannot_move_from_the_page(owner, member, member_api):
    game = topology_table(member, owner, start=False)
    services.game_leave(user=owner, game_id=game.pk)
    services.account_make_bot(user=owner)
    services.game_join(user=owner, game_id=game.pk)
    services.game_start(user=member, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)

    seats = {s["player"]: s for s in member_api.get(f"/api/tables/{game.pk}/").json()["seats"]}
    assert seats["ana"]["bot_account"] is True and seats["bruno"]["bot_account"] is False

    page = client_for(member).get(reverse("table", args=[game.pk])).content.decode()
    assert page.count('class="bot-account-mark"') >= 1 and ">BOT<" in page

    # Whoever's turn it is, the bot account's own page post is refused and changes nothing.
    seat = game.seats.get(user=owner).index
    state = get_game(game.kind).load(game.state)
    action = state.legal_actions(seat)[0] if seat in game.to_act else pick(game.kind, state, game.to_act[0])
    reply = client_for(owner).post(
        reverse("table_act", args=[game.pk]), {"action": json.dumps(action), "version": game.version}
    )
    assert reply.status_code == 403 and "bot account" in reply.content.decode()
    assert not Action.objects.filter(game=game).exists()


def test_the_profile_button_asks_for_a_confirmation(owner):
    client = client_for(owner)
    assert "bot_account_make" not in client.get(reverse("profile")).content.decode()  # a url name, never shown
    assert reverse("bot_account_make") in client.get(reverse("profile")).content.decode()
    client.post(reverse("bot_account_make"))
    assert not is_bot(owner)
    page = client.post(reverse("bot_account_make"), {"confirm": "yes"}, follow=True).content.decode()
    assert is_bot(owner) and "This is now a bot account" in page
    assert reverse("bot_account_make") not in page  # no button any more: there is no way back


def test_her_player_page_and_the_player_api_say_she_is_a_bot_account(owner, member, member_api):
    assert member_api.get("/api/players/ana/").json()["bot_account"] is False
    services.account_make_bot(user=owner)
    assert member_api.get("/api/players/ana/").json()["bot_account"] is True
    page = client_for(member).get(reverse("player", args=["ana"])).content.decode()
    assert 'class="bot-account-mark"' in page
    assert 'class="bot-account-mark"' not in client_for(owner).get(reverse("player", args=["bruno"])).content.decode()
