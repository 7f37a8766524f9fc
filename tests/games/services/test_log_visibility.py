"""Who reads each log line during a turn of several decisions (games.services.log_visibility, ruling S3 amended):
a decision is hers alone until she confirms it, an undo withdraws what it takes back, her confirmation makes her
turn public."""

import pytest

from games.models import Action
from games.selectors.positions import load_state
from games.services.log_visibility import log_visibility
from tests.games.factories import seat_user, started_topology
from tests.games.tables import decide

pytestmark = pytest.mark.django_db
Visibility = Action.Visibility


def last_row(game) -> Action:
    return Action.objects.filter(game=game).order_by("-seq").first()


def test_a_decision_is_private_an_undo_withdraws_it_and_confirming_publishes(owner, member):
    game = started_topology(owner, member)
    (seat,) = game.to_act
    game = decide(game, seat_user(game, seat))
    first = last_row(game)
    assert first.visibility == Visibility.PRIVATE  # written by action_submit, which asked log_visibility
    state = load_state(game)
    assert state.unconfirmed_seat() == seat
    assert log_visibility(game, seat, {"type": "undo"}, state) == Visibility.WITHDRAWN
    first.refresh_from_db()
    assert first.visibility == Visibility.WITHDRAWN

    game = decide(game, seat_user(game, seat))
    second = last_row(game)
    assert second.visibility == Visibility.PRIVATE
    confirmed = load_state(game).turn_start()  # a position with no unconfirmed decision, as after end_turn
    assert log_visibility(game, seat, {"type": "end_turn"}, confirmed) == Visibility.PUBLIC
    second.refresh_from_db()
    assert second.visibility == Visibility.PUBLIC
