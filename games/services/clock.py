"""Per-turn deadlines (ruling S1): a seat's clock starts when it becomes one to decide.

A table may give each seat a time bank (ruling S4).  When a turn's deadline passes and the seat
still has some, `time_bank_draw` adds the whole bank to the deadline and remembers the deadline that
passed; when the seat's clock next stops or restarts, `time_bank_settle` takes off the bank what was
used since then.  Only once the extended deadline passes too is the deadline missed.
"""

from __future__ import annotations

from datetime import timedelta

from engine.core import State

from ..models import Game, Pace, Seat
from .move_rows import seats_clock_update


def time_bank_settle(seat: Seat, now) -> list[str]:
    """Take what the seat used of its bank off it, if it was drawing on it; the fields changed."""
    if seat.bank_drawn_from is None:
        return []
    used = int(min(max((now - seat.bank_drawn_from).total_seconds(), 0), seat.bank_seconds))
    seat.bank_seconds -= used
    seat.bank_drawn_from = None
    return ["bank_seconds", "bank_drawn_from"]


def time_bank_draw(seat: Seat) -> bool:
    """At a passed deadline: extend it by the whole bank left, if any and not already drawn; True if it did."""
    if seat.bank_drawn_from is not None or seat.bank_seconds <= 0 or seat.deadline is None:
        return False
    seat.bank_drawn_from = seat.deadline
    seat.deadline = seat.deadline + timedelta(seconds=seat.bank_seconds)
    seat.save(update_fields=["deadline", "bank_drawn_from"])
    return True


def restart_clocks(
    game: Game, state: State, *, previous_to_act: list[int], now, marker_changed: bool = True, acted: int | None = None
) -> None:
    """Start the clock of seats that newly decide (or all to act if a new turn began); stop the others.

    At a live pace everyone acts at once and all the time, so a seat's clock also
    restarts whenever it acts; by correspondence it covers the whole turn.
    """
    to_act = set(state.to_act())
    deadline = now + timedelta(seconds=game.turn_seconds)
    live_restart = game.pace == Pace.LIVE and acted is not None
    changed: list[Seat] = []
    fields = {"deadline"}
    for seat in game.seats.all():
        if seat.index in to_act:
            if (
                marker_changed
                or seat.index not in previous_to_act
                or seat.deadline is None
                or (live_restart and seat.index == acted)
            ):
                # The version at which her turn began names it (ruling S6: one "your turn" per turn, however
                # quickly turns follow each other).
                seat.deadline, seat.turn_began = deadline, game.version
                fields.update(["turn_began", *time_bank_settle(seat, now)])
                changed.append(seat)
        elif seat.deadline is not None:
            seat.deadline = None
            fields.update(time_bank_settle(seat, now))
            changed.append(seat)
    if changed:
        # One statement for every seat whose clock changed (decision 16), not one per seat, and only the columns
        # that changed in one of them: each is a CASE over the seats to build (the banks' rarely).
        seats_clock_update(changed, sorted(fields))  # as Seat.objects.bulk_update, without the ORM's cost (decision 28)
