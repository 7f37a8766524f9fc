"""Per-turn deadlines (ruling S1): a seat's clock starts when it becomes one to decide."""
from __future__ import annotations

from datetime import timedelta

from engine.core import State

from ..models import Game, Pace


def restart_clocks(game: Game, state: State, *, previous_to_act: list[int], now, marker_changed: bool = True,
                   acted: int | None = None) -> None:
    """Start the clock of seats that newly decide (or all to act if a new turn began); stop the others.

    At a live pace everyone acts at once and all the time, so a seat's clock also
    restarts whenever it acts; by correspondence it covers the whole turn.
    """
    to_act = set(state.to_act())
    deadline = now + timedelta(seconds=game.turn_seconds)
    live_restart = game.pace == Pace.LIVE and acted is not None
    for seat in game.seats.all():
        if seat.index in to_act:
            if (marker_changed or seat.index not in previous_to_act or seat.deadline is None
                    or (live_restart and seat.index == acted)):
                # The version at which her turn began names it (ruling S6: one "your turn" per turn, however
                # quickly turns follow each other).
                seat.deadline, seat.turn_began = deadline, game.version
                seat.save(update_fields=["deadline", "turn_began"])
        elif seat.deadline is not None:
            seat.deadline = None
            seat.save(update_fields=["deadline"])
