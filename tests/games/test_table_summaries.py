"""Lists of tables (home page, profile, player page, API lists) are built by selectors.table_summaries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.models import Game
from games.services.vacation import vacation_start

pytestmark = pytest.mark.django_db


def correspondence_tables(owner, member, n: int) -> list[Game]:
    games = []
    for _ in range(n):
        game = services.game_create(
            user=owner, kind="topology", players=2, options={}, pace="correspondence", turn_seconds=86400
        )
        services.game_join(user=member, game_id=game.pk)
        games.append(services.game_start(user=owner, game_id=game.pk))
    return games


def summaries_queries(owner, ids) -> tuple[list[dict], int]:
    games = Game.objects.filter(pk__in=ids).select_related("created_by").prefetch_related("seats__user")
    with CaptureQueriesContext(connection) as queries:
        rows = selectors.table_summaries(games.order_by("pk"), owner)
    return rows, len(queries)


def test_a_longer_list_of_running_tables_costs_no_more_queries(owner, member):
    # Ratings and vacations are looked up once for the whole list, not once per table.
    few = [g.pk for g in correspondence_tables(owner, member, 2)]
    many = few + [g.pk for g in correspondence_tables(owner, member, 5)]
    _, with_few = summaries_queries(owner, few)
    rows, with_many = summaries_queries(owner, many)
    assert len(rows) == 7
    assert with_many == with_few


def test_the_list_shows_who_is_on_vacation_at_each_running_table(owner, member):
    # ruling S4: her opponents see that her correspondence clocks stand still.
    games = correspondence_tables(owner, member, 3)
    vacation_start(user=member, days=3)
    rows, _ = summaries_queries(owner, [g.pk for g in games])
    assert len(rows) == 3
    for row in rows:
        seats = {s["player"]: s for s in row["seats"]}
        assert seats[member.username]["on_vacation_until"] is not None
        assert seats[member.username]["clock_stopped"] and seats[member.username]["deadline"] is None
        assert seats[owner.username]["on_vacation_until"] is None
