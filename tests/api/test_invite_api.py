"""POST /api/tables/<id>/invite/ (games.services.tables.game_invite): a seated player invites someone by name, who
then sees the private table; an outsider, a name nobody has, someone already seated and a started table are
refused and nothing changes."""
import pytest
from rest_framework.test import APIClient

from accounts.services import user_create
from games.models import Invitation
from tests.conftest import api_client_for
from tests.games.factories import open_topology, started_topology, table_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(db):
    return user_create(username="dana", email="dana@example.com", password="a-long-test-password")


def invite(api, game, username):
    return api.post(f"/api/tables/{game.pk}/invite/", {"username": username}, format="json")


def test_a_seated_player_invites_and_the_invited_player_sees_the_private_table(owner, member, member_api, dana):
    game = open_topology(owner, member, private=True)
    dana_api = api_client_for(dana)
    assert dana_api.get(f"/api/tables/{game.pk}/").status_code == 404
    reply = invite(member_api, game, "  DANA ")  # looked up without case or surrounding spaces
    assert reply.status_code == 200
    invitation = Invitation.objects.get(game=game)
    assert invitation.user == dana and invitation.invited_by == member
    assert dana_api.get(f"/api/tables/{game.pk}/").status_code == 200


def test_inviting_twice_makes_one_invitation(owner, owner_api, dana):
    game = open_topology(owner)
    assert invite(owner_api, game, "dana").status_code == 200
    assert invite(owner_api, game, "dana").status_code == 200
    assert Invitation.objects.filter(game=game).count() == 1


def test_an_outsider_cannot_invite(owner, member, outsider_api, dana):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    reply = invite(outsider_api, game, "dana")
    assert reply.status_code == 403 and "Only players at this table" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_a_name_nobody_has_is_not_found_and_a_seated_player_is_a_conflict(owner, member, owner_api):
    game = open_topology(owner, member)
    before = table_snapshot(game)
    missing = invite(owner_api, game, "nobody-by-that-name")
    assert missing.status_code == 404 and "There is no player called 'nobody-by-that-name'" in missing.data["detail"]
    seated = invite(owner_api, game, "bruno")
    assert seated.status_code == 409 and seated.data["detail"] == "bruno already sits at this table."
    assert invite(owner_api, game, "").status_code == 400
    assert table_snapshot(game) == before


def test_a_started_game_takes_no_invitations(owner, member, owner_api, dana):
    game = started_topology(owner, member)
    before = table_snapshot(game)
    reply = invite(owner_api, game, "dana")
    assert reply.status_code == 409 and "nobody can join it now" in reply.data["detail"]
    assert table_snapshot(game) == before


def test_a_private_table_does_not_exist_for_an_outsider_and_anonymous_must_sign_in(owner, outsider_api, dana):
    game = open_topology(owner, private=True)
    before = table_snapshot(game)
    assert invite(outsider_api, game, "dana").status_code == 404
    assert invite(APIClient(), game, "dana").status_code == 401
    assert table_snapshot(game) == before
