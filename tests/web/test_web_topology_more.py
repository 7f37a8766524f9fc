"""Topology at the table: the advanced variant's choice (ruling L6), undo (ruling S3), and a finished game."""

import json
import re

import pytest

from games.models import Game
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action, started_topology

pytestmark = pytest.mark.django_db


def acting(game, clients):
    game.refresh_from_db()
    seat = game.to_act[0]
    return seat, clients[game.seats.get(index=seat).user_id]


def test_the_advanced_variant_asks_first_to_reveal_or_turn_a_tile(owner, member, clients):
    # ruling L6: reveal two, then reveal a third or turn a placed tile half a turn.
    game = started_topology(owner, member, advanced=True)
    seat, me = acting(game, clients)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    assert "Reveal a third tile" in html and "First choose" in html
    assert len(re.findall(r'class="tile turnable" data-tile="\d+"', html)) == 1  # the start tile
    assert len(re.findall(r'<button type="button" class="hand-tile"[^>]*disabled', html)) == 2
    reply = post_action(me, game, {"type": "reveal"}, game.version, **HX)
    html = reply.content.decode()
    assert reply.status_code == 200 and len(re.findall(r'class="hand-tile"', html)) == 3
    assert "Reveal a third tile" not in html and "Undo" not in html  # a reveal cannot be taken back (ruling S3)


def test_turning_a_placed_tile_over_redraws_it_and_can_be_undone(owner, member, clients):
    game = started_topology(owner, member, advanced=True)
    seat, me = acting(game, clients)
    start_tile = next(a["tile"] for a in legal(game, seat) if a["type"] == "turn_over")
    before = me.get(f"/tables/{game.pk}/").content.decode()
    reply = post_action(me, game, {"type": "turn_over", "tile": start_tile}, game.version, **HX)
    after = reply.content.decode()
    assert reply.status_code == 200 and "Undo" in after

    def drawing(html):
        return re.search(rf'data-tile="{start_tile}">(.*?)</g>', html, re.S).group(1)

    game.refresh_from_db()
    from engine.topology.tiles import design_of, symmetric

    if not symmetric()[design_of(start_tile)]:  # a symmetric design looks the same turned
        assert drawing(before) != drawing(after)
    undone = post_action(me, game, {"type": "undo"}, game.version, **HX).content.decode()
    assert drawing(undone) == drawing(before)


def test_a_finished_game_shows_ranks_and_no_controls(owner, member, clients):
    game = started_topology(owner, member)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        seat, me = acting(game, clients)
        action = next((a for a in legal(game, seat) if a["type"] == "place"), {"type": "end_turn"})
        assert post_action(me, game, action, game.version).status_code == 302
    assert game.status == Game.Status.FINISHED
    html = clients[owner.pk].get(f"/tables/{game.pk}/").content.decode()
    assert "The game is over." in html and "rank 1" in html
    assert 'id="topology-places"' not in html and "End turn" not in html and "/poll/" not in html
    log = json.loads(clients[member.pk].get(f"/tables/{game.pk}/log.json").content)
    assert log["seed"] == game.seed and len(log["log"]) == game.version
