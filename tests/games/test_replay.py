"""Replay: any ply of a game from the seed and the log, through checkpoints (rulings G0.2, G0.3, S3)."""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Game, PositionCheckpoint
from games.selectors import replay
from games.selectors.positions import load_state
from tests.conftest import api_client_for
from tests.games.factories import seat_user, started_topology
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def play(game: Game, moves: int | None = None) -> Game:
    """Play a random legal action (never an undo; seeded) of whoever decides, `moves` times or to the end."""
    rng, done = random.Random(7), 0
    while moves is None or done < moves:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            break
        seat = game.to_act[0]
        actions = [a for a in load_state(game).legal_actions(seat) if a.get("type") != "undo"]
        services.action_submit(
            game_id=game.pk, user=seat_user(game, seat), action=rng.choice(actions), expected_version=game.version
        )
        done += 1
    return Game.objects.get(pk=game.pk)


def url(game: Game, ply: int) -> str:
    return f"/api/tables/{game.pk}/positions/{ply}/"


def test_a_finished_game_shows_every_seat_at_the_start_the_middle_and_the_end(owner, member):
    game = play(started_topology(owner, member))
    assert game.status == Game.Status.FINISHED
    api = api_client_for(owner)
    plies = replay.plies_of(game)
    start = api.get(url(game, 0)).json()
    assert start["ply"] == 0 and start["plies"] == plies and len(start["seats"]) == 2
    middle = api.get(url(game, plies // 2)).json()
    assert middle["ply"] == plies // 2 and middle["spectator"] != start["spectator"]
    last = api.get(url(game, plies)).json()
    state = load_state(game)
    assert last["spectator"] == state.view(None)
    assert last["seats"] == [state.view(0), state.view(1)]


def test_plies_out_of_range_are_refused_with_a_message(owner, member):
    game = play(started_topology(owner, member), 3)
    response = api_client_for(owner).get(url(game, 999))
    assert response.status_code == 404
    assert "999" in response.json()["detail"]


def test_a_checkpoint_gives_the_same_position_as_a_replay_from_the_start(owner, member):
    game = play(started_topology(owner, member))
    plies = replay.plies_of(game)
    assert plies > replay.EVERY, "the game must pass a checkpoint"
    target = min(plies, replay.EVERY + 7)
    from_start = replay.position_at(game, target).state.to_json()
    assert PositionCheckpoint.objects.filter(game=game, ply=replay.EVERY).exists()
    through_checkpoint = replay.position_at(game, target).state.to_json()
    assert through_checkpoint == from_start
    assert (
        replay.position_at(game, replay.EVERY).state.to_json()
        == PositionCheckpoint.objects.get(game=game, ply=replay.EVERY).state
    )


def test_a_running_game_shows_the_spectator_and_my_own_seat_only(owner, member, outsider):
    game = play(started_topology(owner, member), 4)
    assert game.status == Game.Status.RUNNING
    state = replay.position_at(game, 4).state
    mine = api_client_for(owner).get(url(game, 4)).json()
    assert "seats" not in mine and mine["mine"] == {"seat": 0, "view": state.view(0)}
    assert mine["spectator"] == state.view(None)
    theirs = api_client_for(outsider).get(url(game, 4)).json()
    assert "mine" not in theirs and "seats" not in theirs
    # Seat 1's own hidden information (its view) never reaches seat 0 or a spectator.
    if state.view(1) != state.view(None):
        assert state.view(1) not in (mine["spectator"], mine["mine"]["view"], theirs["spectator"])


def test_a_ply_inside_another_seats_unconfirmed_turn_is_not_served(owner, member):
    # ruling S3: rows of a turn not confirmed yet are private to their seat.
    game = play(started_topology(owner, member), 1)
    last = game.actions.order_by("-seq").first()
    if last.visibility == "public":
        pytest.skip("the first Topology decision is public")
    author = api_client_for(seat_user(game, last.seat))
    other = api_client_for(seat_user(game, 1 - last.seat))
    assert author.get(url(game, 1)).status_code == 200
    response = other.get(url(game, 1))
    assert response.status_code == 404 and "confirmed" in response.json()["detail"]
    assert "moves 0 to 0 are shown" in response.json()["detail"]


def test_plies_past_what_she_may_see_are_refused_alike_and_not_counted(owner, member):
    # ruling S3: during another seat's unconfirmed turn, no refusal and no "plies" tells how many decisions it holds.
    game = play(started_topology(owner, member), 1)
    last = game.actions.order_by("-seq").first()
    if last.visibility == "public":
        pytest.skip("the first Topology decision is public")
    author = api_client_for(seat_user(game, last.seat))
    other = api_client_for(seat_user(game, 1 - last.seat))
    assert author.get(url(game, 0)).json()["plies"] == 1
    assert other.get(url(game, 0)).json()["plies"] == 0
    refusals = [other.get(url(game, ply)) for ply in (1, 2, 50)]
    assert [r.status_code for r in refusals] == [404, 404, 404]
    details = [r.json()["detail"] for r in refusals]
    assert all("moves 0 to 0 are shown" in d for d in details)
    assert "There is no move 2 you may see" in details[1]


def test_a_resignation_in_the_log_is_not_a_ply(owner, member):
    # ruling S1: the leave entry is the site's, never the engine's; the replay skips it.
    game = everyone_played(play(started_topology(owner, member), 3))  # ruling S1, turn 3: then resigning loses
    plies = replay.plies_of(game)
    game = services.game_resign(game_id=game.pk, user=member)
    assert game.status == Game.Status.FINISHED and game.actions.count() == plies + 1
    assert replay.plies_of(game) == plies
    last = api_client_for(owner).get(url(game, plies)).json()
    assert last["spectator"] == load_state(game).view(None)
    assert api_client_for(owner).get(url(game, plies + 1)).status_code == 404


def test_another_seats_topoum_hand_never_reaches_me(owner, member):
    # ruling G0.3: seat 1's hand is in her view only; seat 0's answer carries the spectator's view and her own.
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = play(services.game_start(user=owner, game_id=game.pk), 2)
    assert game.status == Game.Status.RUNNING
    ply = replay.plies_of(game)
    state = replay.position_at(game, ply).state
    hers, mine = state.view(1)["hand"], state.view(0)["hand"]
    answer = api_client_for(owner).get(url(game, ply))
    assert answer.status_code == 200
    data = answer.json()
    assert data["mine"]["view"]["hand"] == mine and data["spectator"].get("hand") is None
    assert data["mine"]["view"]["seat"] == 0 and "seats" not in data
    if hers != mine:
        assert hers not in (data["mine"]["view"].get("hand"), data["spectator"].get("hand"))
