"""A seat's legal actions kept for the position they were listed in (decision 28, point 1).

A program plays by asking for her legal actions, sending one, and asking again: in a turn of several decisions
(Topology's, Topoum's) the move's answer has just listed the actions of the position the next question is
about, and listing them is most of what that question costs (Topology's placements).  Each process keeps, per
game, the last list it made with the stored position it was made from and for which seat; a question about
the same game and seat is answered from it only when the position it reads is equal to the kept one (the
actions are the engine's function of the position and the seat alone), so a position written by any path, with
or without a new version, is never answered from another's list.

Kept read-only: the lists are answered as they are, never changed.  A long list (the first placement of a
Topology turn, a thousand actions) is not kept: the next question about it is another seat's or another position's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..models import Game

KEPT_GAMES = 128
MOST_ACTIONS = 300

_kept: OrderedDict[int, tuple] = OrderedDict()
_lock = threading.Lock()  # the ASGI server answers from threads


def legal_keep(game: Game, seat: int, actions: list, undoable: bool) -> None:
    """Keep `seat`'s `actions` (and whether she may take one back) listed from `game.state`, the stored position."""
    if len(actions) > MOST_ACTIONS or game.state is None:
        return
    with _lock:
        _kept[game.pk] = (game.kind, seat, game.state, actions, undoable)
        _kept.move_to_end(game.pk)
        while len(_kept) > KEPT_GAMES:
            _kept.popitem(last=False)


def legal_kept(game: Game, seat: int) -> tuple[list, bool] | None:
    """(actions, undoable) kept for `seat` at the position `game.state` holds, or None."""
    with _lock:
        kept = _kept.get(game.pk)
    if kept is None or kept[0] != game.kind or kept[1] != seat or kept[2] != game.state:
        return None
    return kept[3], kept[4]
