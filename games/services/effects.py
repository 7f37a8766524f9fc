"""After-effects of committed writes: bots to move, people to notify.

`after_action`, `after_private_decision`, `after_sealed_decision`, `after_finish` and `after_timeout` run from
`transaction.on_commit` (see moves.py; `sealed_decision_told` decides, inside the move, that a decision needs no
dispatch); `after_start` and `after_invitation` are called inside
the writing transaction and defer what leaves the process to its commit.  So a rolled-back
write sends nothing.  They only hand ids to Celery tasks (the tasks call services), or nudge
the table's streams through Redis.

Nothing here may fail the write that is already committed: if the broker cannot
take a task, `config.celery.enqueue` logs it and the beat sweep (`tasks.effects_sweep`)
finds the game behind its effects cursor and sends it again.
"""

from __future__ import annotations

from django.db import connection, transaction

from config.celery import enqueue

from .. import hooks
from ..models import GameEffects
from .effects_mark import mark_cleared, mark_queued


def game_changed(game_id: int) -> None:
    """Notify the players of what changed and let the bots move (one task, `tasks.game_effects`).

    One pending dispatch per game is enough, since it reads the game as it is when it runs: a
    live table makes several moves a second, and one task for each would queue up behind each
    other (the embedded broker takes a few a second) and hold the bots' answers up.  So a change
    sends a task only if none is waiting (games.services.effects_mark); the task takes the mark
    away before it reads the game, so a change committed after that read sends the next one.
    """
    if not mark_queued(game_id):
        return  # a dispatch that has not read the game yet will see this change
    if not enqueue("games.tasks.game_effects", game_id):
        mark_cleared(game_id)


def bots_wanted(game_id: int) -> None:
    """Ask the bots of a game again, outside any transaction (`tasks.bots_schedule`)."""

    enqueue("games.tasks.bots_schedule", game_id)


def after_start(game) -> None:
    """In the start's own transaction: the invitations to the table and the acceptances waiting for its start are
    moot (ruling S6); on commit, the dispatch tells who sits there that it started and whose turn it is."""
    hooks.notices_moot(game_id=game.pk, why="started")  # notifications
    game_id = game.pk
    transaction.on_commit(lambda: game_changed(game_id))


def after_action(game_id: int, version: int) -> None:
    """A game changed (a move, a resignation): tell people, let bots whose decision it is move."""
    game_changed(game_id)


def after_private_decision(game_id: int, *, seq: int, latest: int, bot_played: bool) -> None:
    """A decision only its player may see yet, or her taking one back (ruling S3): no dispatch (decision 16).

    Nobody else may learn of it and the seat to act stays hers, so there is nobody to tell and no other
    bot to ask: no mark is written and no task sent.  The dispatch that follows her confirmation reads the
    log from its cursor and tells all of it; the beat sweep leaves such a game alone meanwhile
    (games.selectors.sweeps.games_behind).  What is left to do:
    - her own other pages follow the table's stream, which with Redis waits for a nudge the dispatch
      would have sent: one PUBLISH (without Redis every stream reads the database each second);
    - a bot playing the seat whose task stopped short of the confirmation (a plan that ran out early) is
      asked again, as the dispatch would have asked it; by correspondence its whole turn is one transaction.
    `seq` is this decision's, `latest` the game's version at the commit: a later decision of the same
    transaction (a bot's whole turn) has after-effects of its own, which do all this.
    """
    if seq != latest:
        return
    hooks.streams_nudge(game_id, [])  # feed
    if bot_played:
        bots_wanted(game_id)


def sealed_decision_told(game, *, acted: int, previous_to_act: list[int], now) -> bool:
    """In the move's transaction: if this public decision tells nobody anything new, move the effects cursor past it
    and say so (True): then no dispatch is sent for it (decision 28, point 3).

    Such a decision is one seat's part of a turn several seats decide at once, the others still deciding (a Toppo
    round by correspondence, ruling P4: every claim sealed until the round resolves): the turn is the same, nobody
    comes to act, nothing ends.  Everyone still to decide was told of this turn, and asked if a bot, by the
    dispatch of the decision that began it; the mover's own notices were made moot by the move.  So the dispatch
    would only move the cursor and record a "move" event of a sealed claim; the round's resolution, whose
    dispatch follows, reports the version reached.  The table's streams are still nudged on commit (its pages show
    who has decided).

    Only when the cursor stands at the version just before this one (every earlier change told; the row is
    locked with the game's, which every dispatch takes first): otherwise a dispatch is due anyway, and it tells
    all of it.  A missed deadline's rows are never passed over: their dispatch tells the miss.
    """
    waiting = set(previous_to_act) - {acted}
    if not waiting or acted not in previous_to_act or set(game.to_act) != waiting:
        return False
    table = GameEffects._meta.db_table
    with connection.cursor() as cursor:  # one statement without the ORM's compiler (decision 28)
        cursor.execute(
            f'UPDATE "{table}" SET "version" = %s, "updated_at" = %s WHERE "game_id" = %s AND "version" = %s '
            'AND "status" = %s',
            [game.version, now, game.pk, game.version - 1, game.status],
        )
        return cursor.rowcount == 1


def after_sealed_decision(game_id: int) -> None:
    """A decision `sealed_decision_told` passed over: only the table's streams are nudged (feed)."""
    hooks.streams_nudge(game_id, [])


def after_finish(game_id: int) -> None:
    game_changed(game_id)


def after_timeout(game_id: int, seat_id: int) -> None:
    """A missed deadline was played by the bot; the effects dispatch tells the player (from the log)."""
    game_changed(game_id)


def after_invitation(invitation) -> None:
    """Written in the invitation's own transaction: both are kept or neither; the email leaves on commit."""
    hooks.invitation_made(invitation)  # the notification and the feed event (notifications, feed)
    _announce_on_commit(invitation.game_id, [invitation.user_id])


def after_answer(invitation, *, accepted: bool, closed: bool = False) -> None:
    """In the answer's own transaction (her join, her decline): the one who invited her is told (ruling S6), and
    at a table her decline closed whoever else sits there; their streams are nudged on commit."""
    answers = hooks.invitation_answered(invitation, accepted=accepted, closed=closed)  # notifications
    told = [user_id for ids in answers for user_id in ids]
    _announce_on_commit(invitation.game_id, told)


def table_touched(game_id: int) -> None:
    """Called inside a write the effects dispatch does not follow (a join, a bot seated, an abort): on its
    commit the table's streams are nudged, when there are streams in other processes to nudge (Redis)."""
    _announce_on_commit(game_id, [])


def _announce_on_commit(game_id: int, user_ids: list[int]) -> None:
    hooks.streams_nudge_on_commit(game_id, user_ids)  # feed: a task on commit, when Redis carries the nudges
