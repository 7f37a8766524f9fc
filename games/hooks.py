"""Where games makes a later app act without importing it (the app order, docs/architecture.md).

games comes before ratings, feed and notifications: it may not import them, yet a finished game must be rated, a
move, a start or an invitation told and the open streams nudged, and a rating shown beside a name.  So games calls
these hooks, and each later app fills the ones it answers in its AppConfig.ready() (ratings/apps.py, feed/apps.py,
notifications/apps.py, chat/apps.py).  A misspelt hook is an AttributeError at start-up, not a hook never called.
A hook nobody filled does nothing: games alone still plays (the bots are asked whatever the dispatch did).

The payloads are plain data (ids, versions, names) wherever the receiver reads what it needs itself.  Three
carry rows the caller already holds, because a re-read would cost a query on every move or poll (decision 16)
or would not see the caller's transaction the same way: the invitation just written (`invitation_made`,
`invitation_answered`) and the table page's game with its seats loaded (`table_viewed`).

When each runs is the caller's promise, kept as before the apps were apart (decision 16, the effects pipeline):
the `in the write` hooks run inside the writing transaction, so a rolled-back write tells nothing; the
dispatch runs in a worker (games.tasks.game_effects), never in a web request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Hook:
    """An ordered list of receivers; calling the hook calls each with the same arguments and returns their answers."""

    def __init__(self, name: str):
        self.name = name
        self.receivers: list[Callable[..., Any]] = []

    def connect(self, receiver: Callable[..., Any]) -> Callable[..., Any]:
        if receiver not in self.receivers:  # ready() may run twice (tests, autoreload)
            self.receivers.append(receiver)
        return receiver

    def __call__(self, *args, **kwargs) -> list[Any]:
        return [receiver(*args, **kwargs) for receiver in self.receivers]

    def merged(self, *args, **kwargs) -> dict:
        """The receivers' answers (dicts) as one dict: what each later app adds under its own keys."""
        out: dict = {}
        for answer in self(*args, **kwargs):
            out.update(answer or {})
        return out

    def joined(self, *args, **kwargs) -> list:
        """The receivers' answers (lists) as one list."""
        return [item for answer in self(*args, **kwargs) for item in (answer or [])]

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self.receivers)} receivers>"


# --- in the write's own transaction ------------------------------------------------------------------------------

# (game_id=, recipient_ids=None, why=) what `why` makes moot is marked read (ruling S6): "acted" (she decided or
# resigned at the table), "started" (the table started), "closed" (the game ended, was aborted or never began).
notices_moot = Hook("notices_moot")
# (invitation) an invitation was written: its notice and feed event, in the same transaction.
invitation_made = Hook("invitation_made")
# (invitation, accepted=, closed=) she answered: the one who invited her is told; each receiver returns the ids of
# the people with a new event, whose streams are nudged on commit.
invitation_answered = Hook("invitation_answered")
# ([(recipient_id, game_id), ...]) invitations withdrawn by a block (ruling S7): their notices must not reach anyone.
invitations_withdrawn = Hook("invitations_withdrawn")
# (a_id, a_name, b_id, b_name) one blocked the other (ruling S7): unread notices of either's chat lines are silenced.
players_blocked = Hook("players_blocked")

# --- streams (the feed) ------------------------------------------------------------------------------------------

# (game_id, user_ids) nudge the streams of a table and of these people now: called after a commit.
streams_nudge = Hook("streams_nudge")
# (game_id, user_ids) inside a write the dispatch does not follow (a join, a bot seated, an abort, an
# invitation): the streams are nudged once it commits, when there are streams in other processes to nudge.
streams_nudge_on_commit = Hook("streams_nudge_on_commit")

# --- the table's page --------------------------------------------------------------------------------------------

# (game=, user=) she has the table's page open (its first load or a poll): presence, notices seen (ruling S6).
table_viewed = Hook("table_viewed")
# (game=, user=) as `table_viewed`, on the page's first load only: what the bell told her of it is read.
table_opened = Hook("table_opened")
# (user) -> int: her unread notices, for /api/me/.
unread_count = Hook("unread_count")

# --- in the worker -----------------------------------------------------------------------------------------------

# (game_id) -> an object with `game`, `seats` (the table as read, or game None), `new` (bool): tell people what
# changed since the game's effects cursor (games.models.GameEffects) and move the cursor, in one transaction; then
# nudge the streams.  games.tasks.game_effects calls it, then asks the bots from the table it read.
effects_dispatch = Hook("effects_dispatch")
# () -> dict of counts: the beat's outbox sweep (games.tasks.effects_sweep) sends what a lost task left behind.
outbox_sweep = Hook("outbox_sweep")


# --- a game that ends (ratings), in the caller's transaction -----------------------------------------------------
# game (the locked row, its seats ranked): a finished game; ratings rates it (ruling S5)
game_finished = Hook("game_finished")
# game: a finished game turned out never to have been played; ratings forgets it
game_result_withdrawn = Hook("game_result_withdrawn")
# (nothing): finished games' results were corrected; ratings recomputes them all
finished_results_changed = Hook("finished_results_changed")

# --- what games shows beside its seats (ratings) -----------------------------------------------------------------
# game: annotations for a query of its seats -> a dict (ratings: value and games)
seat_annotations = Hook("seat_annotations")
# game: its seats were read with those annotations (or the move's statement); keep them
seats_annotated = Hook("seats_annotated")
# games: a list of tables about to be summarised; look up what seat_badges shows, in one query
seats_prefetch = Hook("seats_prefetch")
# game: -> {field: {seat index: value}} shown with each seat (ratings: 'rating')
seat_badges = Hook("seat_badges")
# (nothing): -> {'columns', 'join', 'attrs'} for the move's one statement (aliases g, s)
locked_seat_sql = Hook("locked_seat_sql")
# game: a finished game -> {field: {user id: value}} (ratings: 'rating', the change)
finished_seat_changes = Hook("finished_seat_changes")

# --- pages and answers (ratings) --------------------------------------------------------------------------------
# person: -> her ratings, each with its history (a player's page and its API answer)
player_ratings = Hook("player_ratings")
# kind: -> rows of each bot level's worded strength (the rules page, the create-table form)
bot_strengths = Hook("bot_strengths")
# (nothing): -> {level: {rating key: rating}} (the catalogue API)
bot_level_ratings = Hook("bot_level_ratings")
