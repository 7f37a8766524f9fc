"""The game log in the reader's language (issue 13): the engines log data, the site says it in words.

Each `Action` row keeps the engine's entry (`Action.entry`): a list of phrases, each a dict with a
"code" (e.g. "toppo.reveal") and its parameters (seats as indexes, cards, cells), never a sentence.
The words are made here, when a page, the API, a notification or an email shows them, in the
language active then (a request's, or `accounts.personal.her_words(recipient)` in the worker),
with the players' names rather than seat numbers.  Each game keeps its own words next to its
presenter: `games/presenters/<game>_words.py`, with a function `entry_words(entry, names)`.
"""

from __future__ import annotations

import importlib

from django.utils.translation import gettext as _

from engine.bots import levels as bot_levels

from .engine_texts import engine_text


def seat_names(game) -> dict[int, str]:
    """Each seat's name as the reader reads it: the player's, or the bot's level in her language."""
    levels = bot_levels()
    names = {}
    for seat in game.seats.all():
        if seat.user_id is not None:
            names[seat.index] = seat.user.username
        else:
            label = levels.get(seat.bot_level or "", {}).get("label", seat.bot_level or "")
            names[seat.index] = _("Bot (%(level)s)") % {"level": engine_text(label)}
    return names


def _words_module(kind: str):
    try:
        return importlib.import_module(f"games.presenters.{kind}_words")
    except ModuleNotFoundError:
        return None


def name_of(names: dict[int, str], seat) -> str:
    """A seat's name; a seat the table does not have (an old test game) is named by its number."""
    if isinstance(seat, int) and seat in names:
        return names[seat]
    return _("Player %(number)s") % {"number": seat + 1 if isinstance(seat, int) else "?"}


def entry_words(kind: str, entry, names: dict[int, str]) -> str:
    """One log entry of a `kind` game in the active language; "" for an empty entry."""
    if not entry:
        return ""
    module = _words_module(kind)
    if module is not None:
        return module.entry_words(entry, names)
    return generic_words(entry, names)


def generic_words(entry: list[dict], names: dict[int, str]) -> str:
    """The words of a game without words of its own: who did which action."""
    parts = []
    for phrase in entry:
        parts.append(
            _("%(name)s: %(action)s.") % {"name": name_of(names, phrase.get("seat")), "action": phrase.get("type", "")}
        )
    return " ".join(parts)
