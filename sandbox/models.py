"""A sandbox: a private copy of a game as one seat saw it, where she tries lines (decision 29, point 1).

Nothing here refers to the real hidden state.  `root` is a full state *sampled* from one seat's view
(`Game.determinize`, as the bots do, ruling S2), so the others' hands, the deck order, the face-down tiles and
the crate values in it are guesses, never the real ones (ruling G0.3).  The lines she plays on it form a tree:
`nodes` lists every move ever played here, each with its parent, so going back and playing another move keeps
both lines.  `state` is the position at `current`, kept so a read costs one load.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Sandbox(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sandboxes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, help_text="The game's registry name.")
    seat = models.PositiveSmallIntegerField(help_text="The seat whose view the hidden parts were sampled from.")
    ply = models.PositiveIntegerField(help_text="The ply of the real game it was forked at.")
    root = models.JSONField(help_text="The sampled state at the fork (never the real hidden state).")
    nodes = models.JSONField(default=list, help_text="The tree of moves: id, parent, seat, action, by, phrases.")
    current = models.PositiveIntegerField(default=0, help_text="The node shown now (0: the fork).")
    state = models.JSONField(help_text="The sampled state at `current`.")
    # A bot answer asked for and not given yet (sandbox.tasks): only the task carrying this token may play it.
    bot_token = models.CharField(max_length=32, blank=True, default="")
    bot_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_level = models.CharField(max_length=20, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(default=timezone.now, db_index=True, help_text="Expires some days after this.")

    class Meta:
        ordering = ["-used_at", "-id"]
        indexes = [models.Index(fields=["owner", "game"], name="sandbox_owner_game")]

    def __str__(self) -> str:
        return f"sandbox {self.pk} of {self.game_id} seat {self.seat}"
