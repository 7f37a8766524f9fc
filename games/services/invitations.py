"""Answering an invitation: accept (take a seat) or decline (the invitation goes)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import NotFound
from ..models import Game, Invitation
from . import effects
from .aborting import table_close
from .locks import game_locked
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
    """The invitation goes, and the one who invited her is told (ruling S6).

    A challenge's or a rematch's table, opened for those it invites, is closed by a decline (it ends with no
    result, so it is never offered to the lobby); any other open table's pages refresh (its creator's waiting
    room lists who is invited).  Declining a table that started or closed meanwhile, or where she sits already,
    only takes the invitation away.
    """
    invitation = _hers(user, invitation_id)
    game = game_locked(invitation.game_id)
    if game is not None and game.is_open and not game.seats.filter(user=user).exists():
        closed = game.for_invited
        if closed:
            table_close(game)
        else:
            game.save(update_fields=["updated_at"])  # the stamp the pages and streams compare (feed.selectors)
            effects.table_touched(game.pk)
        invitation.game = game
        effects.after_answer(invitation, accepted=False, closed=closed)
    invitation.delete()
