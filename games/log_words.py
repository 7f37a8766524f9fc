"""The game log in the reader's language (decision 13): the engines log data, the site says it in words.

Each `Action` row keeps the engine's entry (`Action.entry`): a list of phrases, each a dict with a
"code" (e.g. "toppo.reveal") and its parameters (seats as indexes, cards, cells), never a sentence.
The words are made here, when a page, the API, a notification or an email shows them, in the
language active then (a request's, or `accounts.personal.her_words(recipient)` in the worker),
with the players' names rather than seat numbers.  Each game keeps its own words next to its
presenter: `boards/<game>/words.py`, with a function `entry_words(entry, names)`.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.names import shown_name
from boards.registry import game_module
from boards.wording import name_of  # noqa: F401  (shared with the games' words modules; callers here import it)
from engine.bots import levels as bot_levels

from .engine_texts import engine_text


def bot_name(level: str | None, index: int | None) -> str:
    """A bot's seat name in the reader's language: its level and its seat number, "Strong 2" (decision 26), so two
    bots of one level at a table are told apart in the log, the standings, the header, the exports and the API."""
    label = bot_levels().get(level or "", {}).get("label", level or "")
    level_text = engine_text(label) if label else _("Bot")
    if not isinstance(index, int):
        return level_text
    return _("%(level)s %(number)s") % {"level": level_text, "number": index + 1}


def seat_names(game) -> dict[int, str]:
    """Each seat's name as the reader reads it: the player's, or the bot's ("Strong 2") in her language."""
    names = {}
    for seat in game.seats.all():
        if seat.user_id is not None:
            names[seat.index] = shown_name(seat.user.username)  # ruling S8: "deleted player N"
        else:
            names[seat.index] = bot_name(seat.bot_level, seat.index)
    return names


def _words_module(kind: str):
    return game_module(kind, "words")


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
