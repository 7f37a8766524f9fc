"""Words the engines show people (game names, option labels, help and values, bot levels), translated.

The engines never import Django (docs/architecture.md), so their words are listed below for makemessages
and looked up here when a page shows them.  tests/web/test_i18n.py fails when an engine gains
a word that is missing from the catalogues.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, pgettext

from boards.wording import GAME_NAME, game_title  # noqa: F401  (the boards' words name games too; callers import here)

OPTION_VALUE = "option value"


def engine_text(text: str) -> str:
    """An option's label or help, or a bot level's label, translated; empty stays empty."""
    return gettext(text) if text else text


# What each bot level plays like (engine.bots.levels), for people choosing one.
BOT_LEVEL_DESCRIPTIONS = {
    "random": gettext_noop("Plays any legal move. For learning the rules."),
    "beginner": gettext_noop(
        "Takes a move that scores well right now among the few it looks at. At a live table it reacts more "
        "slowly than a person."
    ),
    "greedy": gettext_noop(
        "Takes the move that scores most right now. At a live table it reacts about as fast as a person."
    ),
    "strong": gettext_noop(
        "Looks ahead: tries its best moves against the likely replies, over what it cannot see. At a live "
        "table it reacts faster than a person."
    ),
    "expert": gettext_noop(
        "Looks ahead like strong but weighs more moves over many more guesses at what it cannot see, and "
        "thinks longer. At a live table it reacts faster than a person."
    ),
}


def bot_level_description(level: str) -> str:
    """A bot level's description in the reader's language; empty for a level without one."""
    text = BOT_LEVEL_DESCRIPTIONS.get(level, "")
    return gettext(text) if text else ""


def option_value(value) -> str:
    """One value of an option as people read it: "short_range" -> "short range", translated."""
    if not isinstance(value, str):
        return str(value)
    return pgettext(OPTION_VALUE, value.replace("_", " "))


# Only here to be extracted by makemessages; never read.  Each game's option words are in its home
# (boards/<game>/option_words.py); game names in each game's words module (boards/<game>/words.py, TITLE).
_EXTRACTED = [
    # Bot levels.
    gettext_noop("Random"),
    gettext_noop("Greedy"),
    gettext_noop("Strong"),
    gettext_noop("Expert"),
]
