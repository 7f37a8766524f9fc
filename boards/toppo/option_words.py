"""Toppo's option labels, help and values as its engine declares them, listed here for makemessages
(the engine never imports Django; games.engine_texts looks them up when a page shows them).  Never read:
tests/boards/test_option_words.py checks that every word the engine declares is listed.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

EXTRACTED = [
    # "pace" is the table's own option, asked by the new-table form itself.
    gettext_noop("Hands"),
    gettext_noop("How many hands the match has; the lowest penalty total after the last one wins."),
    gettext_noop(
        "Live: everybody online, no turns, the fastest correct call wins. Correspondence: rounds of sealed "
        "claims, resolved in a priority order that moves on one seat each round."
    ),
]
