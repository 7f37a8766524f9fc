"""Starting and ending a vacation (ruling S4).

While a vacation is under way her deadlines at the tables where it applies (games.selectors.vacation.stops_clocks_at)
are left alone: the sweep skips them and no reminder is sent.  When it ends, each clock that stood still is
moved on by the time it stood still: a deadline D of a clock that ran when she left at S becomes
D + (E - S) at her return E; a clock that started while she was away (D - turn > S) gets a whole turn from E.
Both are `min(D + (E - S), E + turn)`, so no clock start needs remembering.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.personal import local_time
from config.celery import enqueue

from ..errors import BadRequest, Conflict
from ..models import Game, Vacation
from ..selectors import vacation as reads
from .locks import game_locked

User = get_user_model()


def _lock_user(user) -> None:
    """Her starts and ends queue on her own row, so two clicks cannot start two vacations."""
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).exists()


def _days_text(seconds: float) -> str:
    return formats.number_format(round(seconds / reads.DAY, 1), decimal_pos=1)


def vacation_start(*, user, days: int | None = None, now: datetime | None = None) -> Vacation:
    """Start her vacation now, for `days` days or (None) until her allowance runs out."""
    now = now or timezone.now()
    if days is not None and (isinstance(days, bool) or not isinstance(days, int) or days < 1):
        raise BadRequest(
            _(
                "The length of a vacation is a whole number of days, at least 1 (or none: "
                "until your vacation days run out)."
            ),
            field="days",
        )
    with transaction.atomic():
        _lock_user(user)
        if Vacation.objects.filter(user=user, ended_at__isnull=True).exists():
            raise Conflict(_("You are already on vacation."))
        latest = reads.latest_end(user, now)
        if latest <= now:
            raise Conflict(
                _("You have used all %(days)d vacation days of %(year)d; they come back on 1 January.")
                % {"days": reads.allowance().days, "year": reads.year_of(now)}
            )
        # Compared in whole seconds before any date arithmetic: a billion days would overflow a datetime.
        if days is not None and days * 86400 > (latest - now).total_seconds():
            raise BadRequest(
                _(
                    "You have %(left)s vacation days left, so a vacation started now can last until "
                    "%(latest)s at most; ask for fewer days, or give none to use them all."
                )
                % {
                    "left": _days_text((latest - now).total_seconds()),
                    "latest": local_time(latest),
                },
                field="days",
            )
        ends_at = latest if days is None else now + timedelta(days=days)
        try:
            with transaction.atomic():
                vacation = Vacation.objects.create(user=user, started_at=now, ends_at=ends_at)
        except IntegrityError:
            raise Conflict(_("You are already on vacation.")) from None
        _tell_on_commit(vacation, "started")
        for game in _her_tables_locked(user.pk):
            if game.is_running:
                game.save(update_fields=["updated_at"])  # open pages redraw: her opponents see she is away
        return vacation


def _tell_on_commit(vacation: Vacation, event: str) -> None:
    """Her opponents are told, by a task once this commits (a fan-out, never in the request)."""
    vacation_id = vacation.pk
    transaction.on_commit(lambda: enqueue("games.notifications.tasks.vacation_tell", vacation_id, event))


def _her_tables_locked(user_id: int):
    """Her open and running tables, each locked as every write locks it (games.services.locks), in the order of their
    ids so that two players' vacations touching the same tables queue instead of deadlocking."""
    ids = (
        Game.objects.filter(seats__user_id=user_id, status__in=[Game.Status.OPEN, Game.Status.RUNNING])
        .order_by("pk")
        .values_list("pk", flat=True)
        .distinct()
    )
    for game_id in list(ids):
        game = game_locked(game_id)
        if game is not None:
            yield game


def vacation_end(*, user, now: datetime | None = None) -> Vacation:
    """End her vacation now (or at its planned end, if that has passed): her stopped clocks run again."""
    now = now or timezone.now()
    with transaction.atomic():
        _lock_user(user)
        vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
        if vacation is None:
            raise Conflict(_("You are not on vacation."))
        _settle(vacation, max(vacation.started_at, min(now, vacation.ends_at)))
        return vacation


def vacations_end_due(*, now: datetime | None = None, limit: int = 200) -> int:
    """Beat: end the vacations whose planned end has come, each at that planned end; returns how many."""
    now = now or timezone.now()
    ended = 0
    due = list(
        Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now)
        .order_by("ends_at")
        .values_list("user_id", flat=True)[:limit]
    )
    for user_id in due:
        with transaction.atomic():
            _lock_user(User(pk=user_id))
            vacation = (
                Vacation.objects.select_for_update()
                .filter(user_id=user_id, ended_at__isnull=True, ends_at__lte=now)
                .first()
            )
            if vacation is not None:  # not ended meanwhile by her or another beat
                _settle(vacation, vacation.ends_at)
                ended += 1
    return ended


def _settle(vacation: Vacation, end: datetime) -> None:
    """Close the vacation at `end` and move on every clock of hers that stood still (see the module's note).

    A move at one of her tables waits for its lock and then sees the moved deadline.  Open tables are
    included: one starting now holds its lock, and once it has started its first clock is found here like
    any other.
    """
    vacation.ended_at = end
    vacation.save(update_fields=["ended_at"])
    _tell_on_commit(vacation, "ended")  # early by her, or at its planned end by the beat
    stood_still = end - vacation.started_at
    for game in _her_tables_locked(vacation.user_id):
        if not game.is_running:
            continue
        game.save(update_fields=["updated_at"])  # open pages redraw: she is back
        if not reads.stops_clocks_at(game):
            continue
        for seat in game.seats.select_for_update(no_key=True).filter(
            user_id=vacation.user_id, abandoned=False, deadline__isnull=False
        ):
            if seat.index not in game.to_act:
                continue
            turn = timedelta(seconds=game.turn_seconds)
            seat.deadline = min(seat.deadline + stood_still, end + turn)
            seat.save(update_fields=["deadline"])
