"""Pace profiles (decision 29, point 5): how fast and how reliably a person plays, read from the action log.

Definitions (docs/pace.md):

- a *reply* is one turn of hers: the time from the row that passed the decision to her seat (the row before, by
  another seat, or the deal) to her first own decision after it (source "player" or "auto"); replies are kept
  apart per pace, and each pace's median is the profile's figure;
- a *missed deadline* is a turn the site's bot played for her (rows of source "timeout", one per deadline,
  ruling S1); her share of missed deadlines is missed / (replies + missed);
- a *finished* game is one that ended with a result while she was still playing; a *left* one she resigned or
  abandoned (ruling S1), aborted games included.  Her share finished is finished / (finished + left).

Reading a whole log is not for every page view: the figures are kept in `PaceProfile` (one row a person), read
as they are by the lobby's filter and computed again when older than `STALE` (her page, the API, the hourly beat
task for people who played since).  Only her last `GAMES_READ` games are read.
"""

from __future__ import annotations

import statistics
from datetime import timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from ..models import Action, Game, Pace, PaceProfile, Seat

STALE = timedelta(hours=1)
GAMES_READ = 200
OWN = (Action.Source.PLAYER, Action.Source.AUTO)
# The lobby's choices for "opponents who usually reply within ...": seconds (decision 29).
REPLY_WITHIN = {"hour": 3600, "day": 86400, "3days": 3 * 86400}


def _measure(user) -> dict:
    seats = list(
        Seat.objects.filter(user=user, game__started_at__isnull=False)
        .select_related("game")
        .order_by("-game__started_at")[:GAMES_READ]
    )
    replies: dict[str, list[float]] = {Pace.CORRESPONDENCE: [], Pace.LIVE: []}
    missed_turns: set[tuple[int, int]] = set()
    by_game = {s.game_id: s for s in seats}
    rows = (
        Action.objects.filter(game_id__in=list(by_game))
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "seat", "source", "created_at", "missed_turn")
    )
    previous = None  # (game_id, seat, created_at) of the row before
    for game_id, seq, seat, source, created_at, missed_turn in rows.iterator(chunk_size=2000):
        mine = by_game[game_id]
        if seat == mine.index:
            if source in OWN:
                passed = previous is None or previous[0] != game_id or previous[1] != seat
                if passed:
                    since = previous[2] if previous is not None and previous[0] == game_id else mine.game.started_at
                    replies[mine.game.pace].append(max((created_at - since).total_seconds(), 0.0))
            elif source == Action.Source.TIMEOUT:
                missed_turns.add((game_id, missed_turn if missed_turn is not None else seq))
        previous = (game_id, seat, created_at)
    ended = [s for s in seats if s.game.status in (Game.Status.FINISHED, Game.Status.ABORTED)]
    finished = sum(1 for s in ended if s.game.status == Game.Status.FINISHED and not s.abandoned)
    left = sum(1 for s in ended if s.abandoned)

    def median(values):
        return int(statistics.median(values)) if values else None

    return {
        "reply_median_correspondence": median(replies[Pace.CORRESPONDENCE]),
        "reply_median_live": median(replies[Pace.LIVE]),
        "replies_correspondence": len(replies[Pace.CORRESPONDENCE]),
        "replies_live": len(replies[Pace.LIVE]),
        "turns": len(replies[Pace.CORRESPONDENCE]) + len(replies[Pace.LIVE]) + len(missed_turns),
        "missed": len(missed_turns),
        "finished": finished,
        "left": left,
    }


def pace_profile_refresh(user) -> PaceProfile:
    """Read her log again and keep the figures."""
    figures = _measure(user)
    profile, _ = PaceProfile.objects.update_or_create(user=user, defaults={**figures, "computed_at": timezone.now()})
    return profile


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def pace_of(user, *, refresh: bool = False) -> dict:
    """Her profile as the page and the API show it; computed again when missing or stale (or `refresh`)."""
    profile = PaceProfile.objects.filter(user=user).first()
    if refresh or profile is None or profile.computed_at < timezone.now() - STALE:
        profile = pace_profile_refresh(user)
    return {
        "reply_median_seconds": {
            Pace.CORRESPONDENCE: profile.reply_median_correspondence,
            Pace.LIVE: profile.reply_median_live,
        },
        "replies": {Pace.CORRESPONDENCE: profile.replies_correspondence, Pace.LIVE: profile.replies_live},
        "turns": profile.turns,
        "missed_deadlines": profile.missed,
        "missed_share": _share(profile.missed, profile.turns),
        "games_finished": profile.finished,
        "games_left": profile.left,
        "finished_share": _share(profile.finished, profile.finished + profile.left),
        "computed_at": profile.computed_at.isoformat(),
    }


def profiles_refresh_active(*, since: timedelta = STALE) -> int:
    """The beat's hourly round: the profiles of the people who played since the last one."""
    moved = Action.objects.filter(created_at__gte=timezone.now() - since, user__isnull=False)
    users = moved.order_by().values_list("user", flat=True).distinct()
    from django.contrib.auth import get_user_model

    count = 0
    for user in get_user_model().objects.filter(pk__in=users, deleted_at__isnull=True):
        pace_profile_refresh(user)
        count += 1
    return count


def replying_within_q(seconds: int) -> Q:
    """Tables (Game rows) whose every seated person usually replies within `seconds` by correspondence: a
    known median (her profile, as kept) no longer than that.  Bots reply at once and do not count."""
    slow = Seat.objects.filter(game=OuterRef("pk"), user__isnull=False).filter(
        Q(user__pace_profile__isnull=True)
        | Q(user__pace_profile__reply_median_correspondence__isnull=True)
        | Q(user__pace_profile__reply_median_correspondence__gt=seconds)
    )
    return ~Exists(slow)


def waiting_on(user, *, now=None) -> list[dict]:
    """Running tables where other people wait for her: her seat is the one to decide and at least one other person
    still plays there; since when (the row that passed her the turn, or the deal) and for how long."""
    now = now or timezone.now()
    others = Seat.objects.filter(game=OuterRef("game"), user__isnull=False, abandoned=False).exclude(user=user)
    seats = (
        Seat.objects.filter(user=user, abandoned=False, deadline__isnull=False, game__status=Game.Status.RUNNING)
        .filter(Exists(others))
        .select_related("game")
        .order_by("game__pk")
    )
    waiting = [s for s in seats if s.index in (s.game.to_act or [])]
    # One query for the rows that passed her the turn, whatever the number of tables (no query per table).
    began = {s.game_id: s.turn_began for s in waiting if s.turn_began}
    passed = {
        (game_id, seq): created_at
        for game_id, seq, created_at in Action.objects.filter(
            game_id__in=list(began), seq__in=set(began.values())
        ).values_list("game_id", "seq", "created_at")
        if began.get(game_id) == seq
    }
    out = []
    for seat in waiting:
        game = seat.game
        row = passed.get((game.pk, seat.turn_began)) if seat.turn_began else None
        since = row or game.started_at or game.created_at
        out.append(
            {
                "table": game.pk,
                "game": game.kind,
                "since": since.isoformat(),
                "waiting_seconds": max(int((now - since).total_seconds()), 0),
                "deadline": seat.deadline.isoformat() if seat.deadline else None,
            }
        )
    return out
