"""A seat's legal actions kept for the position they were listed in (decision 28, point 1).

A program plays by asking for her legal actions, sending one, and asking again: in a turn of several decisions
(Topology's, Topoum's) the move's answer has just listed the actions of the position the next question is
about, and listing them is most of what that question costs (Topology's placements).  Each process keeps, per
game, the last list it made with the stored position it was made from and for which seat; a question about
the same game and seat is answered from it only when the position it reads is equal to the kept one (the
actions are the engine's function of the position and the seat alone), so a position written by any path, with
or without a new version, is never answered from another's list.

Kept read-only: the lists are answered as they are, never changed.  What is kept is bounded by the number of
actions (a Topology placement list is a thousand or more, each a small object): the games answered longest ago
are forgotten first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..models import Game

KEPT_GAMES = 256
KEPT_ACTIONS = 40_000  # some 20 MB at most
MOST_ACTIONS = 5_000  # a list longer than this is not kept

_kept: OrderedDict[int, tuple] = OrderedDict()
_actions_kept = 0
_lock = threading.Lock()  # the ASGI server answers from threads


def legal_keep(game: Game, seat: int, actions: list, undoable: bool) -> None:
    """Keep `seat`'s `actions` (and whether she may take one back) listed from `game.state`, the stored position."""
    global _actions_kept
    if len(actions) > MOST_ACTIONS or game.state is None:
        return
    with _lock:
        replaced = _kept.pop(game.pk, None)
        _actions_kept -= len(replaced[3]) if replaced else 0
        _kept[game.pk] = (game.kind, seat, game.state, actions, undoable)
        _actions_kept += len(actions)
        while len(_kept) > KEPT_GAMES or _actions_kept > KEPT_ACTIONS:
            _, forgotten = _kept.popitem(last=False)
            _actions_kept -= len(forgotten[3])


def legal_kept(game: Game, seat: int) -> tuple[list, bool] | None:
    """(actions, undoable) kept for `seat` at the position `game.state` holds, or None."""
    with _lock:
        kept = _kept.get(game.pk)
    if kept is None or kept[0] != game.kind or kept[1] != seat or kept[2] != game.state:
        return None
    return kept[3], kept[4]
