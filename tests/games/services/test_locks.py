"""Row locks for writes to a table (games.services.locks): the game, then its seats, each FOR NO KEY UPDATE."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.services.locks import game_locked, seat_locked
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def test_the_game_then_its_seat_are_read_locked_and_a_missing_game_is_none(owner, member):
    game = started_topology(owner, member)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = game_locked(game.pk)
        seat = seat_locked(locked, 1)
        assert game_locked(game.pk + 1000) is None
    assert locked.pk == game.pk and (seat.game_id, seat.index) == (game.pk, 1)
    if connection.features.has_select_for_no_key_update:  # PostgreSQL; SQLite has no row locks
        # NO KEY UPDATE, not UPDATE: an insert pointing at the game (an action) must not wait for it.
        assert all("FOR NO KEY UPDATE" in q["sql"] for q in queries.captured_queries)
