"""The table page while a Topology game runs: the board, moves, stale and illegal submits, polling."""

import json
import re

import pytest

from games.models import Game
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action

pytestmark = pytest.mark.django_db


def mover(game, clients):
    seat = game.to_act[0]
    return seat, clients[game.seats.get(index=seat).user_id], clients[game.seats.get(index=1 - seat).user_id]


def test_players_spectators_and_others_see_the_board(game, clients, client, outsider_client):
    seat, me, other = mover(game, clients)
    mine = me.get(f"/tables/{game.pk}/").content.decode()
    assert 'class="topo-board"' in mine and "Your turn." in mine
    assert 'id="topology-places"' in mine and "End turn" not in mine  # tiles first, then end the turn
    theirs = other.get(f"/tables/{game.pk}/").content.decode()
    assert 'class="topo-board"' in theirs and "is playing." in theirs and 'id="topology-places"' not in theirs
    for visitor in (client, outsider_client):
        page = visitor.get(f"/tables/{game.pk}/")
        assert page.status_code == 200 and 'class="topo-board"' in page.content.decode()
        assert "Resign" not in page.content.decode()


def test_the_board_draws_every_placed_tile_with_five_curves(game, clients):
    _, me, _ = mover(game, clients)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    board = html.split('<g class="tiles">')[1].split('<g class="spots">')[0]
    # Other attributes may sit on a tile's <g> (data-last-move marks the last tile placed, decision 26 point 5).
    tiles = re.findall(r'<g\b[^>]*\bclass="tile[^"]*"[^>]*\bdata-tile="\d+"[^>]*>(.*?)</g>', board, re.S)
    assert len(tiles) == 1  # the start tile (rules: SETUP)
    assert len(re.findall(r'class="curve', tiles[0])) == 5 and len(re.findall(r"<polygon", tiles[0])) == 2


def test_legal_spots_are_exactly_the_cells_of_legal_placements(game, clients):
    seat, me, _ = mover(game, clients)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    drawn = set(re.findall(r'class="spot[^"]*"[^>]*data-cell="(-?\d+,-?\d+)"', html))
    expected = {f"{c[0]},{c[1]}" for a in legal(game, seat) if a["type"] == "place" for c in a["cells"]}
    assert drawn == expected and expected


def test_placing_a_tile_answers_with_the_fresh_board(game, clients):
    seat, me, _ = mover(game, clients)
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    reply = post_action(me, game, place, game.version, **HX)
    assert reply.status_code == 200
    game.refresh_from_db()
    assert game.version == 1
    html = reply.content.decode()
    assert html.lstrip().startswith('<section id="table-live"')
    assert f'data-tile="{place["tile"]}"' in html.split('<g class="tiles">')[1]
    assert 'name="version" value="1"' in html and "Undo" in html


def test_a_whole_turn_by_plain_posts_redirects_each_time(game, clients):
    seat, me, _ = mover(game, clients)
    while True:
        actions = legal(game, seat)
        action = next((a for a in actions if a["type"] == "place"), None) or {"type": "end_turn"}
        reply = post_action(me, game, action, game.version)
        assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
        if action["type"] == "end_turn":
            break
    game.refresh_from_db()
    assert game.to_act == [1 - seat] and game.actions.last().entry[0]["code"] == "topology.end_turn"
    log = me.get(f"/tables/{game.pk}/").content.decode()
    assert "placed a tile on" in log and "ended the turn" in log


def test_a_stale_submit_shows_that_the_game_moved_on_and_the_fresh_board(game, clients):
    seat, me, _ = mover(game, clients)
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    post_action(me, game, place, 0, **HX)
    second = next(a for a in legal(game, seat) if a["type"] == "place")
    reply = post_action(me, game, second, 0, **HX)  # the page still showed version 0
    html = reply.content.decode()
    assert reply.status_code == 409
    assert "The game moved on" in html and 'name="version" value="1"' in html
    game.refresh_from_db()
    assert game.version == 1


def test_an_illegal_submit_shows_its_reason_and_changes_nothing(game, clients):
    seat, me, _ = mover(game, clients)
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    bad = dict(place, cells=[[0, 0], [1, 0]], orientation=0)  # the start tile's own cells
    reply = post_action(me, game, bad, game.version, **HX)
    assert reply.status_code == 400
    assert "already covered" in reply.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_an_illegal_submit_without_htmx_gets_the_whole_page_with_the_reason(game, clients):
    seat, me, _ = mover(game, clients)
    reply = post_action(me, game, {"type": "end_turn"}, game.version)
    html = reply.content.decode()
    assert reply.status_code == 400 and "<html" in html and "Place all your revealed tiles" in html


def test_the_other_player_cannot_move(game, clients, outsider_client):
    seat, _, other = mover(game, clients)
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    reply = post_action(other, game, place, game.version, **HX)
    assert reply.status_code == 400 and "turn" in reply.content.decode()
    assert post_action(outsider_client, game, place, game.version, **HX).status_code == 403


def test_a_malformed_action_is_refused(game, clients):
    _, me, _ = mover(game, clients)
    reply = me.post(f"/tables/{game.pk}/act/", {"action": "{not json", "version": "0"}, **HX)
    assert reply.status_code == 400 and "could not be read" in reply.content.decode()


def test_the_poller_answers_204_until_the_game_changes(game, clients):
    seat, me, other = mover(game, clients)
    page = other.get(f"/tables/{game.pk}/").content.decode()
    poll_url = re.search(r'hx-get="(/tables/\d+/poll/\?stamp=[^"]+)"', page).group(1).replace("&amp;", "&")
    assert other.get(poll_url, **HX).status_code == 204
    place = next(a for a in legal(game, seat) if a["type"] == "place")
    post_action(me, game, place, game.version, **HX)
    changed = other.get(poll_url, **HX)
    html = changed.content.decode()
    assert changed.status_code == 200 and html.lstrip().startswith('<section id="table-live"')
    assert f'data-tile="{place["tile"]}"' in html
    new_url = re.search(r'hx-get="(/tables/\d+/poll/\?stamp=[^"]+)"', html).group(1).replace("&amp;", "&")
    assert new_url != poll_url and other.get(new_url, **HX).status_code == 204


def test_the_poller_notices_a_player_joining_the_waiting_room(owner, member, owner_client):
    from games import services

    table = services.game_create(user=owner, kind="topology", players=2)
    page = owner_client.get(f"/tables/{table.pk}/").content.decode()
    poll_url = re.search(r'hx-get="(/tables/\d+/poll/\?stamp=[^"]+)"', page).group(1)
    assert owner_client.get(poll_url, **HX).status_code == 204
    services.game_join(user=member, game_id=table.pk)
    assert "bruno" in owner_client.get(poll_url, **HX).content.decode()


def test_a_finished_game_stops_polling(game, clients):
    _, me, _ = mover(game, clients)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    assert "/poll/" not in html


def test_every_write_form_carries_the_csrf_token_or_htmx_header(game, clients):
    _, me, _ = mover(game, clients)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", html, re.S)
    assert forms and all("csrfmiddlewaretoken" in f for f in forms)
    assert json.loads(re.search(r"hx-headers='([^']+)'", html).group(1))["X-CSRFToken"]


def test_the_seat_to_play_shows_the_time_left_on_its_clock(game, clients):
    # ruling S1: the clock runs per turn; a correspondence table of 3 days per turn.
    _, me, _ = mover(game, clients)
    html = me.get(f"/tables/{game.pk}/").content.decode()
    assert re.search(r'class="deadline">2\xa0days, 23\xa0hours left · <time datetime="[^"]+">', html)


def _new_lines(reply) -> list[str] | None:
    """The log lines an answer brings on top of the page's (None: it sends the whole log again)."""
    html = reply.content.decode()
    if "hx-preserve" not in html.split('id="log-lines"')[1].split(">")[0]:
        return None
    oob = html.split('hx-swap-oob="afterbegin:#log-lines">')
    return re.findall(r"<li>", oob[1]) if len(oob) > 1 else []


def _mark(reply) -> str:
    return re.search(r'"X-Topos-Log": "(\d+:\d+)"', reply.content.decode()).group(1)


def _play_turn(game, client, seat):
    while True:
        action = next((a for a in legal(game, seat) if a["type"] == "place"), None) or {"type": "end_turn"}
        assert post_action(client, game, action, game.version, **HX).status_code == 200
        game.refresh_from_db()
        if action["type"] == "end_turn":
            return


def test_answers_bring_only_the_log_lines_after_those_the_page_holds(game, clients):
    """Decision 16; the other's placements reach her page once confirmed, not before (ruling S3)."""
    seat, me, other = mover(game, clients)
    _play_turn(game, me, seat)
    holds = _mark(me.get(f"/tables/{game.pk}/"))
    lines = int(holds.split(":")[1])
    assert lines >= 2
    place = next(a for a in legal(game, 1 - seat) if a["type"] == "place")
    assert post_action(other, game, place, game.version, **HX).status_code == 200
    game.refresh_from_db()
    poll = me.get(f"/tables/{game.pk}/poll/?stamp=old", HTTP_X_TOPOS_LOG=holds, **HX)
    assert _new_lines(poll) == [] and _mark(poll) == holds  # her placement is hers until she confirms it
    _play_turn(game, other, 1 - seat)
    poll = me.get(f"/tables/{game.pk}/poll/?stamp=old", HTTP_X_TOPOS_LOG=holds, **HX)
    new = _new_lines(poll)
    assert new is not None and len(new) >= 2  # her placements and the end of her turn
    assert _mark(poll) == f"{game.version}:{lines + len(new)}"
    # A page that does not hold what it should (a line it never got) is sent the whole log again.
    short = me.get(f"/tables/{game.pk}/poll/?stamp=old", HTTP_X_TOPOS_LOG=f"{holds.split(':')[0]}:{lines - 1}", **HX)
    assert _new_lines(short) is None and _mark(short) == _mark(poll)
