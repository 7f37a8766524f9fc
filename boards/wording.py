"""Words every game's site side uses (a seat's name, a list in the reader's language), shared here so that a
game's words module needs nothing from games (boards sits left of games in the apps' order)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

GAME_NAME = "game name"


def name_of(names: dict[int, str], seat) -> str:
    """A seat's name; a seat the table does not have (an old test game) is named by its number."""
    if isinstance(seat, int) and seat in names:
        return names[seat]
    return _("Player %(number)s") % {"number": seat + 1 if isinstance(seat, int) else "?"}


def listing(items) -> str:
    """Items as a list in the reader's language ("a, b, c"; "a、b、c" in Chinese)."""
    return pgettext("list separator", ", ").join(str(i) for i in items or [])


def alternatives(items) -> str:
    return _(" or ").join(str(i) for i in items or [])


def game_title(title: str) -> str:
    """A game's name in the reader's language (Topoum is 鼴鼠大兵 in Traditional Chinese)."""
    return pgettext(GAME_NAME, title) if title else title


def all_of(items) -> str:
    """Items as "a, b and c" in the reader's language ("a、b與 c" in Chinese)."""
    items = [str(i) for i in items or []]
    if len(items) < 2:
        return "".join(items)
    return pgettext("list end", "%(items)s and %(last)s") % {"items": listing(items[:-1]), "last": items[-1]}
