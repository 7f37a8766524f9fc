"""Who may read each log line while a turn of several decisions is in progress (ruling S3, amended).

A turn is private to its player until she confirms it: the engine says whose turn is
unconfirmed (`State.unconfirmed_seat`), and the rows of the action log follow it.  The
rows are the one place the site keeps this, so the page, the API, the log export and
the notifications all read the same answer (`games.selectors.action_log`).
"""

from __future__ import annotations

from engine.core import State

from ..models import Action, Game

Visibility = Action.Visibility


def _has_unconfirmed_turns(state) -> bool:
    """Does this game ever hold a turn unconfirmed?  One that keeps the core's `unconfirmed_seat` (always None)
    never logs a private row, so it has none to make public or withdraw (decision 16: no UPDATE on its moves)."""
    return type(state).unconfirmed_seat is not State.unconfirmed_seat


def log_visibility(game: Game, seat: int, action: dict, state) -> str:
    """The visibility of the row that logs `action` (already applied to `state`); updates the rows it changes.

    - a decision that leaves her turn unconfirmed is hers alone (private);
    - an undo withdraws the decision it takes back, and itself: the others never learn of
      either while the game runs (a card played from her hand went back into it);
    - anything else (her confirmation, another game's move) makes the private rows public.
    """
    if not _has_unconfirmed_turns(state):
        return Visibility.PUBLIC
    private = Action.objects.filter(game=game, visibility=Visibility.PRIVATE)
    if action.get("type") == "undo":
        taken = private.order_by("-seq").values_list("pk", flat=True).first()
        if taken is not None:
            Action.objects.filter(pk=taken).update(visibility=Visibility.WITHDRAWN)
            return Visibility.WITHDRAWN
    if state.unconfirmed_seat() == seat:
        return Visibility.PRIVATE
    private.update(visibility=Visibility.PUBLIC)
    return Visibility.PUBLIC
