"""Private notes (decision 29, point 4): one per table and one per move (ply) for each person, seen by her alone.

Kept after the game; never in the public export (games.selectors.export) nor shown to anyone else; her own data export
reads them through notes.selectors.notes_for_export.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

NOTE_MAX_CHARS = 4000


class Note(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    ply = models.PositiveIntegerField(null=True, blank=True, help_text="The move it is attached to; null: the table.")
    text = models.TextField(max_length=NOTE_MAX_CHARS)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "ply", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "game", "ply"], name="note_one_per_ply"),
            models.UniqueConstraint(fields=["owner", "game"], condition=Q(ply__isnull=True), name="note_one_per_table"),
        ]

    def __str__(self) -> str:
        return f"note of {self.owner_id} at {self.game_id} ply {self.ply}"
