"""POST /api/tables/<id>/resign/ (games.services.moves.game_resign): a player resigns a running game and a bot
finishes her seat (ruling S1); with nobody left to play against the game ends.  An outsider, anonymous, a table not
yet dealt, a second resignation and a private table she cannot see are refused and nothing changes."""

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.games.factories import assert_refused, open_topology
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def resign(api, game):
    return lambda: api.post(f"/api/tables/{game.pk}/resign/")


@pytest.fixture
def three_players(owner, member, outsider):
    game = open_topology(owner, member, outsider)
    return services.game_start(user=owner, game_id=game.pk)


def test_resigning_the_last_opponent_ends_the_game_with_her_last(game, member_api):
    everyone_played(game)  # ruling S1, turn 3: before that, resigning aborts (test_aborting_early_api)
    reply = resign(member_api, game)()
    assert reply.status_code == 200 and reply.data["status"] == "finished"
    assert dict(game.seats.values_list("index", "rank")) == {0: 1, 1: 2}
    assert game.seats.get(index=1).abandoned


def test_with_two_left_a_bot_takes_her_seat_and_a_second_resignation_is_a_conflict(three_players, member_api):
    everyone_played(three_players)
    reply = resign(member_api, three_players)()
    assert reply.status_code == 200 and reply.data["status"] == "running"
    assert three_players.seats.get(index=1).abandoned
    three_players = Game.objects.get(pk=three_players.pk)
    assert_refused(three_players, resign(member_api, three_players), 409, "You have already left this game.")


def test_an_outsider_and_anonymous_cannot_resign_for_anyone(game, outsider_api):
    assert_refused(game, resign(outsider_api, game), 403, "You do not play at this table.")
    assert_refused(game, resign(APIClient(), game), 401)


def test_a_table_not_yet_dealt_cannot_be_resigned(owner, member, member_api):
    game = open_topology(owner, member)
    assert_refused(game, resign(member_api, game), 409, "Only a running game can be resigned.")


def test_a_private_game_does_not_exist_for_an_outsider(owner, member, outsider_api):
    game = open_topology(owner, member, private=True, players=2)
    services.game_start(user=owner, game_id=game.pk)
    assert_refused(Game.objects.get(pk=game.pk), resign(outsider_api, game), 404, f"There is no table #{game.pk}")
