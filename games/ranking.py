"""Seats that leave a game, in the reader's language (ruling S1).

The ranking itself is plain Python in `engine.ranking`, so that anyone can re-compute it from the
seed and the log (ruling G0.2, `python -m engine.verify`); it is re-exported here for the site.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.ranking import ABANDON, LEAVE_TYPES, RESIGN, is_leave, replayed_ranks, site_ranks, winners  # noqa: F401


def leave_words(kind: str, name: str) -> str:
    """The log line of a leave entry, in the reader's language."""
    if kind == ABANDON:
        return _("%(name)s left the game after three missed deadlines in a row.") % {"name": name}
    return _("%(name)s resigned.") % {"name": name}


def winners_words(names: list[str]) -> str:
    """The headline of a finished game, in the reader's language."""
    if not names:
        return _("Nobody won: every player left the game.")
    return ngettext("Winner: %(names)s.", "Winners: %(names)s.", len(names)) % {"names": ", ".join(names)}
