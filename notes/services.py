"""Writes of private notes (decision 29, point 4): put (create or replace) and delete, hers only.

A note is on a table (ply None) or on one of its moves (0: the start, up to the game's plies).  Anyone who may
see a table may keep notes on it; nobody else ever reads them (notes.selectors).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.errors import BadRequest, NotFound
from games.models import Game
from games.selectors import replay
from games.selectors.positions import seat_of

from .models import NOTE_MAX_CHARS, Note


def plies_for(game: Game, user) -> int:
    """The last move `user` may see (games.selectors.replay.plies_seen_by, ruling S3): neither a note nor its refusal
    tells how many decisions another seat's unconfirmed turn holds."""
    if game.state is None:
        return 0
    return replay.plies_seen_by(game, seat_of(game, user))


def _check_ply(game: Game, user, ply: int | None) -> None:
    if ply is None:
        return
    plies = plies_for(game, user)
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= plies:
        raise NotFound(
            _("There is no move %(ply)s: this game has moves 0 to %(plies)s.") % {"ply": ply, "plies": plies}
        )


def note_put(*, user, game: Game, ply: int | None, text) -> Note:
    """Her note on the table (ply None) or on move `ply`, created or replaced."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(_("A note needs some text; to remove a note, delete it."), field="text")
    if len(text) > NOTE_MAX_CHARS:
        raise BadRequest(_("A note holds at most %(n)s characters.") % {"n": NOTE_MAX_CHARS}, field="text")
    if "\x00" in text:
        raise BadRequest(_("A note cannot hold a NUL character."), field="text")
    _check_ply(game, user, ply)
    for _attempt in range(2):  # two requests at once for the same new note: the second updates the first's
        try:
            with transaction.atomic():
                note, _created = Note.objects.update_or_create(owner=user, game=game, ply=ply, defaults={"text": text})
            return note
        except IntegrityError:
            continue
    raise BadRequest(_("The note could not be saved; try again."))


def note_delete(*, user, game: Game, ply: int | None) -> None:
    deleted, _per_model = Note.objects.filter(owner=user, game=game, ply=ply).delete()
    if not deleted:
        raise NotFound(_("You have no note there."))
