"""Row locks for writes to a table, always taken in one order: the game, then its seats.

Every write that changes a table's seats (a move, a bot's turn, a missed deadline, the
notification dispatch that stamps `turn_mailed_at`) first locks the game row, so two of them
queue on that row instead of each holding one seat and waiting for another.

The locks are FOR NO KEY UPDATE, not FOR UPDATE: inserting a row that points at the game
(an action, a notification, the effects cursor) takes a KEY SHARE lock on it, which FOR UPDATE
blocks and NO KEY UPDATE does not.  With FOR UPDATE a dispatch holding a seat and inserting a
notification waited for a move that held the game and waited for that seat: a deadlock
(CI, PostgreSQL).  No write here changes a game's or a seat's primary key, which is all that
NO KEY UPDATE gives up.  SQLite has no row locks and ignores both.
"""

from __future__ import annotations

from ..models import Game, Seat


def game_locked(game_id: int) -> Game | None:
    """The game row, locked until the end of the transaction; None if there is none."""
    return Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()


def seat_locked(game: Game, index: int) -> Seat:
    """The game's seat `index`, locked until the end of the transaction (after the game: see above)."""
    return game.seats.select_for_update(no_key=True).get(index=index)
