"""Bad input gets its own status and a message a person can act on, and changes nothing."""

import pytest

from games.models import Action, Game

pytestmark = pytest.mark.django_db


def client_to_act(game, owner_api, member_api):
    seat = Game.objects.get(pk=game.pk).to_act[0]
    return seat, (owner_api if seat == 0 else member_api), (member_api if seat == 0 else owner_api)


def legal(client, game):
    return client.get(f"/api/tables/{game.pk}/legal-actions/").data


def test_it_refuses_a_stale_version_with_409_and_the_current_game(game, owner_api, member_api):
    _, mover, _ = client_to_act(game, owner_api, member_api)
    actions = legal(mover, game)["actions"]
    ok = mover.post(f"/api/tables/{game.pk}/actions/", {"action": actions[0], "expected_version": 0}, format="json")
    assert ok.status_code == 200
    again = mover.post(f"/api/tables/{game.pk}/actions/", {"action": actions[0], "expected_version": 0}, format="json")
    assert again.status_code == 409
    assert again.data["error"] == "stale_version"
    assert "version" in again.data["detail"]
    assert again.data["game"]["version"] == 1 and again.data["version"] == 1
    assert Action.objects.filter(game=game).count() == 1


def test_it_refuses_an_illegal_action_with_400_and_the_reason(game, owner_api, member_api):
    _, mover, _ = client_to_act(game, owner_api, member_api)
    before = Game.objects.get(pk=game.pk).state
    reply = mover.post(
        f"/api/tables/{game.pk}/actions/",
        {
            "action": {"type": "place", "tile": 0, "cells": [[50, 50], [51, 50]], "orientation": 0},
            "expected_version": 0,
        },
        format="json",
    )
    assert reply.status_code == 400
    assert reply.data["error"] == "illegal_action" and len(reply.data["detail"]) > 10
    assert Game.objects.get(pk=game.pk).state == before
    assert Action.objects.filter(game=game).count() == 0


def test_it_refuses_a_move_out_of_turn_with_400(game, owner_api, member_api):
    seat, mover, waiter = client_to_act(game, owner_api, member_api)
    action = legal(mover, game)["actions"][0]
    reply = waiter.post(f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": 0}, format="json")
    assert reply.status_code == 400
    assert "turn" in reply.data["detail"].lower()


def test_it_refuses_a_seat_that_is_not_yours_with_403(game, owner_api, member_api, outsider_api):
    _, mover, waiter = client_to_act(game, owner_api, member_api)
    action = legal(mover, game)["actions"][0]
    stranger = outsider_api.post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": 0}, format="json"
    )
    assert stranger.status_code == 403 and stranger.data["error"] == "forbidden"
    seat = Game.objects.get(pk=game.pk).to_act[0]
    other_seat = waiter.post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": 0, "seat": seat}, format="json"
    )
    assert other_seat.status_code == 403 and "not yours" in other_seat.data["detail"]
    assert Action.objects.filter(game=game).count() == 0


def test_it_answers_404_for_a_table_that_does_not_exist(owner_api):
    reply = owner_api.post(
        "/api/tables/999999/actions/", {"action": {"type": "end_turn"}, "expected_version": 0}, format="json"
    )
    assert reply.status_code == 404 and reply.data["error"] == "not_found"
    assert owner_api.get("/api/tables/999999/").status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"expected_version": 0},
        {"action": {"type": "end_turn"}},
        {"action": "end_turn", "expected_version": 0},
        {"action": {"no": "type"}, "expected_version": 0},
        {"action": {"type": "end_turn"}, "expected_version": "zero"},
    ],
)
def test_it_refuses_a_malformed_body_with_400(game, owner_api, body):
    reply = owner_api.post(f"/api/tables/{game.pk}/actions/", body, format="json")
    assert reply.status_code == 400
    assert reply.data["detail"]
    assert Action.objects.filter(game=game).count() == 0


def test_it_refuses_anonymous_writes_with_401_or_403(game, client):
    reply = client.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": {"type": "end_turn"}, "expected_version": 0},
        content_type="application/json",
    )
    assert reply.status_code in (401, 403)


def test_it_refuses_moves_once_the_game_is_aborted(game, owner_api, member_api):
    _, mover, _ = client_to_act(game, owner_api, member_api)
    assert owner_api.post(f"/api/tables/{game.pk}/abort-agreement/").status_code == 200
    assert member_api.post(f"/api/tables/{game.pk}/abort-agreement/").data["status"] == "aborted"
    reply = mover.post(
        f"/api/tables/{game.pk}/actions/", {"action": {"type": "end_turn"}, "expected_version": 0}, format="json"
    )
    assert reply.status_code == 409 and "aborted" in reply.data["detail"]


def test_the_view_never_carries_the_seed_or_the_stack_while_running(game, member_api):
    data = member_api.get(f"/api/tables/{game.pk}/").data
    text = str(data)
    assert game.seed not in text
    assert "seed" not in data
