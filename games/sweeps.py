"""What the beat's sweeps find due: expired deadlines (ruling S1) and bots that should have moved.

Reads only; the tasks in games/tasks.py hand each item to the task that acts on it.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import Game, Seat
from .vacation import away_q


def deadlines_due(*, now=None, limit: int = 500) -> list[tuple[int, int, int]]:
    """(game id, seat, game version) for every seat to act whose deadline has passed, oldest first."""
    now = now or timezone.now()
    # Not the seats of players whose vacation stops their clock (ruling S4): their deadlines wait for their return.
    seats = (
        Seat.objects.filter(deadline__lte=now, game__status=Game.Status.RUNNING)
        .exclude(away_q(now))
        .select_related("game")
        .order_by("deadline")[:limit]
    )
    return [(s.game_id, s.index, s.game.version) for s in seats if s.index in s.game.to_act]


def stalled_bot_games(*, now=None, after_seconds: int = 60) -> list[int]:
    """Running games where a bot should have moved a while ago (its task was lost or failed)."""
    now = now or timezone.now()
    seats = (
        Seat.objects.filter(
            game__status=Game.Status.RUNNING, game__updated_at__lte=now - timedelta(seconds=after_seconds)
        )
        .exclude(user__isnull=False, abandoned=False)
        .select_related("game")
    )
    return sorted({s.game_id for s in seats if s.index in s.game.to_act})
