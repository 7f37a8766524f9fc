"""Which rating a game changes (ruling S5): one per game, and for Toppo one per pace."""
from __future__ import annotations

from django.utils.translation import gettext as _

from engine.core import all_games
from games.engine_texts import game_title

# Ruling S5: Toppo keeps a separate rating for each pace; the other games have one pace only.
PER_PACE = {"toppo": ("correspondence", "live")}


def rating_key(kind: str, pace: str) -> str:
    """The rating a finished game of `kind` at `pace` changes: 'topology', 'toppo-live', ..."""
    return f"{kind}-{pace}" if kind in PER_PACE else kind


def rating_keys() -> list[str]:
    """Every rating there is, in the order the leaderboards list them."""
    keys = []
    for kind in sorted(all_games()):
        keys += [rating_key(kind, pace) for pace in PER_PACE.get(kind, ("",))]
    return keys


def key_label(key: str) -> str:
    """'Toppo (live)', 'Topology', in the reader's language."""
    kind, _sep, pace = key.partition("-")
    games = all_games()
    title = game_title(games[kind].title) if kind in games else kind
    if pace == "live":
        return _("%(game)s (live)") % {"game": title}
    if pace == "correspondence":
        return _("%(game)s (correspondence)") % {"game": title}
    return title
