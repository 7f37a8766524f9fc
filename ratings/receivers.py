"""What ratings does when games calls its hooks (games.hooks): registered in RatingsConfig.ready().

Games comes before ratings in the apps' order (docs/architecture.md), so it never imports ratings: it calls these
by hook name when a game finishes or is withdrawn, and to show each player's rating beside her seat.
"""

from __future__ import annotations

from engine.core import all_games

from . import bot_strength, selectors, services
from .keys import rating_key


def game_finished(*, game) -> None:
    services.game_rate(game)  # ruling S5: in the finishing transaction, so never lost and never twice
    selectors.forget_seat_ratings(game)  # the answer shows the ratings this game made, not those read with the seats


def game_result_withdrawn(*, game) -> None:
    services.game_unrate(game)


def finished_results_changed() -> None:
    services.ratings_recompute()


def seat_annotations(*, game) -> dict:
    return selectors.rating_annotations(game)


def seats_annotated(*, game) -> None:
    selectors.keep_annotated_ratings(game)


def seats_prefetch(*, games) -> None:
    selectors.prefetch_seat_ratings(games)


def seat_badges(*, game) -> dict:
    return {"rating": selectors.seat_ratings(game)}  # ruling S5: her rating in this game's key, beside her name


def _rating_key_sql() -> str:
    """The game's rating key (keys.rating_key) in SQL, from its kind and pace (the game's alias is g)."""
    whens = []
    for kind, engine in sorted(all_games().items()):
        paces = engine.paces if len(engine.paces) > 1 else ("",)
        if paces == ("",):
            whens.append(f"WHEN '{kind}' THEN '{rating_key(kind, '')}'")
        else:
            whens.append(f"WHEN '{kind}' THEN '{kind}-' || g.\"pace\"")
    return f'CASE g."kind" {" ".join(whens)} END'


def locked_seat_sql() -> dict:
    """Each seat's rating in the game's key, in the move's one statement (decision 28), as seat_annotations gives
    it to a queryset: rating_value and rating_games, which seats_annotated keeps."""
    return {
        "columns": ['r."value"', 'r."games"'],
        "join": f'LEFT JOIN "ratings_rating" r ON r."user_id" = s."user_id" AND r."key" = {_rating_key_sql()} ',
        "attrs": ["rating_value", "rating_games"],
    }


def finished_seat_changes(*, game) -> dict:
    # Ruling S5: what the game did to each player's rating (none at an unrated table).
    return {"rating": selectors.rating_changes_of_game(game) if game.rated else {}}


def player_ratings(*, person) -> list[dict]:
    return selectors.rating_histories(person)


def bot_strengths(*, kind: str) -> list[dict]:
    return bot_strength.worded_strengths(kind)


def bot_level_ratings() -> dict:
    return bot_strength.ratings_by_level()


RECEIVERS = {
    "game_finished": game_finished,
    "game_result_withdrawn": game_result_withdrawn,
    "finished_results_changed": finished_results_changed,
    "seat_annotations": seat_annotations,
    "seats_annotated": seats_annotated,
    "seats_prefetch": seats_prefetch,
    "seat_badges": seat_badges,
    "locked_seat_sql": locked_seat_sql,
    "finished_seat_changes": finished_seat_changes,
    "player_ratings": player_ratings,
    "bot_strengths": bot_strengths,
    "bot_level_ratings": bot_level_ratings,
}
