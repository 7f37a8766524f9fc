"""The canary sweep (tests/engine/test_conformance.py, tests/notifications/test_notify_hidden.py) extended to
sandboxes (decision 29, point 1; ruling G0.3): the engine's markers planted in every hidden place of the real game
(`Game.plant_secrets`: others' hands, the deck, face-down tiles, crate values, sealed claims) and a marked seed
never appear in any sandbox answer, page or API, whether the sandbox is forked from the planted position or was
forked before and is played on (moves, take back, branches, a bot's answer) while the real game holds them.
A seat's own markers may reach her (they are hers to see)."""

from __future__ import annotations

import json

import pytest

from engine.core import get_game
from games.models import Game
from sandbox.models import Sandbox
from sandbox.services import sandbox_bot_answer
from tests.conftest import api_client_for
from tests.games.tables import open_table
from tests.games.test_replay import play
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

CASES = [
    pytest.param("topology", {}, id="topology"),
    # with the farmer Lord of the Crates in the deck, four crates of hidden value lie on the board (ruling T8)
    pytest.param("topoum", {"deck": "preset", "preset": "strategists", "farmer": "lord_of_the_crates"}, id="topoum"),
    pytest.param("toppo", {"hands": 1}, id="toppo"),
]
SEED_MARKER = "SECRET-table-seed"


def plant(game: Game) -> dict:
    """The engine's markers in every hidden place of the stored position, and a marked seed."""
    game = Game.objects.get(pk=game.pk)
    engine = get_game(game.kind)
    state = engine.load(game.state)
    planted = engine.plant_secrets(state)
    planted.setdefault(None, []).append(SEED_MARKER)
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), seed=SEED_MARKER)
    return planted


def leaks(text: str, planted: dict, seat: int) -> list[str]:
    return [m for owner, markers in planted.items() if owner != seat for m in markers if m in text]


class Reader:
    """Every sandbox answer seat 0's player gets, by API and page, checked for others' markers."""

    def __init__(self, game: Game, user, planted: dict):
        self.game, self.planted = game, planted
        self.api, self.web = api_client_for(user), client_for(user)
        self.checked = 0

    def check(self, text: str) -> None:
        found = leaks(text, self.planted, 0)
        assert not found, found
        self.checked += 1

    def answer(self, reply) -> dict:
        assert reply.status_code in (200, 201, 202), reply.content[:300]
        self.check(reply.content.decode())
        return reply.json()

    def sweep(self, sid: int) -> dict:
        """The sandbox from every seat, by API and page."""
        answer = None
        for seat in range(self.game.players):
            answer = self.answer(self.api.get(f"/api/sandboxes/{sid}/?seat={seat}"))
            page = self.web.get(f"/sandboxes/{sid}/?seat={seat}")
            assert page.status_code == 200
            assert f"/tables/{self.game.pk}/act/" not in page.content.decode()  # no form of the board reaches the table
            self.check(page.content.decode())
        return answer

    def play_on(self, sid: int, moves: int) -> None:
        """Moves for whoever decides (through the API and the page), a take-back, a branch, a bot's answer."""
        for i in range(moves):
            answer = self.answer(self.api.get(f"/api/sandboxes/{sid}/"))
            if answer["over"]:
                break
            seat = answer["to_act"][0]
            answer = self.answer(self.api.get(f"/api/sandboxes/{sid}/?seat={seat}"))
            action = answer["legal_actions"][i % len(answer["legal_actions"])]
            if i % 2:
                reply = self.web.post(f"/sandboxes/{sid}/move/", {"seat": seat, "action": json.dumps(action)})
                assert reply.status_code == 302
                self.check(self.web.get(reply["Location"]).content.decode())
            else:
                body = {"seat": seat, "action": action}
                self.answer(self.api.post(f"/api/sandboxes/{sid}/moves/", body, format="json"))
        self.answer(self.api.post(f"/api/sandboxes/{sid}/undo/"))
        self.answer(self.api.post(f"/api/sandboxes/{sid}/goto/", {"node": 0}, format="json"))
        answer = self.answer(self.api.get(f"/api/sandboxes/{sid}/"))
        if not answer["over"]:
            self.answer(self.api.post(f"/api/sandboxes/{sid}/bot/", {"seat": answer["to_act"][0]}, format="json"))
            sandbox_bot_answer(sid, Sandbox.objects.get(pk=sid).bot_token)  # the worker's part
        self.sweep(sid)


@pytest.mark.parametrize("kind,options", CASES)
def test_no_sandbox_answer_carries_the_real_hidden_state(kind, options, owner, member):
    game = open_table(kind, owner, member, options=options)
    game = play(game, moves=6)  # into the game, both seats having played
    assert game.status == Game.Status.RUNNING
    earlier = Sandbox.objects.get(pk=api_client_for(owner).post(f"/api/tables/{game.pk}/sandboxes/").json()["id"])
    real = Game.objects.get(pk=game.pk)
    planted = plant(game)
    reader = Reader(game, owner, planted)
    # forked from the planted position: by the API and by the page
    sid = reader.answer(reader.api.post(f"/api/tables/{game.pk}/sandboxes/"))["id"]
    reader.sweep(sid)
    reply = reader.web.post(f"/tables/{game.pk}/sandboxes/new/")
    assert reply.status_code == 302 and reply["Location"].startswith("/sandboxes/")
    reader.check(reader.web.get(reply["Location"]).content.decode())
    stored = json.dumps([Sandbox.objects.get(pk=sid).root, Sandbox.objects.get(pk=sid).state])
    assert not leaks(stored, planted, 0)  # not even kept on the server side of the sandbox
    # the table page's panel lists her sandboxes
    assert f"/sandboxes/{sid}/" in reader.web.get(f"/tables/{game.pk}/").content.decode()
    # forked before the markers were planted, played on while the real game holds them
    reader.play_on(earlier.pk, moves=6)
    assert reader.checked > 10
    # nothing of it touched the real game (apart from the markers the test put there)
    Game.objects.filter(pk=game.pk).update(state=real.state, seed=real.seed)
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state, after.actions.count()) == (real.version, real.state, real.actions.count())
