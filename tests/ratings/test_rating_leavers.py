"""A seat that left ranks after those who stayed (ruling S1), and its rating says so (ruling S5).

The bot that takes over the seat plays in this process, at once (`celery_eager`), so the real tasks and
transactions run: the game finishes in the bot's or a person's transaction and is rated there.
"""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Game
from games.selectors.positions import load_state
from ratings.models import RatingChange
from tests.games.tables import everyone_played
from tests.ratings.helpers import expected_after, people, table_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def bots_answer(celery_eager):
    """The bot that takes over a seat that left plays in this process, at once."""


def play_people(game: Game) -> Game:
    """The people still playing make random legal moves (seeded) until the game is over."""
    rng = random.Random(5)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            return game
        seats = {s.index: s for s in game.seats.select_related("user")}
        seat = next(i for i in game.to_act if not seats[i].abandoned)
        actions = [a for a in load_state(game).legal_actions(seat) if a.get("type") != "undo"]
        services.action_submit(
            game_id=game.pk, user=seats[seat].user, action=rng.choice(actions), expected_version=game.version
        )


def test_a_player_who_resigned_ranks_last_and_loses_rating():
    ana, bruno, chen = people("ana", "bruno", "chen")
    game = everyone_played(table_of([ana, bruno, chen]))  # ruling S1, turn 3
    services.game_resign(game_id=game.pk, user=chen)
    game = play_people(game)
    assert game.status == Game.Status.FINISHED and game.rated
    seats = list(game.seats.order_by("index"))
    assert [s.rank for s in seats][2] == 3
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert changes[chen.pk].rank == 3 and changes[chen.pk].mu_after < changes[chen.pk].mu_before
    prior = (changes[ana.pk].mu_before, changes[ana.pk].sigma_before)
    for seat, (mu, sigma) in zip(seats, expected_after([prior] * 3, [s.rank for s in seats])):
        assert (changes[seat.user_id].mu_after, changes[seat.user_id].sigma_after) == pytest.approx((mu, sigma))
