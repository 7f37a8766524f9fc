"""Aborting through the API (games.services.aborting): refused after the deal with what to do instead; by agreement."""

import pytest

from games import services
from games.models import Game
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def test_abort_after_the_opening_deal_is_refused_with_the_way_out(owner, member, owner_api):
    game = started_topology(owner, member)
    reply = owner_api.post(f"/api/tables/{game.pk}/abort/")
    assert reply.status_code == 409 and reply.data["error"] == "conflict"
    assert "agree" in reply.data["detail"].lower() and "resign" in reply.data["detail"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_every_person_agreeing_aborts_and_the_table_says_who_agreed(owner, member, owner_api, member_api):
    game = started_topology(owner, member)
    first = owner_api.post(f"/api/tables/{game.pk}/abort-agreement/", {"agree": True}, format="json")
    assert first.status_code == 200 and first.data["status"] == "running"
    assert first.data["abort"] == {
        "players": [0, 1],
        "agreed": [0],
        "i_agreed": True,
        "alone": False,
        "by_agreement": True,
    }
    assert member_api.get(f"/api/tables/{game.pk}/").data["abort"]["agreed"] == [0]
    taken_back = owner_api.post(f"/api/tables/{game.pk}/abort-agreement/", {"agree": False}, format="json")
    assert taken_back.data["abort"]["agreed"] == []
    owner_api.post(f"/api/tables/{game.pk}/abort-agreement/", {}, format="json")  # agree is the default
    last = member_api.post(f"/api/tables/{game.pk}/abort-agreement/", {"agree": True}, format="json")
    assert last.status_code == 200 and last.data["status"] == "aborted" and "abort" not in last.data


def test_alone_against_a_bot_before_any_action_the_abort_goes_through(owner, owner_api):
    game = services.game_create(user=owner, kind="topology", players=2, bots=["random"])
    services.game_start(user=owner, game_id=game.pk)
    assert owner_api.get(f"/api/tables/{game.pk}/").data["abort"]["alone"] is True
    reply = owner_api.post(f"/api/tables/{game.pk}/abort/")
    assert reply.status_code == 200 and reply.data["status"] == "aborted"


def test_the_schema_documents_the_agreement(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/tables/{id}/abort-agreement/" in schema["paths"]
