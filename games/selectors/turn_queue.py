"""Her turn queue (decision 29, point 2): every table waiting for her, the soonest deadline first, each labelled.

Built on the urgency order of her tables (games.selectors.tables_of_user_by_urgency, the home page's "your games"
and GET /api/tables/mine/): its first group, the tables where her seat is to decide, in its order (a clock her
vacation stops comes after every running one).  Each gets its label from her seat's view (games.selectors.turn_labels)
and
the time left on her clock.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from engine.core import get_game

from ..engine_texts import game_title
from .positions import seat_of
from .tables import MY_TURN, NO_DEADLINE, tables_of_user_by_urgency
from .turn_labels import label_words, turn_label

TURNS_MAX = 200


def tables_waiting(user, *, now=None):
    """Her tables waiting for her, in the urgency order (a queryset: the API pages it by cursor, UrgencyPages)."""
    return tables_of_user_by_urgency(user=user, finished=False, now=now).filter(urgency=MY_TURN)


def turns_waiting(user, *, now=None) -> list[dict]:
    """The page's queue: the first TURNS_MAX tables waiting for her, labelled."""
    now = now or timezone.now()
    return turn_rows(tables_waiting(user, now=now)[:TURNS_MAX], user, now=now)


def turn_rows(games, user, *, now=None) -> list[dict]:
    """Each of `games` (read by tables_waiting) with its label and the time left on her clock."""
    now = now or timezone.now()
    out = []
    for game in games:
        seat = seat_of(game, user)
        if seat is None or seat not in (game.to_act or []):
            continue
        label = turn_label(game, seat)
        running = game.due != NO_DEADLINE
        out.append(
            {
                "table": game.pk,
                "game": game.kind,
                "title": f"{game_title(get_game(game.kind).title)} #{game.pk}",
                "seat": seat,
                "version": game.version,
                "label": label["label"],
                "label_words": label_words(label["label"]),
                "choices": label["choices"],
                "deadline": game.due.isoformat() if running else None,
                "seconds_left": max(int((game.due - now).total_seconds()), 0) if running else None,
                "clock_stopped": not running,
                "url": reverse("table", args=[game.pk]),
            }
        )
    return out
