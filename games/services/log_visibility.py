"""Who may read each log line while a turn of several decisions is in progress (ruling S3, amended).

A turn is private to its player until she confirms it: the engine says whose turn is
unconfirmed (`State.unconfirmed_seat`), and the rows of the action log follow it.  The
rows are the one place the site keeps this, so the page, the API, the log export and
the notifications all read the same answer (`games.selectors.action_log`).
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from engine.core import State

from ..models import Action, Game
from ..selectors.tables import WrittenLine

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
    if action.get("type") == "undo":
        private = Action.objects.filter(game=game, visibility=Visibility.PRIVATE)
        taken = private.order_by("-seq").values_list("pk", flat=True).first()
        if taken is not None:
            Action.objects.filter(pk=taken).update(visibility=Visibility.WITHDRAWN)
            return Visibility.WITHDRAWN
    if state.unconfirmed_seat() == seat:
        return Visibility.PRIVATE  # no query built: most decisions of a turn of several (decision 28)
    _private_made_public(game)
    return Visibility.PUBLIC


def written_line(logged: Action, state, before) -> WrittenLine | None:
    """The line `logged` as the mover's own reading of the log takes it with her lines kept (the move's answer,
    games.selectors.score_breakdown), when what logging it did to the earlier lines is known: nothing (a decision
    of her turn still unconfirmed, ruling S3, or any decision of a game that never holds one), or her own turn's
    lines made public (her confirmation: the private lines were all hers, hers being the turn unconfirmed, or there
    were none).  None after anything else: an undo, or a decision that made another seat's turn public."""
    if logged.visibility == Visibility.PRIVATE or not _has_unconfirmed_turns(state):
        hers_public = False
    elif logged.visibility == Visibility.PUBLIC and before.unconfirmed_seat() in (logged.seat, None):
        hers_public = True
    else:
        return None
    return WrittenLine(logged.seq, logged.visibility, logged.seat, logged.entry, hers_public)


def _private_made_public(game: Game) -> None:
    """Action.objects.filter(game=game, visibility=PRIVATE).update(visibility=PUBLIC), written once: the ORM built
    this UPDATE on every decision that ends a turn for more than its run (decision 28).  No signal hears it."""
    with connection.cursor() as cursor:
        cursor.execute(_publish_sql(), [Visibility.PUBLIC.value, game.pk, Visibility.PRIVATE.value])


@cache
def _publish_sql() -> str:
    q = connection.ops.quote_name
    visibility, game = (q(Action._meta.get_field(name).column) for name in ("visibility", "game"))
    return f"UPDATE {q(Action._meta.db_table)} SET {visibility} = %s WHERE {game} = %s AND {visibility} = %s"
