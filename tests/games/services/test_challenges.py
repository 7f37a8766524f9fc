"""games.services.challenges: a challenge opens a table for one named player and invites her, both or neither."""

from __future__ import annotations

import pytest

from games.errors import BadRequest, NotFound
from games.models import Game, Invitation
from games.services.challenges import challenge_create

pytestmark = pytest.mark.django_db


def test_a_challenge_opens_a_table_for_her_alone_and_invites_her(owner, member):
    game = challenge_create(user=owner, username=" Bruno ", kind="topology", players=2)
    assert game.status == Game.Status.OPEN and game.auto_start
    assert list(game.seats.values_list("user_id", flat=True)) == [owner.pk]
    assert list(Invitation.objects.filter(game=game).values_list("user_id", "invited_by_id")) == [(member.pk, owner.pk)]


@pytest.mark.parametrize(
    ("name", "error", "field"), [("nobody", NotFound, "username"), ("ana", BadRequest, "username")]
)
def test_a_challenge_to_nobody_or_to_herself_leaves_nothing_behind(owner, name, error, field):
    with pytest.raises(error) as refused:
        challenge_create(user=owner, username=name, kind="topology")
    assert refused.value.field == field
    assert not Game.objects.exists() and not Invitation.objects.exists()


def test_a_refused_option_opens_no_table_and_sends_no_invitation(owner, member):
    with pytest.raises(BadRequest):
        challenge_create(user=owner, username="bruno", kind="topology", players=3, bots=["random", "random"])
    assert not Game.objects.exists() and not Invitation.objects.exists()
