"""Telling the entrants that their tournament started, was cancelled or ended.

Called inside the transaction that changed the tournament (in the worker: the beat starts tournaments, a
task settles them), so the notification and its email row commit with the change or not at all; the email
itself leaves after commit (games.notifications.services).  One notification per event and person (its key).
"""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import NotificationEvent
from accounts.personal import her_words

from ..notifications.services import notification_create


def tournament_url(tournament) -> str:
    return settings.SITE_URL + reverse("tournament", args=[tournament.pk])


def _tell(tournament, entrants, event: str, words) -> None:
    for entrant in entrants:
        with her_words(entrant.user):
            text = words(entrant)
        notification_create(recipient=entrant.user, kind=NotificationEvent.TOURNAMENT,
                            key=f"tournament:{tournament.pk}:{event}", text=text)


def started(tournament, entrants, tables: int) -> None:
    def words(entrant):
        mine = sum(1 for t in tournament.tables.filter(game__seats__user=entrant.user))
        return ngettext("The tournament “%(name)s” has started: you play %(n)d game, already dealt. %(url)s",
                        "The tournament “%(name)s” has started: you play %(n)d games, all already dealt. %(url)s",
                        mine) % {"name": tournament.name, "n": mine, "url": tournament_url(tournament)}
    _tell(tournament, entrants, "started", words)


def cancelled(tournament, entrants) -> None:
    def words(entrant):
        if tournament.starts_at > tournament.finished_at:  # called off before its time: by its organiser
            return _("The tournament “%(name)s” was cancelled by its organiser. %(url)s") % {
                "name": tournament.name, "url": tournament_url(tournament)}
        return ngettext("The tournament “%(name)s” was cancelled: it needed at least %(n)d entrant. %(url)s",
                        "The tournament “%(name)s” was cancelled: it needed at least %(n)d entrants. %(url)s",
                        tournament.min_entrants) % {"name": tournament.name, "n": tournament.min_entrants,
                                                    "url": tournament_url(tournament)}
    _tell(tournament, entrants, "cancelled", words)


def finished(tournament, entrants) -> None:
    def words(entrant):
        if tournament.winner_id is None:
            return _("The tournament “%(name)s” is over, without a winner: no game was played to its end. "
                     "%(url)s") % {"name": tournament.name, "url": tournament_url(tournament)}
        return _("The tournament “%(name)s” is over. Winner: %(winner)s. %(url)s") % {
            "name": tournament.name, "winner": tournament.winner.username, "url": tournament_url(tournament)}
    _tell(tournament, entrants, "finished", words)
