"""Words the engines show people (game names, option labels, help and values, bot levels), translated.

The engines never import Django (COMMON.md), so their words are listed below for makemessages
and looked up here when a page shows them.  tests/web/test_i18n.py fails when an engine gains
a word that is missing from the catalogues.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

GAME_NAME = "game name"
OPTION_VALUE = "option value"


def game_title(title: str) -> str:
    """A game's name in the reader's language (Topoum is 鼴鼠大兵 in Traditional Chinese)."""
    return pgettext(GAME_NAME, title) if title else title


def engine_text(text: str) -> str:
    """An option's label or help, or a bot level's label, translated; empty stays empty."""
    return gettext(text) if text else text


# What each bot level plays like (engine.bots.levels), for people choosing one.
BOT_LEVEL_DESCRIPTIONS = {
    "random": gettext_noop("Plays any legal move. For learning the rules."),
    "greedy": gettext_noop("Takes the move that scores most right now."),
    "strong": gettext_noop("Looks ahead: tries its best moves against the likely replies, over what it cannot see."),
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


# Only here to be extracted by makemessages; never read.
_EXTRACTED = [
    # Game names: in each game's words module (games/presenters/<game>_words.py, TITLE).
    # Topology options.
    gettext_noop("Advanced variant"),
    gettext_noop("Two players only: reveal two tiles, then reveal a third or turn a placed tile half a turn."),
    # Topoum options.
    gettext_noop("Action deck"),
    gettext_noop("A preset deck, seven random types (one of each category at least), or the types you choose."),
    pgettext_lazy("option value", "preset"),
    pgettext_lazy("option value", "random"),
    pgettext_lazy("option value", "custom"),
    gettext_noop("Preset"),
    gettext_noop("Recruits, Tacticians, Duel (2 players) or Strategists."),
    pgettext_lazy("option value", "recruits"),
    pgettext_lazy("option value", "tacticians"),
    pgettext_lazy("option value", "duel"),
    pgettext_lazy("option value", "strategists"),
    gettext_noop("Card types"),
    gettext_noop("For a custom deck: seven card types with at least one of each category."),
    pgettext_lazy("option value", "bayonet"),
    pgettext_lazy("option value", "short range"),
    pgettext_lazy("option value", "long range"),
    pgettext_lazy("option value", "grenade"),
    pgettext_lazy("option value", "mortar attack"),
    pgettext_lazy("option value", "slingshot"),
    pgettext_lazy("option value", "advance"),
    pgettext_lazy("option value", "underground maneuver"),
    pgettext_lazy("option value", "motorbike patrol"),
    pgettext_lazy("option value", "panic attack"),
    pgettext_lazy("option value", "tunnel"),
    pgettext_lazy("option value", "decoy"),
    pgettext_lazy("option value", "build barracks"),
    pgettext_lazy("option value", "abandoned barracks"),
    pgettext_lazy("option value", "conquest"),
    pgettext_lazy("option value", "betrayal"),
    pgettext_lazy("option value", "new soldier"),
    pgettext_lazy("option value", "prisoner of war"),
    pgettext_lazy("option value", "medal of honor"),
    pgettext_lazy("option value", "press support"),
    pgettext_lazy("option value", "red cross"),
    pgettext_lazy("option value", "farmer"),
    gettext_noop("Farmer"),
    gettext_noop("Used when 'Farmer is coming!' is in the deck."),
    pgettext_lazy("option value", "kings of buckets"),
    pgettext_lazy("option value", "the crusher"),
    pgettext_lazy("option value", "the sprayer"),
    pgettext_lazy("option value", "queen of nature"),
    pgettext_lazy("option value", "lady boom"),
    pgettext_lazy("option value", "trap master"),
    pgettext_lazy("option value", "the stomper"),
    pgettext_lazy("option value", "lord of the crates"),
    gettext_noop("Obstacles (expert variant)"),
    gettext_noop("Board radius"),
    gettext_noop("Line of Operations medals"),
    gettext_noop("Medals gained (or lost) for taking the card in slots 1 to 5."),
    # Toppo options ("pace" is the table's own, asked by the form itself).
    gettext_noop("Hands"),
    gettext_noop("How many hands the match has; the lowest penalty total after the last one wins."),
    gettext_noop(
        "Live: everybody online, no turns, the fastest correct call wins. Correspondence: rounds of sealed "
        "claims, resolved in a priority order that moves on one seat each round."
    ),
    # Bot levels.
    gettext_noop("Random"),
    gettext_noop("Greedy"),
    gettext_noop("Strong"),
]
