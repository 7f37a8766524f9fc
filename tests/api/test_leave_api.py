"""POST /api/tables/<id>/leave/ (games.services.tables.game_leave): a seated player leaves a table before the deal;
the opener, an outsider, a stranger to a private table and anyone after the deal are refused and nothing changes."""
import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.games.factories import open_topology, started_topology, table_snapshot

pytestmark = pytest.mark.django_db


def leave(api, game):
    return api.post(f"/api/tables/{game.pk}/leave/")


def test_a_seated_player_leaves_and_her_seat_is_free_again(owner, member, member_api):
    game = open_topology(owner, member)
    reply = leave(member_api, game)
    assert reply.status_code == 200
    assert reply.data["status"] == "open" and reply.data["my_seat"] is None
    assert list(game.seats.values_list("user__username", flat=True)) == ["ana"]


def test_the_opener_is_told_to_abort_instead(owner, member, owner_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    reply = leave(owner_api, game)
    assert reply.status_code == 409 and "abort it instead" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_an_outsider_who_does_not_sit_there_is_refused(owner, member, outsider_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    reply = leave(outsider_api, game)
    assert reply.status_code == 403 and reply.data["detail"] == "You do not sit at this table."
    assert table_snapshot(game) == before


def test_after_the_deal_she_is_told_to_resign(owner, member, member_api):
    game = started_topology(owner, member)
    before = table_snapshot(game)
    reply = leave(member_api, game)
    assert reply.status_code == 409 and "resign instead" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_a_private_table_does_not_exist_for_an_outsider(owner, member, outsider_api):
    game = open_topology(owner, member, private=True)
    before = table_snapshot(game)
    reply = leave(outsider_api, game)
    assert reply.status_code == 404 and reply.data["error"] == "not_found"
    assert table_snapshot(game) == before
    assert leave(outsider_api, Game(pk=game.pk + 1000)).status_code == 404


def test_anonymous_is_asked_to_sign_in(owner, member):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    assert leave(APIClient(), game).status_code == 401
    assert table_snapshot(game) == before
