"""POST /api/tables/<id>/bots/ (games.services.tables.game_add_bot): the opener seats a bot, which makes the table
unrated (ruling S5); a seated player who did not open it, an outsider, anonymous, a bad level and a started table
are refused and nothing changes."""

import pytest
from rest_framework.test import APIClient

from tests.games.factories import assert_refused, open_topology

pytestmark = pytest.mark.django_db


def add_bot(api, game, level="random"):
    return lambda: api.post(f"/api/tables/{game.pk}/bots/", {"level": level}, format="json")


def test_the_opener_seats_a_bot_and_the_table_is_no_longer_rated(owner, member, owner_api):
    game = open_topology(owner, member)
    assert game.rated
    reply = add_bot(owner_api, game)()
    assert reply.status_code == 200 and reply.data["rated"] is False
    bot = game.seats.get(index=2)
    assert bot.user is None and bot.bot_level == "random"


def test_only_the_opener_seats_bots(owner, member, member_api, outsider_api):
    game = open_topology(owner, member)
    assert_refused(game, add_bot(member_api, game), 403, "Only the player who opened the table can seat bots.")
    assert_refused(game, add_bot(outsider_api, game), 403, "Only the player who opened the table can seat bots.")
    assert_refused(game, add_bot(APIClient(), game), 401)


def test_a_level_that_does_not_exist_is_a_bad_request(owner, owner_api):
    game = open_topology(owner)
    send = add_bot(owner_api, game, level="grandmaster-of-everything")
    assert_refused(game, send, 400, "Some fields are not valid.")
    assert list(send().data["fields"]) == ["level"]


def test_a_started_table_has_no_seat_for_a_bot(game, owner_api):
    assert_refused(game, add_bot(owner_api, game), 409, "no seat is free")


def test_a_private_table_does_not_exist_for_an_outsider(owner, outsider_api):
    game = open_topology(owner, private=True)
    assert_refused(game, add_bot(outsider_api, game), 404, f"There is no table #{game.pk}")
