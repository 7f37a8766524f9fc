"""What a finished table page shows under the headline: how the game scores, the standings, the score chart,
and the viewer's next game waiting for her."""

from __future__ import annotations

from ratings.selectors import rating_changes_of_game

from . import selectors
from .models import Game
from .presenters import game_module
from .score_chart import finished_chart


def scoring_words(kind: str) -> str:
    """How the final scores were made, in the reader's language (what a bare "12 medals" beside 185 leaves out):
    the game's own words (games/presenters/<game>_words.py), or nothing."""
    words = game_module(kind, "words")
    return words.scoring_words() if words else ""


def next_waiting_game(user, exclude: int) -> Game | None:
    """The viewer's first running game where it is her turn (games.selectors: waiting first)."""
    if user is None:
        return None
    for game in selectors.games_of_user_sorted(user=user):
        mine = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        if (
            game.pk != exclude
            and game.status == Game.Status.RUNNING
            and mine
            and not mine.abandoned
            and mine.index in game.to_act
        ):
            return game
    return None


def plain(value):
    """A score as people write it: 40, not 40.0 (the engines count in floats)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def end_of_game(game: Game, detail: dict, names: list[str], user) -> dict:
    # Ruling S5: what the game did to each player's rating (none at an unrated table).
    changes = rating_changes_of_game(game) if game.rated else {}
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
                "rating": changes.get(users.get(s["index"])),
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
        "standings": standings,
        "chart": chart,
        "rated": bool(changes),
        "next_game": next_waiting_game(user, game.pk),
    }
