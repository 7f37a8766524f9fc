"""Aborting: closing a table or a game so that it ends with no result.

Starting deals hidden information to every seat at once (a Toppo deck and line, Topoum hands and
crates, Topology's stack and the tiles it reveals), so a game cannot be aborted by one player once
running: that would be a free new deal for whoever disliked what she saw.  The rule (issue 14):

- a table that has not started: its creator closes it;
- a running game with one person among bots: she may abort it while nothing at all is logged
  (no move of hers, of a bot, nor a missed deadline); bots lose nothing by a new deal and a table
  with a bot is never rated (ruling S5).  After that she resigns;
- a running game with two or more persons still playing: it is aborted when every one of them has
  agreed while the game stands at the same version.  An agreement lapses with the next action, so
  nobody is held to a yes given about an earlier position.  Otherwise, resign.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import Conflict, Forbidden, NotFound
from ..locks import game_locked
from ..models import Game, Seat
from ..selectors import may_abort_alone, persons_playing
from . import effects
from .table_access import game_lock_for


def _playing_seat(game: Game, user) -> Seat:
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden(_("You do not play at this table."))
    if seat.abandoned:
        raise Conflict(_("You have already left this game."))
    return seat


def _refusal(persons: list[Seat]) -> Conflict:
    if len(persons) < 2:
        return Conflict(_("Moves have been made: resign instead of aborting."))
    return Conflict(
        _(
            "Everyone has seen their own hidden cards or tiles since the deal: the game is aborted only "
            "if every player still in it agrees to abort it. Agree to abort, or resign."
        )
    )


def _abort(game: Game) -> Game:
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.to_act = []
    game.save(update_fields=["status", "finished_at", "to_act", "updated_at"])
    game.seats.update(deadline=None, abort_agreed_version=None)
    effects.table_touched(game.pk)
    return game


@transaction.atomic
def game_abort(*, user, game_id: int) -> Game:
    """Close a table that has not started (its creator), or a running game she may abort alone."""
    game = game_lock_for(user, game_id)
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("This game is already over."))
    if game.is_open:
        if game.created_by_id != user.pk:
            raise Forbidden(_("Only the player who opened the table can abort it."))
        return _abort(game)
    _playing_seat(game, user)
    persons = persons_playing(game)
    if not may_abort_alone(game, persons):
        raise _refusal(persons)
    return _abort(game)


@transaction.atomic
def game_abort_agree(*, user, game_id: int, agree: bool = True) -> Game:
    """Agree (or take back her agreement) to abort a running game; the last agreement needed aborts it."""
    game = game_lock_for(user, game_id)
    if not game.is_running:
        raise Conflict(_("Only a running game can be aborted by agreement."))
    seat = _playing_seat(game, user)
    persons = persons_playing(game)
    if len(persons) < 2:
        if agree and may_abort_alone(game, persons):
            return _abort(game)
        raise _refusal(persons)
    seat.abort_agreed_version = game.version if agree else None
    seat.save(update_fields=["abort_agreed_version"])
    agreed = {s.index for s in persons if s.abort_agreed_version == game.version} | ({seat.index} if agree else set())
    if agree and agreed >= {s.index for s in persons}:
        return _abort(game)
    game.save(update_fields=["updated_at"])  # the others' open pages show the agreement at their next poll
    return game


@transaction.atomic
def game_abort_by_staff(*, user, game_id: int) -> Game:
    """A moderator ends an open table or a running game with no result (the Django admin's "abort", issue 17),
    whatever the players agreed: the same effects as any abort (the table's streams and pages learn of it; an aborted
    game is never rated)."""
    if not (user.is_active and user.is_staff):
        raise Forbidden(_("Only the site's staff can abort another player's game."))
    game = game_locked(game_id)
    if game is None:
        raise NotFound(_("There is no table #%(id)s.") % {"id": game_id})
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("This game is already over."))
    return _abort(game)
