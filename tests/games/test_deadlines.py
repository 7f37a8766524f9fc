"""Missed deadlines (ruling S1): the site's bot plays the whole turn; three in a row abandon the seat."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Action, Game
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def expire(game: Game):
    game = Game.objects.get(pk=game.pk)
    (seat,) = game.to_act
    game.seats.filter(index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    return seat, services.deadline_expire(game_id=game.pk, seat=seat, version=game.version)


def test_a_missed_turn_is_played_whole_by_the_bot_and_counted_once(owner, member):
    game = started_topology(owner, member)
    seat, logged = expire(game)
    game.refresh_from_db()
    rows = list(Action.objects.filter(game=game).order_by("seq"))
    assert logged is not None and rows[-1].pk == logged.pk
    assert [r.action["type"] for r in rows] == ["place", "place", "place", "end_turn"]
    assert {r.source for r in rows} == {"timeout"} and {r.seat for r in rows} == {seat}
    assert game.to_act == [1 - seat]
    sat = game.seats.get(index=seat)
    assert sat.missed_deadlines == 1 and not sat.abandoned and sat.deadline is None
    assert game.seats.get(index=1 - seat).deadline > timezone.now()


def test_a_deadline_not_yet_passed_or_a_stale_version_does_nothing(owner, member):
    game = started_topology(owner, member)
    (seat,) = game.to_act
    assert services.deadline_expire(game_id=game.pk, seat=seat, version=game.version) is None
    game.seats.filter(index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(game_id=game.pk, seat=seat, version=game.version + 5) is None
    assert services.deadline_expire(game_id=game.pk, seat=1 - seat, version=game.version) is None
    assert Action.objects.filter(game=game).count() == 0


def test_three_missed_deadlines_in_a_row_abandon_the_seat_which_then_loses(owner, member):
    game = started_topology(owner, member)
    (sleeper,) = game.to_act
    awake_user = game.seats.get(index=1 - sleeper).user
    for _ in range(3):
        seat, _ = expire(game)
        assert seat == sleeper
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        # the other player moves herself, by the API's service
        while game.status == Game.Status.RUNNING and game.to_act == [1 - sleeper]:
            from engine.core import get_game

            action = next(
                a for a in get_game("topology").load(game.state).legal_actions(1 - sleeper) if a["type"] != "undo"
            )
            services.action_submit(game_id=game.pk, user=awake_user, action=action, expected_version=game.version)
            game.refresh_from_db()
    assert game.seats.get(index=sleeper).abandoned
    assert game.seats.get(index=sleeper).missed_deadlines == 3


def test_a_move_of_her_own_ends_the_run_of_missed_deadlines(owner, member):
    from engine.core import get_game

    game = started_topology(owner, member)
    (sleeper,) = game.to_act
    expire(game)  # the sleeper misses her first turn
    game.refresh_from_db()
    expire(game)  # the other player misses hers too, so the sleeper is to act again
    game.refresh_from_db()
    assert game.to_act == [sleeper]
    assert game.seats.get(index=sleeper).missed_deadlines == 1
    action = get_game("topology").load(game.state).legal_actions(sleeper)[0]
    services.action_submit(
        game_id=game.pk, user=game.seats.get(index=sleeper).user, action=action, expected_version=game.version
    )
    assert game.seats.get(index=sleeper).missed_deadlines == 0
    assert game.seats.get(index=1 - sleeper).missed_deadlines == 1
