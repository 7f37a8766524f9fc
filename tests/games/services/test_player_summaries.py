"""The per-player per-game summaries (PlayerGameStats, decision 16 point 4) equal a count over the seats, whatever
way the games ended: played out, resigned, abandoned after three missed deadlines, aborted (which counts for
nothing); the data migration's rebuild makes the same rows; the profile page's query
count does not grow with her games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game, PaceProfile, PlayerGameStats
from games.selectors.player_stats import game_stats
from games.services.player_summaries import player_summaries_rebuild
from tests.games.tables import decide, everyone_played
from tests.games.test_player_stats import aborted, expected_stats, resigned, shown_stats
from tests.web.test_web_end_of_game import finished

pytestmark = pytest.mark.django_db


def timed_out(owner, member) -> Game:
    """A Topology game whose first player misses every deadline: after three in a row she has left (ruling S1),
    and the site plays her seat to the end while the other plays hers."""
    game = _table(owner, member)
    game = everyone_played(services.game_start(user=owner, game_id=game.pk))  # then she sleeps (ruling S1, turn 3)
    (sleeper,) = game.to_act
    awake = game.seats.get(index=1 - sleeper).user
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            break
        if game.to_act == [sleeper]:
            game.seats.filter(index=sleeper).update(deadline=timezone.now() - timedelta(seconds=1))
            services.deadline_expire(game_id=game.pk, seat=sleeper, version=game.version)
        else:
            decide(game, awake)
    assert game.status == Game.Status.FINISHED and game.seats.get(index=sleeper).abandoned
    return game


def _table(owner, member) -> Game:
    game = services.game_create(user=owner, kind="topology", players=2)
    services.game_join(user=member, game_id=game.pk)
    return game


def summaries(user) -> dict[str, dict]:
    return shown_stats(game_stats(user))


def test_the_summaries_equal_a_count_over_the_seats_however_the_games_ended(owner, member):
    finished("topology", owner, member)
    finished("toppo", owner, member)
    finished("topoum", owner, member)
    resigned(owner, member)
    timed_out(owner, member)
    for person in (owner, member):
        assert summaries(person) == expected_stats(person)
    assert summaries(owner)["topology"]["played"] == 3 and summaries(member)["topology"]["played"] == 3
    assert summaries(member)["topology"]["left"] + summaries(owner)["topology"]["left"] == 2
    assert not PlayerGameStats.objects.filter(user__isnull=True).exists()


def test_an_aborted_game_changes_nothing(owner, member):
    finished("topology", owner, member)
    before = {u.pk: summaries(u) for u in (owner, member)}
    aborted(owner, member)
    assert {u.pk: summaries(u) for u in (owner, member)} == before
    assert summaries(owner) == expected_stats(owner)


def test_the_rebuild_makes_the_rows_the_games_wrote(owner, member):
    finished("topology", owner, member)
    resigned(owner, member)
    finished("toppo", owner, member)
    aborted(owner, member)
    written = sorted(
        PlayerGameStats.objects.values_list(
            "user_id", "kind", "played", "won", "left", "rank_total", "seats_total", "last_finished"
        )
    )
    assert player_summaries_rebuild() == len(written) == 4
    assert (
        sorted(
            PlayerGameStats.objects.values_list(
                "user_id", "kind", "played", "won", "left", "rank_total", "seats_total", "last_finished"
            )
        )
        == written
    )


def test_the_profile_page_makes_as_many_queries_after_30_games_as_after_3(client, owner, member):
    # Decision 29: the page reads her kept PaceProfile and computes it only when missing or stale
    # (games.selectors.pace).  That one-off computation is measured apart: with the profile kept, and with none kept,
    # each count is the same after 30 games as after 3 (the first view of the page must not be compared with the
    # second).
    def queries(*, kept: bool) -> int:
        if not kept:
            PaceProfile.objects.filter(user=owner).delete()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("player", args=["ana"])).status_code == 200
        return len(captured)

    for _ in range(3):
        finished("toppo", owner, member)
    few_cold, few = queries(kept=False), queries(kept=True)
    for _ in range(27):
        finished("toppo", owner, member)
    assert queries(kept=True) == few
    assert queries(kept=False) == few_cold
    assert summaries(owner)["toppo"]["played"] == 30
    client.force_login(owner)  # her own page also lists where others wait for her
    own = queries(kept=True)
    finished("toppo", owner, member)
    assert queries(kept=True) == own
