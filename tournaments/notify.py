"""Telling the entrants that their tournament started, was cancelled or ended.

Called inside the transaction that changed the tournament (in the worker: the beat starts tournaments, a
task settles them), so the notification and its email row commit with the change or not at all; the email
itself leaves after commit (notifications.services).  One notification per event and person (its key).
Each stores the event as data (name, counts, winner), worded when read (notifications.texts, decision 13).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.models import Seat
from notifications.models import NotificationEvent
from notifications.services import notification_create
from notifications.texts import tournament_tables


def tournament_url(tournament) -> str:
    return settings.SITE_URL + reverse("tournament", args=[tournament.pk])


def _tell(tournament, entrants, event: str, facts) -> dict:
    """Each entrant's notice of `event`; the ones made, by entrant's user id."""
    made = {}
    for entrant in entrants:
        params = {"code": "tournament", "tournament": tournament.pk, "name": tournament.name, **facts(entrant)}
        made[entrant.user_id] = notification_create(
            recipient=entrant.user,
            kind=NotificationEvent.TOURNAMENT,
            key=f"tournament:{tournament.pk}:{event}",
            params=params,
        )
    return made


def started(tournament, entrants, tables: int) -> None:
    """One notice (and one email) per entrant, listing her tables and where she moves first (ruling S6).

    Its tables tell no "started" of their own (notifications.events), and this email counts as each of
    her tables' "your turn" email until she visits it (feed.presence): so a first turn there is
    in the site at once but sends no second email, unless she chose no email for tournaments.
    """
    seats = list(
        Seat.objects.filter(game__tournament_table__tournament=tournament, user__isnull=False)
        .select_related("game")
        .defer("game__state")
        .order_by("game__tournament_table__number")
    )

    def facts(entrant):
        mine = [s for s in seats if s.user_id == entrant.user_id]
        listed = tournament_tables([s.game for s in mine], {s.game_id: s.index for s in mine})
        return {"event": "started", "n": len(mine), "tables": listed}

    made = _tell(tournament, entrants, "started", facts)
    mailed = {user_id for user_id, note in made.items() if note is not None and note.deliveries.exists()}
    Seat.objects.filter(pk__in=[s.pk for s in seats if s.user_id in mailed]).update(turn_mailed_at=timezone.now())


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
