"""POST /api/tables/<id>/invite/ (games.services.tables.game_invite): a seated player invites someone by name, who
then sees the private table; an outsider, anonymous, a name nobody has, someone already seated and a started table
are refused and nothing changes."""

import pytest
from rest_framework.test import APIClient

from accounts.services import user_create
from games.models import Invitation
from tests.conftest import api_client_for
from tests.games.factories import assert_refused, open_topology

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(db):
    return user_create(username="dana", email="dana@example.com", password="a-long-test-password")


def invite(api, game, username="dana"):
    return lambda: api.post(f"/api/tables/{game.pk}/invite/", {"username": username}, format="json")


def test_a_seated_player_invites_and_the_invited_player_sees_the_private_table(owner, member, member_api, dana):
    game = open_topology(owner, member, private=True)
    dana_api = api_client_for(dana)
    assert dana_api.get(f"/api/tables/{game.pk}/").status_code == 404
    assert invite(member_api, game, "  DANA ")().status_code == 200  # found without case or surrounding spaces
    invitation = Invitation.objects.get(game=game)
    assert invitation.user == dana and invitation.invited_by == member
    assert dana_api.get(f"/api/tables/{game.pk}/").status_code == 200


def test_inviting_twice_makes_one_invitation(owner, owner_api, dana):
    game = open_topology(owner)
    assert invite(owner_api, game)().status_code == 200
    assert invite(owner_api, game)().status_code == 200
    assert Invitation.objects.filter(game=game).count() == 1


def test_an_outsider_and_anonymous_cannot_invite(owner, member, outsider_api, dana):
    game = open_topology(owner, member)
    assert_refused(game, invite(outsider_api, game), 403, "Only players at this table can invite others.")
    assert_refused(game, invite(APIClient(), game), 401)


def test_a_name_nobody_has_a_seated_player_and_an_empty_name_are_refused(owner, member, owner_api):
    game = open_topology(owner, member)
    assert_refused(
        game, invite(owner_api, game, "nobody-by-that-name"), 404, "There is no player called 'nobody-by-that-name'."
    )
    assert_refused(game, invite(owner_api, game, "bruno"), 409, "bruno already sits at this table.")
    assert_refused(game, invite(owner_api, game, ""), 400)


def test_a_started_game_takes_no_invitations(game, owner_api, dana):
    assert_refused(game, invite(owner_api, game), 409, "nobody can join it now")


def test_a_private_table_does_not_exist_for_an_outsider(owner, outsider_api, dana):
    game = open_topology(owner, private=True)
    assert_refused(game, invite(outsider_api, game), 404, f"There is no table #{game.pk}")
