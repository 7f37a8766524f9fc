"""`manage.py recompute_ratings` rebuilds every rating from the finished rated games in order: the same numbers."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games import services
from ratings.models import RatedGame, Rating, RatingChange
from tests.games.tables import everyone_played
from tests.ratings.helpers import people, played, table_of

pytestmark = pytest.mark.django_db

RATING_FIELDS = ("user_id", "key", "mu", "sigma", "value", "games", "updated_at")
CHANGE_FIELDS = (
    "rated_game_id",
    "game_id",
    "user_id",
    "key",
    "rank",
    "mu_before",
    "sigma_before",
    "value_before",
    "games_before",
    "mu_after",
    "sigma_after",
    "value_after",
    "created_at",
)


def snapshot():
    ratings = sorted(Rating.objects.values_list(*RATING_FIELDS))
    changes = list(RatingChange.objects.order_by("id").values_list(*CHANGE_FIELDS))
    return ratings, changes


def test_recomputing_gives_exactly_the_numbers_applied_as_games_finished():
    ana, bruno, chen, dora = people("ana", "bruno", "chen", "dora")
    played([ana, bruno])
    played([chen, ana, dora])
    played([bruno, chen, dora, ana])
    played([dora, bruno], "toppo", hands=1)
    played([ana, chen], rated=False)  # unrated: stays out of the replay
    resigned = everyone_played(table_of([bruno, ana]))
    services.game_resign(game_id=resigned.pk, user=bruno)  # ended by a resignation once both had played
    live_toppo = everyone_played(table_of([chen, dora], "toppo", pace="live", turn_seconds=60, hands=1))
    services.game_resign(game_id=live_toppo.pk, user=dora)
    # Before anyone moved: aborted, so it rates nothing now or in the replay (ruling S1, turn 3).
    assert services.game_resign(game_id=table_of([ana, dora]).pk, user=ana).status == "aborted"
    live = snapshot()
    assert len(live[1]) == 2 + 3 + 4 + 2 + 2 + 2
    assert {r[1] for r in live[0]} == {"toppo-correspondence", "topology", "toppo-live"}

    # Someone scribbles over the ratings; the command puts back exactly what the games say.
    Rating.objects.update(mu=1.0, sigma=1.0, value=0, games=99)
    RatingChange.objects.filter(user=ana).delete()
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert snapshot() == live
    assert f"Replayed {RatedGame.objects.count()} rated games" in out.getvalue()

    # From the seeds and the logs alone (rulings S1, G0.2): the same ranks, so the same numbers.
    out = StringIO()
    call_command("recompute_ratings", "--from-logs", stdout=out)
    assert "Every published ranking matches its replayed log." in out.getvalue()
    assert snapshot() == live


def test_recomputing_twice_changes_nothing():
    ana, bruno = people("ana", "bruno")
    played([ana, bruno])
    played([bruno, ana])
    call_command("recompute_ratings", stdout=StringIO())
    once = snapshot()
    call_command("recompute_ratings", stdout=StringIO())
    assert snapshot() == once


def test_from_the_logs_a_wrong_published_rank_is_named_and_the_logs_ranks_are_used():
    ana, bruno = people("ana", "bruno")
    game = played([ana, bruno])
    live = snapshot()
    seats = list(game.seats.order_by("index"))
    for seat, wrong in zip(seats, reversed([s.rank for s in seats])):
        type(seat).objects.filter(pk=seat.pk).update(rank=wrong if wrong != seat.rank else seat.rank + 1)
    out = StringIO()
    call_command("recompute_ratings", "--from-logs", stdout=out)
    assert f"differ from the replayed log in games {game.pk};" in out.getvalue()
    assert snapshot() == live
