"""POST /api/tables/<id>/bots/ (games.services.tables.game_add_bot): the opener seats a bot, which makes the table
unrated (ruling S5); a seated player who did not open it, an outsider, a bad level and a started table are refused
and nothing changes."""
import pytest
from rest_framework.test import APIClient

from tests.games.factories import open_topology, started_topology, table_snapshot

pytestmark = pytest.mark.django_db


def add_bot(api, game, level="random"):
    return api.post(f"/api/tables/{game.pk}/bots/", {"level": level}, format="json")


def test_the_opener_seats_a_bot_and_the_table_is_no_longer_rated(owner, member, owner_api):
    game = open_topology(owner, member)
    assert game.rated
    reply = add_bot(owner_api, game)
    assert reply.status_code == 200 and reply.data["rated"] is False
    bot = game.seats.get(index=2)
    assert bot.user is None and bot.bot_level == "random"


def test_a_seated_player_who_did_not_open_the_table_is_refused(owner, member, member_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    reply = add_bot(member_api, game)
    assert reply.status_code == 403 and "opened the table" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_an_outsider_is_refused(owner, member, outsider_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    assert add_bot(outsider_api, game).status_code == 403
    assert table_snapshot(game) == before


def test_a_level_that_does_not_exist_is_a_bad_request(owner, owner_api):
    game = open_topology(owner)
    before = table_snapshot(game)
    reply = add_bot(owner_api, game, level="grandmaster-of-everything")
    assert reply.status_code == 400 and list(reply.data["fields"]) == ["level"]
    assert table_snapshot(game) == before


def test_a_started_table_has_no_seat_for_a_bot(owner, member, owner_api):
    game = started_topology(owner, member)
    before = table_snapshot(game)
    reply = add_bot(owner_api, game)
    assert reply.status_code == 409 and "no seat is free" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_a_private_table_does_not_exist_for_an_outsider_and_anonymous_must_sign_in(owner, outsider_api):
    game = open_topology(owner, private=True)
    before = table_snapshot(game)
    assert add_bot(outsider_api, game).status_code == 404
    assert add_bot(APIClient(), game).status_code == 401
    assert table_snapshot(game) == before
