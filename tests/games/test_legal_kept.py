"""A seat's legal actions kept for the position they were listed in (games.selectors.legal_kept, decision 28): the
legal-actions GET answers what the engine lists for the stored position, at every decision of a game played
through the API, whether the list was kept by the move's answer or made again; a position written without a new
version, or another seat's question, is never answered from a kept list."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from games.selectors import legal_kept as kept_module
from games.selectors.legal_kept import legal_kept
from games.selectors.positions import load_state
from tests.conftest import api_client_for
from tests.games.factories import seat_user, started_topology

pytestmark = pytest.mark.django_db


def _started(kind: str, owner, member) -> Game:
    from games import services

    game = services.game_create(user=owner, kind=kind, players=2)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def _engine_says(game: Game, seat: int) -> dict:
    state = load_state(game)
    return {"actions": state.legal_actions(seat), "undoable": bool(state.undoable(seat))}


def _asked(client, game: Game) -> dict:
    answer = client.get(f"/api/tables/{game.pk}/legal-actions/").json()
    return {"actions": answer["actions"], "undoable": answer["undoable"]}


@pytest.mark.parametrize("kind", ["topology", "topoum", "toppo"])
def test_every_answer_is_the_engines_list_of_the_stored_position(kind, owner, member):
    game = _started(kind, owner, member)
    clients = {s.index: api_client_for(s.user) for s in game.seats.all()}
    rng, answered_from_kept = random.Random(kind), 0
    for _ in range(40):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            break
        seat = game.to_act[0]
        answered_from_kept += legal_kept(game, seat) is not None
        for index, client in clients.items():
            assert _asked(client, game) == _engine_says(game, index), (game.version, index)
        legal = _asked(clients[seat], game)["actions"]
        action = rng.choice([a for a in legal if a["type"] != "undo"] or legal)
        reply = clients[seat].post(
            f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
        )
        assert reply.status_code == 200, reply.content
    if kind != "toppo":  # turns of several decisions: the move's answer listed the next question's position
        assert answered_from_kept > 0


def test_a_position_written_without_a_new_version_is_listed_again(owner, member):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    client = api_client_for(seat_user(game, seat))
    assert _asked(client, game) == _engine_says(game, seat)
    assert legal_kept(Game.objects.get(pk=game.pk), seat) is not None
    # Another deal of the same table written over it, the version unchanged (as a test or a repair might).
    other = started_topology(owner, member)
    Game.objects.filter(pk=game.pk).update(state=Game.objects.get(pk=other.pk).state)
    game = Game.objects.get(pk=game.pk)
    assert legal_kept(game, seat) is None
    assert _asked(client, game) == _engine_says(game, seat)


def test_another_seats_question_is_not_answered_from_her_list(owner, member):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    kept_module.legal_keep(game, seat, [{"type": "kept"}], False)
    assert legal_kept(game, seat) == ([{"type": "kept"}], False)
    assert legal_kept(game, 1 - seat) is None
    other = api_client_for(seat_user(game, 1 - seat))
    assert _asked(other, game) == _engine_says(game, 1 - seat)


def test_a_long_list_is_not_kept(owner, member):
    game = started_topology(owner, member)
    kept_module.legal_keep(game, 0, [{"type": "end_turn"}] * (kept_module.MOST_ACTIONS + 1), False)
    assert legal_kept(game, 0) is None


def test_what_is_kept_is_bounded_by_its_actions_the_oldest_forgotten_first(owner, member, monkeypatch):
    monkeypatch.setattr(kept_module, "KEPT_ACTIONS", 10)
    first, second, third = (started_topology(owner, member) for _ in range(3))
    for game in (first, second, third):
        kept_module.legal_keep(game, 0, [{"type": "end_turn"}] * 4, False)
    assert legal_kept(first, 0) is None
    assert legal_kept(second, 0) is not None and legal_kept(third, 0) is not None
    kept_module.legal_keep(second, 1, [{"type": "end_turn"}] * 4, False)  # a game's new list replaces its old one
    assert legal_kept(second, 0) is None and legal_kept(second, 1) is not None
    assert kept_module._actions_kept <= 10


def test_a_move_is_judged_against_the_stored_position_not_a_kept_list_of_another(owner, member):
    """The move checks what she sent against the list kept for the position it reads (decision 28), so a list kept
    for another position of the table (one it held, or will hold) lets nothing through that the stored one refuses."""
    game = _started("topoum", owner, member)  # a game whose match walks its list
    seat = game.to_act[0]
    stored = load_state(game)
    later, rng = load_state(game), random.Random("later")
    for _ in range(200):  # a later position where she decides again, with an action the stored one does not allow
        acting = later.to_act()[0]
        later.apply(acting, rng.choice([a for a in later.legal_actions(acting) if a["type"] != "undo"]))
        if later.to_act() == [seat] and any(a not in stored.legal_actions(seat) for a in later.legal_actions(seat)):
            break
    else:
        pytest.fail("no later position of hers found")
    stranger = next(a for a in later.legal_actions(seat) if a not in stored.legal_actions(seat))
    kept_module.legal_keep(Game(pk=game.pk, kind=game.kind, state=later.to_json()), seat, [stranger], False)
    client = api_client_for(seat_user(game, seat))
    reply = client.post(
        f"/api/tables/{game.pk}/actions/", {"action": stranger, "expected_version": game.version}, format="json"
    )
    assert reply.status_code == 400 and Game.objects.get(pk=game.pk).version == game.version  # not legal there
