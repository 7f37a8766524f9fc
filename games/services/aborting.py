"""Aborting: closing a table or a game so that it ends with no result.

Starting deals hidden information to every seat at once (a Toppo deck and line, Topoum hands and
crates, Topology's stack and the tiles it reveals), so a game cannot be aborted by one player once
running: that would be a free new deal for whoever disliked what she saw.  The rule (decision 14):

- a table that has not started: its creator closes it;
- a running game with one person among bots: she may abort it while nothing at all is logged
  (no move of hers, of a bot, nor a missed deadline); bots lose nothing by a new deal and a table
  with a bot is never rated (ruling S5).  After that she resigns;
- a running game with two or more persons still playing: it is aborted when every one of them has
  agreed while the game stands at the same version.  An agreement lapses with the next action, so
  nobody is held to a yes given about an earlier position.  Otherwise, resign;
- ruling S1, turn 3: until every seat has completed a turn of its own, a seat that resigns or abandons
  aborts the game instead (`game_abort_early`).

Every abort keeps its reason (Game.abort_reason) and, once the game ran, everyone seated is told.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import hooks
from ..errors import Conflict, Forbidden, NotFound
from ..models import Action, Game, Seat
from ..ranking import LEAVE_TYPES, RESIGN
from ..selectors import first_turns_pending, may_abort_alone, persons_playing
from . import effects
from .locks import game_locked
from .player_summaries import player_summaries_rebuild
from .table_access import game_lock_for


def _playing_seat(game: Game, user) -> Seat:
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden(_("You do not play at this table."))
    if seat.abandoned:
        raise Conflict(_("You have already left this game."))
    return seat


def _refusal(persons: list[Seat]) -> Conflict:
    if len(persons) < 2:
        return Conflict(_("Moves have been made: resign instead of aborting."))
    return Conflict(
        _(
            "Everyone has seen their own hidden cards or tiles since the deal: the game is aborted only "
            "if every player still in it agrees to abort it. Agree to abort, or resign."
        )
    )


def _abort(game: Game, reason: str, *, seat: int | None = None) -> Game:
    """End the game with no result, saying why; a game that ran tells everyone seated (the effects dispatch,
    notifications.events), a table that never began only nudges its streams."""
    ran = game.started_at is not None
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.to_act = []
    game.turn_marker = ""
    game.abort_reason, game.abort_seat = reason, seat
    game.save(
        update_fields=[
            "status",
            "finished_at",
            "to_act",
            "turn_marker",
            "abort_reason",
            "abort_seat",
            "version",
            "updated_at",
        ]
    )
    game.seats.update(deadline=None, abort_agreed_version=None)
    hooks.notices_moot(game_id=game.pk, why="closed")  # no turn nor invitation there needs anyone (ruling S6)
    if ran:
        game_id = game.pk
        transaction.on_commit(lambda: effects.game_changed(game_id))
    else:
        effects.table_touched(game.pk)
    return game


def table_close(game: Game) -> Game:
    """Close the locked, open `game` that nobody will fill (a declined challenge or rematch): no result, and never
    listed in the lobby (games.services.invitations)."""
    return _abort(game, Game.AbortReason.DECLINED)


def game_abort_early(game: Game, seat: Seat, *, how: str) -> Game:
    """A seat left (`how`: resign or abandon, already logged) before every seat had completed a turn of its own:
    the game is aborted instead of lost (ruling S1, turn 3): no ranks, no rating change, everyone told.

    Called under the game's lock by the resignation and the third missed deadline (games.services.moves).
    """
    return _abort(game, _leave_reason(how), seat=seat.index)


def _leave_reason(how: str) -> str:
    """The abort reason of a leave entry's type (resign or abandon)."""
    return Game.AbortReason.RESIGNED if how == RESIGN else Game.AbortReason.ABANDONED


@dataclass
class Corrected:
    games: list[int]  # the finished games that are aborted games by ruling S1, turn 3
    applied: bool  # written (else only found)


def games_unplayed_abort(*, apply: bool = False) -> Corrected:
    """Ruling S1, turn 3, for the games that ended before it: a finished game in which a seat resigned or abandoned
    before every seat had completed a turn of its own is made an aborted game (reason and seat from that first
    leave, no ranks, scores or results, not rated), then every rating and every player's statistics are rebuilt
    from the games that remain (the finished_results_changed hook, which ratings answers; player_summaries_rebuild).
    Nobody is told.

    `apply=False` only finds them (the command's dry run).  The log is replayed once per game that has a leave, up
    to its first one (games.selectors.first_turns_pending).
    """
    found = []
    left = Action.objects.filter(game=OuterRef("pk"), action__type__in=LEAVE_TYPES)
    candidates = Game.objects.filter(status=Game.Status.FINISHED).filter(Exists(left)).order_by("pk")
    for game in candidates.prefetch_related("seats"):
        first = Action.objects.filter(game=game, action__type__in=LEAVE_TYPES).order_by("seq").first()
        if first_turns_pending(game, before_seq=first.seq):
            found.append((game.pk, first))
    if not apply or not found:
        return Corrected(games=[pk for pk, _ in found], applied=False)
    with transaction.atomic():
        for pk, first in found:
            game = game_locked(pk)
            game.status = Game.Status.ABORTED
            game.abort_reason = _leave_reason(first.action["type"])
            game.abort_seat = first.seat
            game.save(update_fields=["status", "abort_reason", "abort_seat", "updated_at"])
            game.seats.update(rank=None, score=None, result=None, deadline=None)
            hooks.game_result_withdrawn(game=game)
        hooks.finished_results_changed()
        player_summaries_rebuild()
    return Corrected(games=[pk for pk, _ in found], applied=True)


def leaving_aborts(game: Game) -> bool:
    """Would a seat leaving now abort the game (ruling S1, turn 3)?  Some seat has not played a turn of its own."""
    return bool(first_turns_pending(game))


@transaction.atomic
def game_abort(*, user, game_id: int) -> Game:
    """Close a table that has not started (its creator), or a running game she may abort alone."""
    game = game_lock_for(user, game_id)
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("This game is already over."))
    if game.is_open:
        if game.created_by_id != user.pk:
            raise Forbidden(_("Only the player who opened the table can abort it."))
        return _abort(game, Game.AbortReason.CLOSED)
    _playing_seat(game, user)
    persons = persons_playing(game)
    if not may_abort_alone(game, persons):
        raise _refusal(persons)
    return _abort(game, Game.AbortReason.ALONE)


@transaction.atomic
def game_abort_agree(*, user, game_id: int, agree: bool = True) -> Game:
    """Agree (or take back her agreement) to abort a running game; the last agreement needed aborts it."""
    game = game_lock_for(user, game_id)
    if not game.is_running:
        raise Conflict(_("Only a running game can be aborted by agreement."))
    seat = _playing_seat(game, user)
    persons = persons_playing(game)
    if len(persons) < 2:
        if agree and may_abort_alone(game, persons):
            return _abort(game, Game.AbortReason.ALONE)
        raise _refusal(persons)
    seat.abort_agreed_version = game.version if agree else None
    seat.save(update_fields=["abort_agreed_version"])
    agreed = {s.index for s in persons if s.abort_agreed_version == game.version} | ({seat.index} if agree else set())
    if agree and agreed >= {s.index for s in persons}:
        return _abort(game, Game.AbortReason.AGREED)
    game.save(update_fields=["updated_at"])  # the others' open pages show the agreement at their next poll
    return game


@transaction.atomic
def game_abort_by_staff(*, user, game_id: int) -> Game:
    """A moderator ends an open table or a running game with no result (the Django admin's "abort", decision 17),
    whatever the players agreed: the same effects as any abort (the table's streams and pages learn of it; an aborted
    game is never rated)."""
    if not (user.is_active and user.is_staff):
        raise Forbidden(_("Only the site's staff can abort another player's game."))
    game = game_locked(game_id)
    if game is None:
        raise NotFound(_("There is no table #%(id)s.") % {"id": game_id})
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(_("This game is already over."))
    return _abort(game, Game.AbortReason.STAFF)
