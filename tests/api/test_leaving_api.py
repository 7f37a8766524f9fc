"""A seat that resigned or abandoned makes no more decisions (ruling S1): its moves get 409 and change nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Action, Game, Seat
from games.selectors.positions import load_state
from tests.games.tables import everyone_played, play_turn, topology_table

pytestmark = pytest.mark.django_db


def snapshot(game: Game):
    game = Game.objects.get(pk=game.pk)
    return game.version, game.state, game.to_act, Action.objects.filter(game=game).count()


def test_a_resigned_seat_gets_409_when_it_moves_even_while_its_seat_is_to_act(owner, member, outsider, member_api):
    game = everyone_played(topology_table(owner, member, outsider))  # ruling S1, turn 3
    game = play_turn(game, owner)
    assert game.to_act == [1]
    services.game_resign(game_id=game.pk, user=member)  # the bot takes the seat once this commits
    game = Game.objects.get(pk=game.pk)
    assert game.to_act == [1]  # (no task ran in this test: the seat is still the one to decide)
    before = snapshot(game)
    action = load_state(game).legal_actions(1)[0]  # a move the engine would take from that seat
    reply = member_api.post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
    )
    assert reply.status_code == 409
    assert reply.data["error"] == "conflict" and "You resigned this game" in reply.data["detail"]
    assert snapshot(game) == before
    # nor is she offered anything to do
    mine = member_api.get(f"/api/tables/{game.pk}/").data
    assert mine["my_turn"] is False and mine["legal_actions"] == [] and mine["undoable"] is False


def test_a_seat_that_abandoned_gets_409_saying_why(owner, member, outsider, outsider_api):
    game = everyone_played(topology_table(owner, member, outsider))  # ruling S1, turn 3
    for _ in range(3):
        game = play_turn(game, owner)
        game = play_turn(game, member)
        Seat.objects.filter(game=game, index=2).update(deadline=timezone.now() - timedelta(seconds=1))
        services.deadline_expire(game_id=game.pk, seat=2, version=Game.objects.get(pk=game.pk).version)
        game = Game.objects.get(pk=game.pk)
    assert game.seats.get(index=2).abandoned
    before = snapshot(game)
    reply = outsider_api.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": {"type": "end_turn"}, "expected_version": game.version},
        format="json",
    )
    assert reply.status_code == 409
    assert "missing three deadlines in a row" in reply.data["detail"]
    assert snapshot(game) == before


def test_the_log_names_who_resigned_and_marks_the_entry_as_not_for_the_engine(owner, member, outsider, owner_api):
    game = topology_table(owner, member, outsider)
    services.game_resign(game_id=game.pk, user=member)
    log = owner_api.get(f"/api/tables/{game.pk}/actions/").data["results"]
    (entry,) = [row for row in log if not row["replay"]]
    assert entry["seat"] == 1 and entry["source"] == "player" and entry["action"] == {"type": "resign"}
    assert entry["description"] == "bruno resigned."
    es = owner_api.get(f"/api/tables/{game.pk}/actions/", HTTP_ACCEPT_LANGUAGE="es").data["results"]
    assert [row["description"] for row in es if not row["replay"]] == ["bruno se rindió."]
