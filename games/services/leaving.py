"""Seats leaving a running game (ruling S1): the log entry, the refusal of their moves, the final ranks.

Called from moves.py inside its transaction, with the game row locked.  The ranking
itself is `games.ranking.site_ranks`; here it is fed from the Action rows so that what
is published is exactly what the log re-runs to (`games.ranking.replayed_ranks`).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import hooks
from ..errors import Conflict
from ..models import Action, Game, Seat
from ..ranking import ABANDON, LEAVE_TYPES, site_ranks
from .player_summaries import player_summaries_record


def seat_leave(game: Game, seat: Seat, *, kind: str, source: str, user=None) -> Action:
    """Mark the seat as left and say so in the log: a site entry that takes the next version.

    The caller saves `game` (its version went up); the seat is saved here.
    """
    seat.abandoned = True
    seat.save(update_fields=["abandoned"])
    game.version += 1
    # No entry: the leave is worded for each reader from its action (games.ranking.leave_words).
    return Action.objects.create(
        game=game, seq=game.version, seat=seat.index, user=user, source=source, action={"type": kind}
    )


def leavers(game: Game) -> list[int]:
    """The seats that left, in the order they left (from the log)."""
    rows = Action.objects.filter(game=game, action__type__in=LEAVE_TYPES).order_by("seq")
    return list(rows.values_list("seat", flat=True))


def left_refusal(game: Game, seat: Seat) -> Conflict:
    """Why a seat that left may not move (ruling S1), answered with 409."""
    how = (
        Action.objects.filter(game=game, seat=seat.index, action__type__in=LEAVE_TYPES)
        .order_by("-seq")
        .values_list("action__type", flat=True)
        .first()
    )
    if how == ABANDON:
        return Conflict(
            _(
                "You left this game after missing three deadlines in a row; the site's bot plays your "
                "seat to the end, so your moves are no longer taken."
            )
        )
    return Conflict(
        _("You resigned this game; the site's bot plays your seat to the end, so your moves are no longer taken.")
    )


def nobody_to_play_against(game: Game) -> bool:
    """After a resignation: one seat or none still playing, or only bots: the game ends now."""
    playing = game.seats.filter(abandoned=False)
    return playing.count() <= 1 or not playing.filter(user__isnull=False).exists()


def ranks_settle(game: Game, results=None) -> None:
    """Write every seat's final rank (ruling S1), score and result; stop the clocks; add the game to the
    players' statistics (games.services.player_summaries).

    `results` is the engine's `state.results()` of a finished game; None for a game
    that ended early, which has no scores and whose staying seats share rank 1.
    """
    seats = list(game.seats.all())
    by_seat = {r.seat: r for r in results or []}
    game_ranks = {s.index: by_seat[s.index].rank if by_seat else 1 for s in seats}
    ranks = site_ranks(game_ranks, leavers(game))
    for seat in seats:
        result = by_seat.get(seat.index)
        seat.rank = ranks[seat.index]
        seat.score = result.score if result else None
        seat.result = result.to_json() if result else None
        seat.deadline = None
        seat.save(update_fields=["rank", "score", "result", "deadline"])
    player_summaries_record(game, seats)


def game_end_early(game: Game, now) -> None:
    """Nobody is left to play against: the game is over as it stands, nobody to decide (the caller saves nothing)."""
    game.status = Game.Status.FINISHED
    game.finished_at = now
    game.to_act = []
    game.turn_marker = ""
    game.save(update_fields=["status", "finished_at", "to_act", "turn_marker", "version", "updated_at"])
    ranks_settle(game)
    hooks.game_finished(game=game)  # ruling S5: a game ended by resignations is rated like any other
