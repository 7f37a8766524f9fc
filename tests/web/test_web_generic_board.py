"""Games without a drawing of their own get the generic board: their view and a button per legal action."""

import html as htmlmod
import json
import re

import pytest

from boards import generic
from engine.core import all_games
from games import services
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def test_action_labels_name_the_type_and_fields():
    assert generic.action_label({"type": "end_turn"}) == "end turn"
    assert generic.action_label({"type": "move", "from": [0, 1], "to": [1, 1]}) == "move: from [0, 1], to [1, 1]"


def test_actions_are_grouped_by_type_in_order():
    groups = generic.group_actions([{"type": "a", "x": 1}, {"type": "b"}, {"type": "a", "x": 2}])
    assert [g["type"] for g in groups] == ["a", "b"]
    assert [json.loads(a["json"])["x"] for a in groups[0]["actions"]] == [1, 2]


@pytest.mark.parametrize("kind", [k for k in ("toppo", "topoum") if k in all_games()])
def test_a_game_can_be_played_from_the_generic_board(kind, owner, member, owner_client, member_client, monkeypatch):
    # Both games have their own drawing now; the fallback must still carry any game through a move.
    from boards import registry

    monkeypatch.setattr(registry, "presenter_for", lambda kind: generic)
    monkeypatch.setattr(registry, "board_template", lambda kind: ["boards/generic/board.html"])
    game = services.game_create(user=owner, kind=kind, players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    clients = {owner.pk: owner_client, member.pk: member_client}
    seated_client = clients[game.seats.get(index=game.to_act[0]).user_id]
    page = seated_client.get(f"/tables/{game.pk}/").content.decode()
    assert 'class="generic-board"' in page
    buttons = re.findall(r'name="action" value="([^"]+)"', page)
    assert buttons, "no legal action offered"
    action = json.loads(htmlmod.unescape(buttons[0]))
    reply = seated_client.post(f"/tables/{game.pk}/act/", {"action": json.dumps(action), "version": game.version}, **HX)
    assert reply.status_code == 200, reply.content.decode()[:500]
    game.refresh_from_db()
    assert game.version == 1
