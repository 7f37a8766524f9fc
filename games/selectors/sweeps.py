"""What the beat's sweeps find due: expired deadlines (ruling S1), bots that should have moved, and games whose
effects (games.models.GameEffects) were never dispatched.

Reads only; the tasks in games/tasks.py hand each item to the task that acts on it.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from ..models import Action, Game, Seat
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


def games_behind(*, now=None, settle_seconds: int = 10, window_days: int = 2, limit: int = 200) -> list[int]:
    """Games changed a while ago whose effects were never dispatched (the sweep re-runs them).

    A game whose log has grown since its cursor only by decisions still private to their player (or taken
    back) is not behind: those send no dispatch (ruling S3, games.services.effects.after_private_decision),
    and her confirmation, which makes them public, sends the one that tells them.
    """
    now = now or timezone.now()
    public_since = Action.objects.filter(
        game=OuterRef("pk"), seq__gt=OuterRef("effects__version"), visibility=Action.Visibility.PUBLIC
    )
    rows = (
        Game.objects.filter(
            status__in=[Game.Status.RUNNING, Game.Status.FINISHED, Game.Status.ABORTED],
            updated_at__lte=now - timedelta(seconds=settle_seconds),
            updated_at__gte=now - timedelta(days=window_days),
        )
        .filter(
            Q(effects__isnull=True)
            | ~Q(effects__status=F("status"))
            | (~Q(effects__version=F("version")) & Exists(public_since))
        )
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )
    return list(rows)
