"""Between a stored Game and the engine: load the position, build a seat's view.

Everything shown or sent about a running game is built from a seat's view (`State.view`),
never from the raw state (ruling G0.3).
"""

from __future__ import annotations

from engine.core import Game as EngineGame
from engine.core import State, get_game

from ..models import Game


def engine_for(game: Game) -> EngineGame:
    return get_game(game.kind)


def load_state(game: Game) -> State:
    return engine_for(game).load(game.state)


def seat_of(game: Game, user) -> int | None:
    """The seat index of `user` at `game`, or None for a spectator."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def legal_actions_for(game: Game, seat: int | None, state: State | None = None) -> list[dict]:
    if game.state is None or seat is None or game.status != Game.Status.RUNNING:
        return []
    state = state or load_state(game)
    return state.legal_actions(seat)
