"""Two rated games finishing at once for the same player, on PostgreSQL: neither update is lost (ruling S5).

Threads get their own database connections, so the Rating row locks of ratings.services are exercised for
real; SQLite serialises whole transactions and proves nothing here.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games import services
from ratings.models import RatedGame, Rating, RatingChange
from tests.games.tables import everyone_played
from tests.games.test_concurrency import run_threads
from tests.ratings.helpers import people, table_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_games_finishing_together_both_change_the_shared_players_rating():
    ana, *others = people("ana", "bruno", "chen", "dora", "emil")
    games = [everyone_played(table_of([ana, other])) for other in others]  # ruling S1, turn 3

    # Each opponent resigns at the same moment: every game ends (and is rated) in its own transaction.
    outcomes = run_threads(len(games), lambda i: services.game_resign(game_id=games[i].pk, user=others[i]))
    assert all(not isinstance(o, Exception) for o in outcomes), outcomes

    rating = Rating.objects.get(user=ana, key="topology")
    assert rating.games == len(games)
    chain = list(RatingChange.objects.filter(user=ana).order_by("rated_game_id"))
    assert [c.games_before for c in chain] == list(range(len(games)))
    for earlier, later in zip(chain, chain[1:]):
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)
    assert (rating.mu, rating.sigma) == (chain[-1].mu_after, chain[-1].sigma_after)
    assert RatedGame.objects.count() == len(games)

    # The order they were rated in is the order a recompute replays: the same numbers.
    before = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    call_command("recompute_ratings", stdout=StringIO())
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")) == before
