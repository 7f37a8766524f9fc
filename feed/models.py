"""The feed's model: one event told to one person (decision 12, point 2).

It came from games when the feed became an app of its own: its table keeps its name, games_event (db_table), and
the move is state only (feed/migrations/0001, games/migrations/0027), so no row moves.  Written by the effects
dispatch (notifications/events.py) and with an invitation; read by cursor (the id) from the API and the streams.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class Event(models.Model):
    """One event told to one person, as data (ids, kinds, versions), never hidden information.

    The id is the feed's cursor: a person's events are written under a lock of hers
    (feed.services), so they commit in id order and a reader resuming after an id
    misses none.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        MOVE = "move", "A move at one of your tables"
        INVITED = "invited", "Invited to a table"
        STARTED = "started", "A table you sit at started"
        FINISHED = "finished", "A game is over"
        CHAT = "chat", "A chat message at one of your tables"
        ANSWERED = "answered", "An invitation of yours was accepted or declined"
        VACATION = "vacation", "An opponent's vacation started or ended"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=160, help_text="Names the event, e.g. 'move:12:v37'; once per person.")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="events")
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)  # the purge

    class Meta:
        db_table = "games_event"  # its table since games held it
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="event_unique_per_user")]
        indexes = [models.Index(fields=["user", "id"], name="event_feed")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.key}"
