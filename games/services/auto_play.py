"""Her forced decisions played for her, by her own option (decision 29, point 2; User.auto_play_forced).

Only where the decision is forced (games.selectors.turn_labels.forced_action: one legal decision, nothing of the turn
she could still take back), never where a choice exists.  It runs in the worker, after the effects dispatch of the move
that gave her the decision (games.tasks.auto_play_forced), and takes the same path as her own move: it locks the
game, checks the version the decision was found at and that the seat is still hers to decide and not left
(ruling S1), and applies through `moves.apply_action`, logged as hers (`Action.user`) with source "auto".  A stale
task (the game moved on, she played herself, she turned the option off) does nothing.
"""

from __future__ import annotations

from django.db import transaction

from ..models import Action, Game
from ..selectors.positions import load_state
from ..selectors.turn_labels import forced_action
from .locks import game_locked, seat_locked
from .moves import apply_action


def auto_seats(game: Game, seats) -> list[int]:
    """The seats to decide at `game` whose person asked for her forced decisions to be played (the dispatch
    then sends a task for each; the task itself checks that the decision is forced)."""
    if game.status != Game.Status.RUNNING:
        return []
    return [
        s.index
        for s in seats
        if s.index in (game.to_act or []) and s.user_id is not None and not s.abandoned and s.user.auto_play_forced
    ]


def forced_decision_play(*, game_id: int, seat: int, version: int) -> Action | None:
    """Play `seat`'s forced decision at `game_id` if the game is still at `version` and it is still forced."""
    with transaction.atomic():
        game = game_locked(game_id)
        if game is None or game.version != version or not game.is_running or seat not in game.to_act:
            return None
        seat_row = seat_locked(game, seat)
        user = seat_row.user if seat_row.user_id is not None else None
        if user is None or seat_row.abandoned or not user.auto_play_forced or user.deleted_at is not None:
            return None
        action = forced_action(load_state(game), seat)
        if action is None:
            return None  # a choice exists: hers to make
        logged, _state = apply_action(game, seat_row, action, user=user, source=Action.Source.AUTO)
        return logged
