"""Nothing hidden reaches a page (ruling G0.3): not the stack order, not the seed, not others' raw moves."""

import json
import re

import pytest

from games.models import Game
from games.selectors.positions import load_state
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action, started_topology

pytestmark = pytest.mark.django_db


def tile_ids_in(html: str) -> set[int]:
    """Every tile id a page names: data-tile attributes, preview templates and tile fields of embedded JSON."""
    found = {int(t) for t in re.findall(r'data-tile="(\d+)"', html)}
    found |= {int(t) for t in re.findall(r'id="tpl-(\d+)-\d"', html)}
    found |= {int(t) for t in re.findall(r'"tile":\s*(\d+)', html)}
    found |= {int(t) for t in re.findall(r"&quot;tile&quot;:\s*(\d+)", html)}
    return found


def pages(game, visitors, htmx_too=True):
    for visitor in visitors:
        yield visitor.get(f"/tables/{game.pk}/").content.decode()
        if htmx_too:
            yield visitor.get(f"/tables/{game.pk}/poll/?stamp=x", **HX).content.decode()
        yield visitor.get(f"/tables/{game.pk}/log.json").content.decode()


def test_face_down_tiles_never_appear_in_any_page(owner, member, owner_client, member_client, client, outsider_client):
    game = started_topology(owner, member)
    clients = {owner.pk: owner_client, member.pk: member_client}
    for _ in range(4):  # a few moves in, so the page shows placed, revealed and legal tiles
        seat = game.to_act[0]
        action = next((a for a in legal(game, seat) if a["type"] == "place"), {"type": "end_turn"})
        post_action(clients[game.seats.get(index=seat).user_id], game, action, game.version, **HX)
        game.refresh_from_db()
    state = load_state(game)
    face_down = set(state.stack)
    shown = {t for t, _ in state.board.tiles.items()} | set(state.revealed)
    assert face_down and not face_down & shown
    for html in pages(game, [owner_client, member_client, client, outsider_client]):
        named = tile_ids_in(html)
        assert not named & face_down
        assert game.seed not in html


def test_the_log_export_keeps_others_moves_and_the_seed_until_the_end(owner, member, owner_client, member_client):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    me = owner_client if seat == 0 else member_client
    other = member_client if seat == 0 else owner_client
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    post_action(me, game, place, game.version, **HX)
    mine = json.loads(me.get(f"/tables/{game.pk}/log.json").content)
    assert mine["log"][0]["action"] == place and "seed" not in mine
    assert json.loads(other.get(f"/tables/{game.pk}/log.json").content)["log"] == []  # ruling S3: not confirmed
    while game.to_act == [seat]:  # the rest of the turn, then its confirmation
        action = next(a for a in legal(game, seat) if a["type"] in ("place", "end_turn"))
        post_action(me, game, action, game.version, **HX)
        game.refresh_from_db()
    theirs = json.loads(other.get(f"/tables/{game.pk}/log.json").content)
    assert "action" not in theirs["log"][0] and theirs["log"][0]["description"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    finished = json.loads(other.get(f"/tables/{game.pk}/log.json").content)
    assert finished["seed"] == game.seed and finished["log"][0]["action"] == place


def test_a_private_table_log_is_not_exported_to_outsiders(owner, outsider_client):
    from games import services

    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    assert outsider_client.get(f"/tables/{game.pk}/log.json").status_code == 404
