"""games.services.moves: every move goes through `action_submit`, which applies a legal action at the version its
player saw and bumps the version, and refuses anything else without changing the table."""

from __future__ import annotations

import pytest

from engine.core import get_game
from games.errors import BadRequest, Conflict, Forbidden, IllegalMove, StaleVersion
from games.models import Action, Game
from games.services.moves import action_submit, game_resign
from tests.games.factories import seat_user, started_topology, table_snapshot

pytestmark = pytest.mark.django_db


def to_act(game: Game) -> tuple[int, object, dict]:
    """The seat to act, its player, and a legal action of hers (not an undo)."""
    seat = game.to_act[0]
    actions = get_game(game.kind).load(game.state).legal_actions(seat)
    return seat, seat_user(game, seat), next(a for a in actions if a["type"] != "undo")


def test_a_legal_move_is_logged_and_bumps_the_version(owner, member):
    game = started_topology(owner, member)
    seat, user, action = to_act(game)
    result = action_submit(game_id=game.pk, user=user, action=action, expected_version=game.version)
    stored = Game.objects.get(pk=game.pk)
    assert result.seat == seat and stored.version == game.version + 1 == result.game.version
    logged = Action.objects.get(game=game, seq=stored.version)
    assert logged.seat == seat and logged.pk == result.action.pk


def test_a_stale_version_is_refused_409_and_changes_nothing(owner, member):
    game = started_topology(owner, member)
    seat, user, action = to_act(game)
    action_submit(game_id=game.pk, user=user, action=action, expected_version=game.version)
    moved = Game.objects.get(pk=game.pk)
    before = table_snapshot(moved)
    with pytest.raises(StaleVersion) as refused:
        action_submit(game_id=game.pk, user=user, action=action, expected_version=moved.version + 1)  # the future
    assert refused.value.status_code == 409
    assert table_snapshot(moved) == before


def test_a_player_not_seated_or_not_in_that_seat_is_refused_403(owner, member, outsider):
    game = started_topology(owner, member)
    seat, user, action = to_act(game)
    before = table_snapshot(game)
    with pytest.raises(Forbidden) as outside:
        action_submit(game_id=game.pk, user=outsider, action=action, expected_version=game.version)
    with pytest.raises(Forbidden) as other_seat:
        action_submit(game_id=game.pk, user=user, action=action, expected_version=game.version, seat=1 - seat)
    assert outside.value.status_code == other_seat.value.status_code == 403
    assert table_snapshot(game) == before


def test_an_illegal_or_shapeless_action_is_refused_400_and_changes_nothing(owner, member):
    game = started_topology(owner, member)
    seat, user, _ = to_act(game)
    before = table_snapshot(game)
    with pytest.raises(IllegalMove) as illegal:
        action_submit(game_id=game.pk, user=user, action={"type": "no_such_move"}, expected_version=game.version)
    with pytest.raises(BadRequest) as shapeless:
        action_submit(game_id=game.pk, user=user, action=["end_turn"], expected_version=game.version)
    with pytest.raises(BadRequest):
        action_submit(game_id=game.pk, user=user, action={"type": "end_turn"}, expected_version="0")
    assert illegal.value.status_code == shapeless.value.status_code == 400
    assert table_snapshot(game) == before


def test_a_table_that_stopped_running_takes_no_move_409(owner, member):
    game = started_topology(owner, member)
    seat, user, action = to_act(game)
    game_resign(game_id=game.pk, user=member)  # before any move of the game: it ends with no result
    ended = Game.objects.get(pk=game.pk)
    assert ended.status != Game.Status.RUNNING
    before = table_snapshot(ended)
    with pytest.raises(Conflict) as refused:
        action_submit(game_id=game.pk, user=user, action=action, expected_version=ended.version)
    assert refused.value.status_code == 409
    assert table_snapshot(ended) == before
