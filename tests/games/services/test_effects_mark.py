"""The "dispatch queued" mark (games.services.effects_mark): on the GameEffects row without Redis, a Redis key with
it; either way set once until taken, trusted for QUEUED_FOR_AT_MOST only, and never the reason a dispatch is lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameEffects
from games.services.effects_mark import QUEUED_FOR_AT_MOST, mark_cleared, mark_queued, mark_taken
from tests.games.factories import started_topology
from tests.integration.workers import TEST_REDIS_URL, redis_problem

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_mark(settings):
    """The site has Redis (the test Redis): the mark is a key there, removed before and after the test."""
    problem = redis_problem(TEST_REDIS_URL)
    if problem:
        pytest.skip(problem)
    import redis

    settings.REDIS_URL = TEST_REDIS_URL
    client = redis.Redis.from_url(TEST_REDIS_URL)
    keys = lambda: client.keys("topos:effects:queued:*")  # noqa: E731
    for key in keys():
        client.delete(key)
    yield client
    for key in keys():
        client.delete(key)
    client.close()


def test_without_redis_the_mark_is_the_rows_and_the_dispatch_clears_it(owner, member, settings):
    settings.REDIS_URL = ""
    game = started_topology(owner, member)
    assert mark_queued(game.pk)  # the first change makes the row
    assert not mark_queued(game.pk)  # the next ones find the dispatch on its way
    mark_taken(game.pk)  # nothing here: the dispatch clears the row in its own transaction
    assert not mark_queued(game.pk)
    mark_cleared(game.pk)
    assert GameEffects.objects.get(game=game).queued_at is None
    assert mark_queued(game.pk)
    GameEffects.objects.filter(game=game).update(queued_at=timezone.now() - QUEUED_FOR_AT_MOST - timedelta(seconds=1))
    assert mark_queued(game.pk)  # a mark that old was a lost task's


@pytest.mark.redis
def test_with_redis_the_mark_is_a_key_that_runs_out_and_no_row_is_written(owner, member, redis_mark):
    game = started_topology(owner, member)
    assert mark_queued(game.pk)
    assert not mark_queued(game.pk)
    assert 0 < redis_mark.ttl(f"topos:effects:queued:{game.pk}") <= QUEUED_FOR_AT_MOST.total_seconds()
    assert not GameEffects.objects.filter(game=game).exists()
    mark_taken(game.pk)  # the task, before it reads the game
    assert mark_queued(game.pk)
    mark_cleared(game.pk)  # could not be sent
    assert mark_queued(game.pk)
    assert not GameEffects.objects.filter(game=game).exists()


def test_with_redis_unreachable_every_change_sends_its_dispatch(owner, member, settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens there
    game = started_topology(owner, member)
    assert mark_queued(game.pk) and mark_queued(game.pk)
    mark_taken(game.pk)  # logged, not raised: the task goes on to read the game
    mark_cleared(game.pk)
