"""A move's answer from what the move read (decision 16): the same seats as a fresh read, the ratings it made.

The move reads the players' ratings and vacations with the seats, under the game's lock; the answer must not
differ from the table read afresh after it, and the move that ends a rated game must show the ratings that game
made (ruling S5), not those read before it.  A game without unconfirmed turns logs every move public (ruling S3).
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Action, Game
from games.selectors.positions import load_state
from games.services.vacation import vacation_start
from ratings.models import Rating
from tests.conftest import api_client_for
from tests.games.test_query_counts import _next_move
from tests.ratings.helpers import played, table_of

pytestmark = pytest.mark.django_db


def _move(api, game: Game, seat: int):
    action = next(a for a in load_state(game).legal_actions(seat) if a.get("type") != "undo")
    return api.post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
    )


def test_a_moves_answer_shows_the_ratings_and_vacations_a_fresh_read_shows(owner, member):
    played([owner, member])  # both rated once in Topology's key
    game = table_of([owner, member])
    vacation_start(user=member, days=7)
    seat = game.to_act[0]  # whoever the table's seed put first
    mine = api_client_for(game.seats.get(index=seat).user)
    answer = _move(mine, game, seat)
    assert answer.status_code == 200, answer.content
    seats = answer.json()["seats"]
    assert seats == mine.get(f"/api/tables/{game.pk}/").json()["seats"]
    his = next(s for s in seats if s["player"] == member.username)
    assert his["on_vacation_until"] is not None and his["clock_stopped"] is True
    assert [s["rating"]["games"] for s in seats] == [1, 1]


def test_the_move_that_ends_a_rated_game_answers_with_the_ratings_it_made(owner, member):
    game = table_of([owner, member], "toppo", hands=1)
    users = {s.index: s.user for s in game.seats.all()}
    rng = random.Random(7)  # random legal moves end a hand (the plain ones of _next_move may renew forever)
    while True:
        seat = game.to_act[0]
        action = rng.choice([a for a in load_state(game).legal_actions(seat) if a.get("type") != "undo"])
        after = load_state(game).clone()
        after.apply(seat, action)
        if after.is_over():
            break
        services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
        game.refresh_from_db()
    answer = api_client_for(users[seat]).post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == Game.Status.FINISHED
    for shown in answer.json()["seats"]:
        rating = Rating.objects.get(user__username=shown["player"], key="toppo-correspondence")
        assert shown["rating"]["value"] == rating.value and shown["rating"]["games"] == 1


def test_a_game_without_unconfirmed_turns_logs_its_moves_public_without_updating_the_log(owner, member):
    game = table_of([owner, member], "toppo", hands=1)
    users = {s.index: s.user for s in game.seats.all()}
    with CaptureQueriesContext(connection) as queries:
        for _ in range(4):
            seat, action = _next_move(game)
            services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
            game.refresh_from_db()
    assert not [q for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_action"')]
    assert set(game.actions.values_list("visibility", flat=True)) == {Action.Visibility.PUBLIC}
