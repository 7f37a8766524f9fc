"""Topology's option labels, help and values as its engine declares them, listed here for makemessages
(the engine never imports Django; games.engine_texts looks them up when a page shows them).  Never read:
tests/boards/test_option_words.py checks that every word the engine declares is listed.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

EXTRACTED = [
    gettext_noop("Advanced variant"),
    gettext_noop("Two players only: reveal two tiles, then reveal a third or turn a placed tile half a turn."),
]
