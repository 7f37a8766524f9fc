"""Per-turn deadlines (ruling S1): a seat's clock starts when it becomes one to decide."""
from __future__ import annotations

from datetime import timedelta

from engine.core import State

from ..models import Game


def restart_clocks(game: Game, state: State, *, previous_to_act: list[int], now, marker_changed: bool = True) -> None:
    """Start the clock of seats that newly decide (or all to act if a new turn began); stop the others."""
    to_act = set(state.to_act())
    deadline = now + timedelta(seconds=game.turn_seconds)
    for seat in game.seats.all():
        if seat.index in to_act:
            if marker_changed or seat.index not in previous_to_act or seat.deadline is None:
                seat.deadline = deadline
                seat.save(update_fields=["deadline"])
        elif seat.deadline is not None:
            seat.deadline = None
            seat.save(update_fields=["deadline"])
