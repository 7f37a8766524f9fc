"""A rematch: a new table like a finished one, opened by one of its players."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from engine.core import get_game

from ..errors import Conflict, Forbidden
from ..models import Game
from .table_access import game_lock_for
from .tables import game_create, game_invite


@transaction.atomic
def game_rematch(*, user, game_id: int, client_address: str = "") -> Game:
    """Open a table with the finished game's kind, options, pace, clock, time bank, privacy, auto start and player
    count: the asker in seat 0, its bots seated again at their levels, its other people invited (each invitation is
    limited as any other; a refusal undoes the whole rematch, so a retry later finds nothing half made)."""
    old = game_lock_for(user, game_id)
    seats = list(old.seats.order_by("index"))
    if not any(s.user_id == user.pk for s in seats):
        raise Forbidden(_("Only players of this game can ask for a rematch."))
    if old.status != Game.Status.FINISHED:
        raise Conflict(_("A rematch can be asked only once the game is finished."))
    options = get_game(old.kind).options_chosen(old.options)  # game_create fills the pace in again
    new = game_create(
        user=user,
        kind=old.kind,
        players=old.players,
        options=options,
        pace=old.pace,
        turn_seconds=old.turn_seconds,
        private=old.private,
        time_bank_days=old.time_bank_days,
        rated=old.rated,
        auto_start=old.auto_start,
        bots=[s.bot_level for s in seats if s.user_id is None and s.bot_level],
        for_invited=True,  # opened for its players: a decline closes it (games.services.invitations)
    )
    for seat in seats:
        if seat.user_id is not None and seat.user_id != user.pk:
            game_invite(user=user, game_id=new.pk, username=seat.user.username, client_address=client_address)
    return new
