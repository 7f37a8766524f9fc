"""Which rating a game changes (ruling S5): one per game, and one per pace for a game played at several."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.core import all_games
from games.engine_texts import game_title


def _paces(kind: str) -> tuple[str, ...]:
    """Ruling S5: a game played at several paces (Game.paces) keeps a separate rating for each; others one."""
    game = all_games().get(kind)
    return game.paces if game is not None and len(game.paces) > 1 else ("",)


def rating_key(kind: str, pace: str) -> str:
    """The rating a finished game of `kind` at `pace` changes: the game's name, with "-<pace>" when rated per pace."""
    return f"{kind}-{pace}" if _paces(kind) != ("",) else kind


def rating_keys() -> list[str]:
    """Every rating there is, in the order the leaderboards list them."""
    keys = []
    for kind in sorted(all_games()):
        keys += [rating_key(kind, pace) for pace in _paces(kind)]
    return keys


def key_label(key: str) -> str:
    """The rating's name in the reader's language: the game's title, and its pace when rated per pace."""
    kind, _sep, pace = key.partition("-")
    games = all_games()
    title = game_title(games[kind].title) if kind in games else kind
    if pace == "live":
        return _("%(game)s (live)") % {"game": title}
    if pace == "correspondence":
        return _("%(game)s (correspondence)") % {"game": title}
    return title
