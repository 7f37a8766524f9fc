"""Parallel requests against one limit on PostgreSQL: however they interleave, no more than the limit pass.

Threads get their own database connections; SQLite serialises whole transactions and proves nothing here.
"""

import pytest

from accounts import limits
from accounts.models import LimitHit
from tests.games.test_concurrency import run_threads

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_burst_of_parallel_attempts_gets_no_more_than_the_limit(settings):
    settings.TOPOS_RATE_LIMITS = {"login-account": (5, 900)}
    outcomes = run_threads(16, lambda i: limits.take([("login-account", "ana")]))
    granted = [o for o in outcomes if isinstance(o, limits.Grant)]
    refused = [o for o in outcomes if isinstance(o, limits.Refusal)]
    assert len(granted) + len(refused) == 16, outcomes
    assert len(granted) <= 5  # (all may step back when all count at once: refusing too many is the safe side)
    assert LimitHit.objects.count() == len(granted)  # the refused ones took their rows back
    # What is left of the limit is still there to use, and no more.
    after = [limits.take([("login-account", "ana")]) for _ in range(6)]
    assert sum(isinstance(o, limits.Grant) for o in after) == 5 - len(granted)
