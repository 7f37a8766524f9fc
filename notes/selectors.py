"""Reads of private notes (decision 29, point 4): always filtered by their owner; nothing here reads anyone else's."""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _

from games.errors import NotFound

from .models import Note


def _out(note: Note) -> dict:
    return {"ply": note.ply, "text": note.text, "created_at": note.created_at, "updated_at": note.updated_at}


def notes_of(user, game) -> list[dict]:
    """Her notes at `game`: the table's first (ply null), then the moves' in order."""
    if not getattr(user, "is_authenticated", False):
        return []
    notes = Note.objects.filter(owner=user, game=game)
    return [_out(n) for n in sorted(notes, key=lambda n: (n.ply is not None, n.ply or 0))]


def note_of(user, game, ply: int | None) -> dict:
    note = Note.objects.filter(owner=user, game=game, ply=ply).first() if user.is_authenticated else None
    if note is None:
        raise NotFound(_("You have no note there."))
    return _out(note)


def notes_for_export(user) -> list[dict]:
    """Every note of hers, as JSON-ready data, for her own data export (ruling S8); never for anyone else's."""
    return [
        {
            "table": note.game_id,
            "game": note.game.kind,
            "ply": note.ply,
            "text": note.text,
            "created_at": note.created_at.isoformat(),
            "updated_at": note.updated_at.isoformat(),
        }
        for note in Note.objects.filter(owner=user)
        .select_related("game")
        .order_by("game_id", F("ply").asc(nulls_first=True), "id")
    ]
