"""Telling the entrants that their tournament started, was cancelled or ended.

Called inside the transaction that changed the tournament (in the worker: the beat starts tournaments, a
task settles them), so the notification and its email row commit with the change or not at all; the email
itself leaves after commit (games.notifications.services).  One notification per event and person (its key).
Each stores the event as data (name, counts, winner), worded when read (games.notifications.texts, issue 13).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from games.notifications.models import NotificationEvent

from ..notifications.services import notification_create


def tournament_url(tournament) -> str:
    return settings.SITE_URL + reverse("tournament", args=[tournament.pk])


def _tell(tournament, entrants, event: str, facts) -> None:
    for entrant in entrants:
        params = {"code": "tournament", "tournament": tournament.pk, "name": tournament.name, **facts(entrant)}
        notification_create(
            recipient=entrant.user,
            kind=NotificationEvent.TOURNAMENT,
            key=f"tournament:{tournament.pk}:{event}",
            params=params,
        )


def started(tournament, entrants, tables: int) -> None:
    def facts(entrant):
        mine = sum(1 for t in tournament.tables.filter(game__seats__user=entrant.user))
        return {"event": "started", "n": mine}

    _tell(tournament, entrants, "started", facts)


def cancelled(tournament, entrants) -> None:
    def facts(entrant):
        if tournament.starts_at > tournament.finished_at:  # called off before its time: by its organiser
            return {"event": "cancelled_by_organiser"}
        return {"event": "cancelled", "n": tournament.min_entrants}

    _tell(tournament, entrants, "cancelled", facts)


def finished(tournament, entrants) -> None:
    def facts(entrant):
        if tournament.winner_id is None:
            return {"event": "finished_without_winner"}
        return {"event": "finished", "winner": tournament.winner.username}

    _tell(tournament, entrants, "finished", facts)
