"""POST /api/tables/<id>/resign/ (games.services.moves.game_resign): a player resigns a running game and a bot
finishes her seat (ruling S1); with nobody left to play against the game ends.  An outsider, a table not yet
dealt, a second resignation and a private table she cannot see are refused and nothing changes."""
import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.games.factories import open_topology, started_topology, table_snapshot

pytestmark = pytest.mark.django_db


def resign(api, game):
    return api.post(f"/api/tables/{game.pk}/resign/")


def test_resigning_the_last_opponent_ends_the_game_with_her_last(owner, member, member_api):
    game = started_topology(owner, member)
    reply = resign(member_api, game)
    assert reply.status_code == 200 and reply.data["status"] == "finished"
    game = Game.objects.get(pk=game.pk)
    assert game.seats.get(index=1).abandoned and game.seats.get(index=1).rank == 2
    assert game.seats.get(index=0).rank == 1


def test_with_two_left_a_bot_takes_her_seat_and_the_game_goes_on(owner, member, outsider, member_api):
    game = open_topology(owner, member, outsider)
    services.game_start(user=owner, game_id=game.pk)
    reply = resign(member_api, game)
    assert reply.status_code == 200 and reply.data["status"] == "running"
    assert Game.objects.get(pk=game.pk).seats.get(index=1).abandoned


def test_a_second_resignation_is_a_conflict(owner, member, outsider, member_api):
    game = open_topology(owner, member, outsider)
    services.game_start(user=owner, game_id=game.pk)
    assert resign(member_api, game).status_code == 200
    before = table_snapshot(game)
    reply = resign(member_api, game)
    assert reply.status_code == 409 and reply.data["detail"] == "You have already left this game."
    assert table_snapshot(game) == before


def test_an_outsider_cannot_resign_for_anyone(owner, member, outsider_api):
    game = started_topology(owner, member)
    before = table_snapshot(game)
    reply = resign(outsider_api, game)
    assert reply.status_code == 403 and reply.data["detail"] == "You do not play at this table."
    assert table_snapshot(game) == before


def test_a_table_not_yet_dealt_cannot_be_resigned(owner, member, member_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    reply = resign(member_api, game)
    assert reply.status_code == 409 and reply.data["detail"] == "Only a running game can be resigned."
    assert table_snapshot(game) == before


def test_a_private_game_does_not_exist_for_an_outsider_and_anonymous_must_sign_in(owner, member, outsider_api):
    game = open_topology(owner, member, private=True, players=2)
    services.game_start(user=owner, game_id=game.pk)
    before = table_snapshot(game)
    assert resign(outsider_api, game).status_code == 404
    assert resign(APIClient(), game).status_code == 401
    assert table_snapshot(game) == before
