"""games.services.invitations: she answers only her own invitations; accepting seats her, declining takes the
invitation away (and closes a table opened for her alone)."""

from __future__ import annotations

import pytest

from games import services
from games.errors import NotFound
from games.models import Game, Invitation
from games.services.invitations import invitation_accept, invitation_decline

pytestmark = pytest.mark.django_db


def invited(owner, member, players: int = 3) -> tuple[Game, Invitation]:
    game = services.game_create(user=owner, kind="topology", players=players)
    return game, services.game_invite(user=owner, game_id=game.pk, username=member.username)


def test_accepting_seats_her_at_the_table(owner, member):
    game, invitation = invited(owner, member)
    invitation_accept(user=member, invitation_id=invitation.pk)
    assert set(game.seats.values_list("user_id", flat=True)) == {owner.pk, member.pk}


def test_another_persons_invitation_is_not_found_to_her_and_stays(owner, member, outsider):
    game, invitation = invited(owner, member)
    with pytest.raises(NotFound):
        invitation_accept(user=outsider, invitation_id=invitation.pk)
    with pytest.raises(NotFound):
        invitation_decline(user=outsider, invitation_id=invitation.pk)
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    assert list(game.seats.values_list("user_id", flat=True)) == [owner.pk]


def test_declining_an_ordinary_invitation_takes_it_away_and_leaves_the_table_open(owner, member):
    game, invitation = invited(owner, member)
    invitation_decline(user=member, invitation_id=invitation.pk)
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
