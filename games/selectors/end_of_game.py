"""What a finished table page shows under the headline: how the game scores, the standings, the score chart,
and the viewer's next game waiting for her."""

from __future__ import annotations

from boards.registry import game_module

from .. import hooks
from ..models import Game
from ..ranking import tie_words, ties
from . import tables as selectors
from .score_chart import finished_chart


def scoring_words(kind: str) -> str:
    """How the final scores were made, in the reader's language (what a bare "12 medals" beside 185 leaves out):
    the game's own words (boards/<game>/words.py), or nothing."""
    words = game_module(kind, "words")
    return words.scoring_words() if words else ""


def next_waiting_game(user, exclude: int) -> Game | None:
    """The viewer's most urgent game where it is her turn (games.selectors: the soonest deadline first)."""
    if user is None:
        return None
    waiting = selectors.tables_of_user_by_urgency(user=user, finished=False).filter(urgency=selectors.MY_TURN)
    return waiting.exclude(pk=exclude).first()


def plain(value):
    """A score as people write it: 40, not 40.0 (the engines count in floats)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def end_of_game(game: Game, detail: dict, names: list[str], user) -> dict:
    # What later apps add to each player's line (games.hooks): ruling S5, what the game did to her rating ("rating").
    changes = hooks.finished_seat_changes.merged(game=game)
    users = {s.index: s.user_id for s in game.seats.all()}
    standings = sorted(
        (
            {
                "index": s["index"],
                "name": names[s["index"]],
                "player": s["player"],
                "rank": s.get("rank"),
                "score": plain(s.get("score")),
                "left": s["abandoned"],
                **{field: per_user.get(users.get(s["index"])) for field, per_user in changes.items()},
            }
            for s in detail["seats"]
        ),
        key=lambda s: (s["rank"] or 99, s["index"]),
    )
    chart = finished_chart(game)
    if chart:
        chart.update(low=plain(chart["low"]), high=plain(chart["high"]))
        for line in chart["lines"]:
            line.update(name=names[line["seat"]], last=plain(line["last"]))
    return {
        "scoring": scoring_words(game.kind),
        # Which rule decided each tie of scores (L7, T20...): the headline's winner explained.
        "ties": [tie_words(game.kind, tie, names) for tie in ties(game)],
        "standings": standings,
        "chart": chart,
        "rated": any(changes.values()),  # ruling S5: the game changed ratings (an unrated one, nothing)
        "next_game": next_waiting_game(user, game.pk),
    }
