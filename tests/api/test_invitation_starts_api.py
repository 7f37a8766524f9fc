"""An invitation says when its table starts, in the API as on the pages: by itself when its last seat is taken
(`auto_start`, with the seats still free), else when its creator starts it."""

from __future__ import annotations

import pytest

from games import services

pytestmark = pytest.mark.django_db


def invite(owner, guest, *, auto_start: bool, players: int):
    game = services.game_create(user=owner, kind="topology", players=players, auto_start=auto_start)
    services.game_invite(user=owner, game_id=game.pk, username=guest.username)
    return game


def test_each_invitation_says_who_starts_the_table_and_the_seats_free(owner, member, outsider, member_api):
    by_itself = invite(owner, member, auto_start=True, players=3)
    services.game_join(user=outsider, game_id=by_itself.pk)
    by_creator = invite(owner, member, auto_start=False, players=4)
    listed = {i["table"]: i for i in member_api.get("/api/invitations/").data["results"]}
    assert (listed[by_itself.pk]["auto_start"], listed[by_itself.pk]["free_seats"]) == (True, 1)
    assert (listed[by_creator.pk]["auto_start"], listed[by_creator.pk]["free_seats"]) == (False, 3)
    assert {i["created_by"] for i in listed.values()} == {owner.username}


def test_accepting_the_last_seat_of_a_table_that_starts_itself_starts_it(owner, member, member_api):
    game = invite(owner, member, auto_start=True, players=2)
    invitation = member_api.get("/api/invitations/").data["results"][0]
    assert invitation["free_seats"] == 1
    assert member_api.post(f"/api/invitations/{invitation['id']}/accept/").status_code == 200
    assert member_api.get(f"/api/tables/{game.pk}/").data["status"] == "running"
    assert member_api.get("/api/invitations/").data["results"] == []


def test_the_schema_says_what_auto_start_means(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    fields = schema["components"]["schemas"]["InvitationOut"]["properties"]
    assert {"auto_start", "free_seats", "created_by"} <= set(fields)
    assert "creator starts it" in fields["auto_start"]["description"]
