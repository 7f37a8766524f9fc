"""Her private notes in her own data export (ruling S8; decision 29, point 4): never in anyone else's, nor in a
game's public export."""

from __future__ import annotations

from accounts.data_export import section

from .selectors import notes_for_export


@section("notes", covers=("notes.Note.owner",))
def _notes(user) -> list[dict]:
    return notes_for_export(user)
