"""Any position of a game's past, from the seed and the log (ruling G0.2), quickly.

A ply is the number of engine actions applied: 0 is the start.  The site's leave entries
(`games.ranking.is_leave`) are not engine actions and are skipped.  Every `EVERY` plies a
`PositionCheckpoint` keeps the serialized state, written the first time a replay passes it,
so a position costs one load and at most EVERY - 1 applies.

Who may see which ply (rulings G0.2, G0.3, S3):
- a finished game is public: every seat's view at every ply;
- a running game: the spectator's view plus the caller's own seat's view, and only at plies
  made by a public log row or by her own seat; a ply inside another seat's unconfirmed
  turn, or one taken back, would show what the others may not see yet (ruling S3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from engine.core import State

from ..errors import ServiceError
from ..models import Action, Game, PositionCheckpoint
from ..ranking import LEAVE_TYPES, is_leave
from .positions import engine_for

EVERY = 50


class PositionUnavailable(ServiceError):
    status_code, code = 404, "not_found"


@dataclass
class Position:
    ply: int
    plies: int
    state: State
    seq: int  # the log row that made this ply (0 at the start)
    seat: int | None  # whose action it was (None at the start)
    visibility: str


def plies_of(game: Game) -> int:
    """How many engine actions the log holds: every row but the leave entries.

    Counted as a difference: an exclude() on a JSON key would also drop rows without that key (SQL NULL).
    """
    counts = Action.objects.filter(game=game).aggregate(
        rows=Count("pk"), leaves=Count("pk", filter=Q(action__type__in=LEAVE_TYPES))
    )
    return counts["rows"] - counts["leaves"]


def plies_seen_by(game: Game, seat: int | None) -> int:
    """The last ply `seat` (None: a spectator) may see: every ply once the game is over; while it runs, not the
    decisions of another seat's unconfirmed turn (ruling S3), which are the log's last rows, so that nothing built
    on it (a note's move, a sandbox's fork) tells how many there are (decision 29)."""
    if game.status != Game.Status.RUNNING:
        return plies_of(game)
    public = Q(visibility=Action.Visibility.PUBLIC)
    counts = Action.objects.filter(game=game).filter(public if seat is None else public | Q(seat=seat))
    counts = counts.aggregate(rows=Count("pk"), leaves=Count("pk", filter=Q(action__type__in=LEAVE_TYPES)))
    return counts["rows"] - counts["leaves"]


def position_at(game: Game, ply: int, plies: int | None = None) -> Position:
    """The full state after `ply` engine actions (never sent as it is: build views from it); `plies`: plies_of(game)
    when the caller has counted it already."""
    if game.state is None:
        raise PositionUnavailable(_("This game has not started, so it has no positions yet."))
    plies = plies_of(game) if plies is None else plies
    if not 0 <= ply <= plies:
        raise PositionUnavailable(
            _("There is no move %(ply)s: this game has moves 0 to %(plies)s.") % {"ply": ply, "plies": plies}
        )
    engine = engine_for(game)
    checkpoint = (
        PositionCheckpoint.objects.filter(game=game, ply__lte=ply).order_by("-ply").only("ply", "seq", "state").first()
    )
    if checkpoint is not None:
        state, at, seq = engine.load(checkpoint.state), checkpoint.ply, checkpoint.seq
    else:
        state, at, seq = engine.new_state(game.players, game.options, game.seed), 0, 0
    seat, visibility = None, Action.Visibility.PUBLIC
    fresh = []
    # A seat leaves at most once, so `players` more rows than plies are enough.
    rows = (
        Action.objects.filter(game=game, seq__gt=seq)
        .order_by("seq")
        .values_list("seq", "seat", "action", "visibility")[: ply - at + game.players]
    )
    if at == ply and checkpoint is not None and ply:
        row = Action.objects.filter(game=game, seq=seq).values_list("seat", "visibility").first()
        seat, visibility = row or (None, visibility)
    for row_seq, row_seat, action, row_visibility in rows:
        if at == ply:
            break
        if is_leave(action):
            continue
        state.apply(row_seat, action)
        at, seq, seat, visibility = at + 1, row_seq, row_seat, row_visibility
        if at % EVERY == 0:
            # A copy through JSON: the state goes on changing in place.
            fresh.append(PositionCheckpoint(game=game, ply=at, seq=seq, state=json.loads(json.dumps(state.to_json()))))
    if fresh:
        PositionCheckpoint.objects.bulk_create(fresh, ignore_conflicts=True)
    return Position(ply=ply, plies=plies, state=state, seq=seq, seat=seat, visibility=visibility)


def visible_to(game: Game, position: Position, seat: int | None) -> bool:
    """May `seat` (None: a spectator) see this ply?  Always once finished; else ruling S3."""
    if game.status != Game.Status.RUNNING or position.ply == 0:
        return True
    return position.visibility == Action.Visibility.PUBLIC or (seat is not None and position.seat == seat)


def position_views(game: Game, ply: int, seat: int | None) -> dict:
    """What the API sends for `ply`: the spectator's view, and every seat's once finished or her own while running."""
    if game.status not in (Game.Status.RUNNING, Game.Status.FINISHED):
        raise PositionUnavailable(_("Only a running or finished game can be replayed."))
    seen = plies_seen_by(game, seat)
    if game.status == Game.Status.RUNNING and not 0 <= ply <= seen:
        # One refusal for every ply past what she may see, in the same words whether or not it exists yet, and
        # "plies" below counts only those: the number of another seat's unconfirmed decisions stays hers (ruling S3).
        raise PositionUnavailable(
            _(
                "There is no move %(ply)s you may see: moves 0 to %(plies)s are shown, and a turn not confirmed "
                "yet is shown once confirmed."
            )
            % {"ply": ply, "plies": seen}
        )
    position = position_at(game, ply, plies=seen)
    if not visible_to(game, position, seat):
        raise PositionUnavailable(
            _("Move %(ply)s belongs to a turn not confirmed yet; it is shown once confirmed.") % {"ply": ply}
        )
    state = position.state
    data = {
        "table": game.pk,
        "game": game.kind,
        "status": game.status,
        "ply": ply,
        "plies": position.plies,
        "seq": position.seq,
        "seat": position.seat,
        "over": state.is_over(),
        "to_act": state.to_act(),
        "spectator": state.view(None),
    }
    if game.status == Game.Status.FINISHED:  # everything is public after the end (ruling G0.2)
        data["seats"] = [state.view(i) for i in range(game.players)]
    elif seat is not None:
        data["mine"] = {"seat": seat, "view": state.view(seat)}
    return data


__all__ = [
    "EVERY",
    "Position",
    "PositionUnavailable",
    "plies_of",
    "plies_seen_by",
    "position_at",
    "position_views",
    "visible_to",
]
