"""POST /api/tables/<id>/leave/ (games.services.tables.game_leave): a seated player leaves a table before the deal;
the opener, an outsider, a stranger to a private table, anonymous and anyone after the deal are refused and nothing
changes."""

import pytest
from rest_framework.test import APIClient

from tests.games.factories import assert_refused, open_topology

pytestmark = pytest.mark.django_db


def leave(api, game_id):
    return lambda: api.post(f"/api/tables/{game_id}/leave/")


def test_a_seated_player_leaves_and_her_seat_is_free_again(owner, member, member_api):
    game = open_topology(owner, member)
    reply = leave(member_api, game.pk)()
    assert reply.status_code == 200
    assert reply.data["status"] == "open" and reply.data["my_seat"] is None
    assert list(game.seats.values_list("user__username", flat=True)) == ["ana"]


def test_the_opener_is_told_to_abort_and_an_outsider_that_she_does_not_sit_there(
    owner, member, owner_api, outsider_api
):
    game = open_topology(owner, member)
    assert_refused(game, leave(owner_api, game.pk), 409, "abort it instead")
    assert_refused(game, leave(outsider_api, game.pk), 403, "You do not sit at this table.")
    assert_refused(game, leave(APIClient(), game.pk), 401)


def test_after_the_deal_she_is_told_to_resign(member, game, member_api):
    assert_refused(game, leave(member_api, game.pk), 409, "resign instead")


def test_a_private_table_does_not_exist_for_an_outsider(owner, member, outsider_api):
    game = open_topology(owner, member, private=True)
    assert_refused(game, leave(outsider_api, game.pk), 404, f"There is no table #{game.pk}")
    assert_refused(game, leave(outsider_api, game.pk + 1000), 404, f"There is no table #{game.pk + 1000}")
