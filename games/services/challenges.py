"""A challenge (decision 17): a new table with chosen options and a named player invited to it, in one write.

The challenged player (a person or a bot account) answers through her invitations (games.services.invitations):
accepting takes the free seat and, as challenge tables start by themselves (`auto_start`), deals the game when it
fills the table.  She is told through the usual invitation path (notification, email by her choice, feed event).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import BadRequest, NotFound
from ..models import Game
from .blocks import refuse_if_blocked
from .tables import game_create, game_invite

User = get_user_model()


@transaction.atomic
def challenge_create(
    *, user, username: str, kind: str, players: int = 2, client_address: str = "", auto_start: bool = True, **table
) -> Game:
    """Open a table (game_create's arguments in `table`) and invite `username`; either both happen or neither (an
    unknown player, a rate limit on invitations or a refused option leaves nothing behind)."""
    name = (username or "").strip()
    # A name of spaces only names nobody (404), as for an invitation (games.services.tables.game_invite).
    opponent = User.objects.filter(username__iexact=name, is_active=True).first() if name else None
    if opponent is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": repr(name)}, field="username")
    if opponent.pk == user.pk:
        raise BadRequest(_("You cannot challenge yourself; write another player's name."), field="username")
    # Ruling S7: refused before any table is opened, in the same words whichever of the two blocked.
    refuse_if_blocked(
        user, [opponent], _("It is not possible to challenge %(name)s.") % {"name": opponent.username}, field="username"
    )
    if players < 2 or len(table.get("bots") or []) > players - 2:
        raise BadRequest(
            _("A challenge needs a free seat for %(name)s: choose more players or fewer bots.")
            % {"name": opponent.username},
            field="players",
        )
    # Opened for the one challenged: her decline closes it (games.services.invitations).
    game = game_create(user=user, kind=kind, players=players, auto_start=auto_start, for_invited=True, **table)
    game_invite(user=user, game_id=game.pk, username=opponent.username, client_address=client_address)
    return game
