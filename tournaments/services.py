"""Every write on tournaments (HackSoftware styleguide: `tournament_<action>`), raising games.errors.

A tournament is started by the beat (`tasks.tournaments_sweep`), never inside a request: at its start
time it is cancelled (too few entrants) or all its tables are dealt at once, through the tables service
like anyone's, under the tournament's row lock and only from "registering", so it never deals twice.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import enqueue
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Pace
from games.services import tables as table_services

from . import notify
from .models import Entrant, Tournament, TournamentTable
from .pairings import MAX_ENTRANTS, tables_for
from .selectors import tournament_standings

log = logging.getLogger(__name__)
User = get_user_model()

# A tournament starts at least this long after it is opened (time to register), and within this many days.
EARLIEST_START = timedelta(minutes=5)
LATEST_START_DAYS = 90
NAME_MAX = 100
# Tournaments one person may have waiting to start at once (abuse: each may deal many tables).
WAITING_PER_ORGANISER = 5


def _locked(tournament_id: int) -> Tournament:
    # NO KEY UPDATE: registering inserts an entrant pointing at the row (games.services.locks says why).
    tournament = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("There is no tournament #%(id)s.") % {"id": tournament_id})
    return tournament


def _check_table(kind: str, players, options: dict | None) -> dict:
    """The tables' game, player count and options, checked as a table's would be (games.services.tables)."""
    engine = table_services.engine_for(kind)
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not max(2, engine.min_players) <= players <= engine.max_players
    ):
        raise BadRequest(
            _("A %(game)s tournament table seats %(min)d to %(max)d players.")
            % {"game": kind, "min": max(2, engine.min_players), "max": engine.max_players},
            field="players",
        )
    return table_services.options_for(engine, players, options, Pace.CORRESPONDENCE)  # its tables: by correspondence


def _check_clock(turn_seconds, time_bank_days) -> None:
    table_services.check_correspondence_clock(turn_seconds)
    table_services.check_time_bank_days(time_bank_days)


def _check_entrants(players: int, minimum, maximum) -> None:
    for value, name in ((minimum, "min_entrants"), (maximum, "max_entrants")):
        if isinstance(value, bool) or not isinstance(value, int) or not players <= value <= MAX_ENTRANTS:
            raise BadRequest(
                _("A tournament at tables of %(players)d takes from %(players)d to %(max)d entrants.")
                % {"players": players, "max": MAX_ENTRANTS},
                field=name,
            )
    if maximum < minimum:
        raise BadRequest(_("The most entrants cannot be fewer than the fewest."), field="max_entrants")


@transaction.atomic
def tournament_create(
    *,
    user,
    name: str,
    kind: str,
    players: int,
    starts_at,
    options: dict | None = None,
    turn_seconds: int = 3 * 86400,
    time_bank_days: int = 0,
    rated: bool = True,
    double: bool = False,
    min_entrants: int | None = None,
    max_entrants: int | None = None,
    join: bool = True,
    now=None,
) -> Tournament:
    """Open a round robin for registration until `starts_at`; the organiser enters it too unless `join` is false."""
    now = now or timezone.now()
    name = " ".join(str(name or "").split())
    if not name or len(name) > NAME_MAX:
        raise BadRequest(_("A tournament needs a name of 1 to %(max)d characters.") % {"max": NAME_MAX}, field="name")
    options = _check_table(kind, players, options)
    _check_clock(turn_seconds, time_bank_days)
    minimum = players if min_entrants is None else min_entrants
    maximum = min(MAX_ENTRANTS, max(minimum, 8)) if max_entrants is None else max_entrants
    _check_entrants(players, minimum, maximum)
    if starts_at is None or starts_at < now + EARLIEST_START or starts_at > now + timedelta(days=LATEST_START_DAYS):
        raise BadRequest(
            _("A tournament starts between %(minutes)d minutes and %(days)d days from now, to leave time to register.")
            % {"minutes": EARLIEST_START.seconds // 60, "days": LATEST_START_DAYS},
            field="starts_at",
        )
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).exists()  # one count at a time per organiser
    if Tournament.objects.filter(organiser=user, status=Tournament.Status.REGISTERING).count() >= WAITING_PER_ORGANISER:
        raise Conflict(
            _("You already have %(n)d tournaments waiting to start; wait until one starts.")
            % {"n": WAITING_PER_ORGANISER}
        )
    tournament = Tournament.objects.create(
        name=name,
        kind=kind,
        players=players,
        options=options,
        turn_seconds=turn_seconds,
        time_bank_days=time_bank_days,
        rated=bool(rated),
        double=bool(double) and players == 2,
        starts_at=starts_at,
        min_entrants=minimum,
        max_entrants=maximum,
        organiser=user,
    )
    if join:
        Entrant.objects.create(tournament=tournament, user=user)
    return tournament


def _open_for_registration(tournament: Tournament, now) -> None:
    if not tournament.is_registering or tournament.starts_at <= now:
        raise Conflict(_("Registration for this tournament is closed: it has started, ended or been cancelled."))


@transaction.atomic
def tournament_register(*, user, tournament_id: int, now=None) -> Entrant:
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    _open_for_registration(tournament, now)
    if tournament.entrants.filter(user=user).exists():
        raise Conflict(_("You are already registered for this tournament."))
    if tournament.entrants.count() >= tournament.max_entrants:
        raise Conflict(_("This tournament is full (%(n)d entrants).") % {"n": tournament.max_entrants})
    return Entrant.objects.create(tournament=tournament, user=user)


@transaction.atomic
def tournament_withdraw(*, user, tournament_id: int, now=None) -> Tournament:
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    _open_for_registration(tournament, now)
    if not tournament.entrants.filter(user=user).delete()[0]:
        raise Conflict(_("You are not registered for this tournament."))
    return tournament


def _organised_by(tournament: Tournament, user) -> None:
    if tournament.organiser_id != user.pk:
        raise Forbidden(_("Only the organiser of this tournament can do that."))
    if not tournament.is_registering:
        raise Conflict(_("This tournament has already started, ended or been cancelled."))


def _after_commit(task_name: str, tournament_id: int) -> None:
    """Hand the rest to a task once committed: the notifications and the dealing never run inside a request."""
    transaction.on_commit(lambda: enqueue(task_name, tournament_id))


@transaction.atomic
def tournament_cancel(*, user, tournament_id: int, now=None) -> Tournament:
    """The organiser calls it off before it starts; the entrants are told by a task after the commit."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    _organised_by(tournament, user)
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    _after_commit("games.tournaments.tasks.tournament_cancelled_tell", tournament.pk)
    return tournament


def tournament_cancelled_tell(*, tournament_id: int) -> int:
    """Tell each entrant of a cancelled tournament, once (the notification's key); returns how many entrants."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Tournament.Status.CANCELLED:
            return 0
        # Not the organiser, who cancelled it herself.
        entrants = list(tournament.entrants.exclude(user=tournament.organiser).select_related("user"))
        notify.cancelled(tournament, entrants)
    return len(entrants)


def tournaments_cancelled_tell_recent(*, now=None, minutes: int = 10) -> int:
    """Beat: tell again (once each: the notifications' keys) the entrants of tournaments cancelled by their
    organiser in the last minutes, in case the task sent at the cancellation was lost."""
    now = now or timezone.now()
    recent = Tournament.objects.filter(
        status=Tournament.Status.CANCELLED,
        started_at__isnull=True,
        finished_at__gte=now - timedelta(minutes=minutes),
        finished_at__lt=F("starts_at"),
    ).values_list("pk", flat=True)
    return sum(tournament_cancelled_tell(tournament_id=pk) for pk in list(recent))


@transaction.atomic
def tournament_start_now(*, user, tournament_id: int, now=None) -> Tournament:
    """The organiser closes registration early (enough have entered): the tables are dealt by a task at once,
    and by the beat's next sweep should that task be lost."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    _organised_by(tournament, user)
    count = tournament.entrants.count()
    if count < tournament.min_entrants:
        raise Conflict(
            _(
                "Only %(n)d of the %(min)d entrants it needs have registered; wait for more, or let it be "
                "cancelled at its start time."
            )
            % {"n": count, "min": tournament.min_entrants}
        )
    tournament.starts_at = now
    tournament.save(update_fields=["starts_at"])
    _after_commit("games.tournaments.tasks.tournament_start", tournament.pk)
    return tournament


def _deal(tournament: Tournament, entrants: list[Entrant]) -> int:
    """Number the entrants at random and open, fill and start every table (the tables service, by keywords)."""
    random.SystemRandom().shuffle(entrants)
    for number, entrant in enumerate(entrants):
        entrant.number = number
        entrant.save(update_fields=["number"])
    tables = tables_for(len(entrants), tournament.players, double=tournament.double)
    for number, seating in enumerate(tables, start=1):
        users = [entrants[i].user for i in seating]
        game = table_services.game_create(
            user=users[0],
            kind=tournament.kind,
            players=tournament.players,
            options=dict(tournament.options),
            pace=Pace.CORRESPONDENCE,
            turn_seconds=tournament.turn_seconds,
            private=False,
            bots=[],
            time_bank_days=tournament.time_bank_days,
            rated=tournament.rated,
        )
        for user in users[1:]:
            # Ruling S7: they all entered this tournament, so a block between two of them does not keep them apart.
            table_services.game_join(user=user, game_id=game.pk, entered_together=True)
        # The organiser opened and deals these tables, not the entrant in seat 0.  Nobody is told of a table's
        # start (the tournament's notice lists them all, notify.started); whoever moves first is told of her turn.
        Game.objects.filter(pk=game.pk).update(created_by=tournament.organiser)
        table_services.game_start(user=tournament.organiser, game_id=game.pk)
        TournamentTable.objects.create(tournament=tournament, game=game, number=number)
    return len(tables)


@transaction.atomic
def tournament_start(*, tournament_id: int, now=None) -> Tournament:
    """At its start time: cancel it with too few entrants, else deal all its tables.  A no-op at any other time."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    if not tournament.is_registering or tournament.starts_at > now:
        return tournament  # not due, or started (or cancelled) already: never twice
    entrants = list(tournament.entrants.select_related("user"))
    if len(entrants) < tournament.min_entrants:
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])
        notify.cancelled(tournament, entrants)
        return tournament
    count = _deal(tournament, entrants)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at"])
    notify.started(tournament, entrants, count)
    return tournament


@transaction.atomic
def tournament_settle(*, tournament_id: int, now=None) -> Tournament:
    """Once every table is finished or aborted: the tournament is finished, with its winner.  Else a no-op."""
    now = now or timezone.now()
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return tournament
    games = Game.objects.filter(tournament_table__tournament=tournament)
    if games.filter(status__in=[Game.Status.OPEN, Game.Status.RUNNING]).exists():
        return tournament
    rows = tournament_standings(tournament)
    # No winner when not one table was played to its end (every one aborted).
    played = games.filter(status=Game.Status.FINISHED).exists()
    tournament.winner_id = rows[0].user_id if rows and played else None
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "winner", "finished_at"])
    notify.finished(tournament, list(tournament.entrants.select_related("user")))
    return tournament


def tournaments_start_due(*, now=None) -> list[int]:
    """Beat: start (or cancel) each tournament whose time has come; one failing does not hold up the others."""
    now = now or timezone.now()
    due = list(
        Tournament.objects.filter(status=Tournament.Status.REGISTERING, starts_at__lte=now)
        .order_by("starts_at")
        .values_list("pk", flat=True)[:50]
    )
    done = []
    for pk in due:
        try:
            tournament_start(tournament_id=pk, now=now)
            done.append(pk)
        except Exception:
            log.exception("tournament %s could not start; the next sweep tries again", pk)
    return done


def tournaments_settle_running(*, now=None) -> list[int]:
    """Beat: finish each running tournament whose tables are all over (the game's signal may have been lost)."""
    running = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .exclude(tables__game__status__in=[Game.Status.OPEN, Game.Status.RUNNING])
        .values_list("pk", flat=True)[:50]
    )
    return [
        pk for pk in list(running) if tournament_settle(tournament_id=pk, now=now).status == Tournament.Status.FINISHED
    ]
