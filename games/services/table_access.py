"""Who may write to a table: exactly who may see it, and a table one may not see does not exist.

Reads already answer 404 for a private table one does not sit at, is not invited to and has no
code for; writes answer the same, with the same words as a number no table has, so neither the
status nor the message tells that a private table is there.  Table ids stay sequential (they are
in every link and email); the invite code (72 random bits, compared in constant time) is what
guards a private table, never the secrecy of its number.
"""

from __future__ import annotations

import secrets

from django.utils.translation import gettext as _

from .. import selectors
from ..errors import NotFound
from ..models import Game
from .locks import game_locked


def table_not_found(game_id: int) -> NotFound:
    """The one answer for a table that does not exist and for one the user may not see."""
    return NotFound(_("There is no table #%(id)s that you can see.") % {"id": game_id})


def can_see(game: Game, user, invite_code: str = "") -> bool:
    """Public, or hers (seated or invited, games.selectors.visible_games), or opened with its invite code."""
    if selectors.visible_games(user).filter(pk=game.pk).exists():
        return True
    return bool(invite_code) and secrets.compare_digest(str(invite_code), game.invite_code)


def game_lock_for(user, game_id: int, *, invite_code: str = "") -> Game:
    """The game row, locked for a write by `user`; NotFound if there is none that she can see."""
    game = game_locked(game_id)
    if game is None or not can_see(game, user, invite_code):
        raise table_not_found(game_id)
    return game
