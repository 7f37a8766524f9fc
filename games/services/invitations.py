"""Answering an invitation: accept (take a seat) or decline (the invitation goes)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import NotFound
from ..models import Game, Invitation
from .tables import game_join


def _hers(user, invitation_id: int) -> Invitation:
    invitation = Invitation.objects.filter(pk=invitation_id, user=user).select_related("game").first()
    if invitation is None:  # another's invitation is not hers to see
        raise NotFound(_("You have no invitation %(id)d; list yours at /api/invitations/.") % {"id": invitation_id})
    return invitation


@transaction.atomic
def invitation_accept(*, user, invitation_id: int) -> Game:
    """Take a free seat at the table she is invited to (games.services.game_join: 409 if it started or is full)."""
    return game_join(user=user, game_id=_hers(user, invitation_id).game_id)


@transaction.atomic
def invitation_decline(*, user, invitation_id: int) -> None:
    _hers(user, invitation_id).delete()
