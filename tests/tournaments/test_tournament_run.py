"""THE tournament test (decision 17, point 5): four people enter a Topology round robin, the beat starts it at its
start time, every table is played to its end by the site's own bot engine choosing each entrant's decisions from
her seat's view and submitting them through the move service, and the tournament ends by itself with its standings
and a winner.  Tasks run in this process (`celery_eager`): the game effects, and the task a finished table sends to
settle its tournament."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_create
from engine.bots import choose_action
from engine.core import get_game
from games import services as game_services
from games.models import Game
from notifications.models import Notification, NotificationEvent
from tests.games.tables import read_by_her
from tournaments import services, tasks
from tournaments.models import Tournament
from tournaments.selectors import tournament_detail

pytestmark = pytest.mark.django_db(transaction=True)


def sweep():
    """The beat's sweep, sent as beat sends it and run at once (celery_eager).

    A worker started in this process by an earlier test marks the process as one where waiting on a result
    would block a worker; here nothing waits on a worker, the task has already run, so that guard does not apply.
    """
    return tasks.tournaments_sweep.delay().get(disable_sync_subtasks=False)


def _play_to_the_end(game: Game, users: dict) -> int:
    """Each entrant to decide plays the random bot's choice from her own view, through action_submit."""
    engine = get_game(game.kind)
    moves = 0
    while True:
        game.refresh_from_db()
        if not game.is_running:
            return moves
        seat = game.seats.get(index=game.to_act[0])
        state = engine.load(game.state)
        action = choose_action("random", engine, state.view(seat.index), seat.index, f"{game.pk}:{game.version}")
        game_services.action_submit(
            game_id=game.pk, user=users[seat.user_id], action=action, expected_version=game.version
        )
        moves += 1
        assert moves < 1000, "a game that never ends"


def test_four_entrants_play_a_topology_round_robin_to_its_end(celery_eager):
    people = [
        user_create(username=name, email=f"{name}@example.com", password="a-long-test-password")
        for name in ("ana", "bruno", "chen", "dora")
    ]
    users = {u.pk: u for u in people}
    now = timezone.now()
    tournament = services.tournament_create(
        user=people[0],
        name="Autumn rings",
        kind="topology",
        players=2,
        starts_at=now + timedelta(hours=1),
        min_entrants=4,
        max_entrants=4,
    )
    for person in people[1:]:
        services.tournament_register(user=person, tournament_id=tournament.pk)

    # Not due yet: the beat leaves it alone.
    assert sweep() == {"started": 0, "finished": 0}
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=now - timedelta(seconds=1))
    assert sweep()["started"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING

    games = list(Game.objects.filter(tournament_table__tournament=tournament).order_by("tournament_table__number"))
    assert len(games) == 6 and all(g.is_running for g in games)  # every pair of four, once
    assert {frozenset(g.seats.values_list("user_id", flat=True)) for g in games} == {
        frozenset((a.pk, b.pk)) for i, a in enumerate(people) for b in people[i + 1 :]
    }
    for person in people:  # told once that it started, and of the 3 games each plays
        notes = Notification.objects.filter(recipient=person, kind=NotificationEvent.TOURNAMENT)
        assert [n.key for n in notes] == [f"tournament:{tournament.pk}:started"]
        assert "3 games" in read_by_her(notes[0])

    for game in games[:-1]:
        assert _play_to_the_end(game, users) > 0
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RUNNING  # a table is still being played
    _play_to_the_end(games[-1], users)

    # The last table's end settled the tournament through its task, with no beat needed.
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.finished_at is not None
    detail = tournament_detail(tournament)
    standings = detail["standings"]
    assert [row["place"] for row in standings] == [1, 2, 3, 4]
    assert sum(row["points"] for row in standings) == 6  # one point a game between the four
    assert all(row["played"] == 3 for row in standings)
    points = [row["points"] for row in standings]
    assert points == sorted(points, reverse=True)
    assert tournament.winner.username == standings[0]["username"] == detail["winner"]
    for person in people:
        note = Notification.objects.get(recipient=person, key=f"tournament:{tournament.pk}:finished")
        assert tournament.winner.username in read_by_her(note)
    # Sweeping again changes nothing and tells nobody twice.
    assert sweep() == {"started": 0, "finished": 0}
    assert Notification.objects.filter(kind=NotificationEvent.TOURNAMENT).count() == 8


def test_four_entrants_at_tables_of_three_play_every_trio_to_the_end(celery_eager):
    """Groups: four entrants at Topology tables of three play the four trios, each entrant once in every seat, and
    the points of a table of three (2, 1, 0, ruling S1's places) add up to the winner."""
    people = [
        user_create(username=name, email=f"{name}@example.com", password="a-long-test-password")
        for name in ("eva", "fei", "gil", "hana")
    ]
    users = {u.pk: u for u in people}
    tournament = services.tournament_create(
        user=people[0],
        name="Trios",
        kind="topology",
        players=3,
        starts_at=timezone.now() + timedelta(hours=1),
        min_entrants=4,
        rated=False,
    )
    for person in people[1:]:
        services.tournament_register(user=person, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep()
    games = list(Game.objects.filter(tournament_table__tournament=tournament))
    assert len(games) == 4 and all(g.players == 3 and g.is_running for g in games)
    seats = {(s.user_id, s.index) for g in games for s in g.seats.all()}
    assert len(seats) == 12  # every entrant once in each of the three seats
    for game in games:
        _play_to_the_end(game, users)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = tournament_detail(tournament)["standings"]
    assert sum(row["points"] for row in standings) == 4 * 3  # 2 + 1 + 0 at each of four tables
    assert all(row["played"] == 3 for row in standings)
    assert tournament.winner.username == standings[0]["username"]
