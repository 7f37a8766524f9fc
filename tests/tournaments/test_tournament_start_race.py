"""Two sweeps starting one tournament at the same moment (a second beat by mistake, a redelivered task): the row
lock lets one deal the tables and the other find it started.  PostgreSQL only: SQLite proves nothing here."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.services import user_create
from games.models import Game
from tests.games.test_concurrency import run_threads
from tournaments import services
from tournaments.models import Tournament, TournamentTable

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_starts_at_once_deal_the_tables_once():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos")
    people = [
        user_create(username=f"r{i}", email=f"r{i}@example.com", password="a-long-test-password") for i in range(4)
    ]
    tournament = services.tournament_create(
        user=people[0],
        name="Race",
        kind="topology",
        players=2,
        starts_at=timezone.now() + timedelta(hours=1),
        min_entrants=4,
    )
    for person in people[1:]:
        services.tournament_register(user=person, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))

    outcomes = run_threads(4, lambda i: services.tournament_start(tournament_id=tournament.pk).status)

    assert outcomes == [Tournament.Status.RUNNING] * 4, outcomes
    assert TournamentTable.objects.filter(tournament=tournament).count() == 6
    assert Game.objects.count() == 6
