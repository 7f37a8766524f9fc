"""Decision 29, point 1: the sandbox page, linked from the table and the replay, in three languages; its forms do what
the API does, and refusals come back as messages on the page; other people get 404."""

from __future__ import annotations

import html
import re

import pytest

from games.models import Game
from games.selectors import replay
from sandbox.models import Sandbox
from tests.games.factories import started_topology, table_snapshot
from tests.games.test_replay import play
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def options(page: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'<option value="(\{[^"]*)"', page)]


def test_a_player_tries_lines_from_the_table_page(game, owner, member):
    web = client_for(owner)
    table = web.get(f"/tables/{game.pk}/").content.decode()
    assert f'action="/tables/{game.pk}/sandboxes/new/"' in table and "Try lines" in table
    before = table_snapshot(game)
    reply = web.post(f"/tables/{game.pk}/sandboxes/new/")
    assert reply.status_code == 302
    url = reply["Location"]
    sid = int(url.strip("/").split("/")[-1])
    page = web.get(url).content.decode()
    assert "Nothing you do here touches the real game." in page and "sandbox-tree" in page
    moves = options(page)  # shown from a seat to decide by default
    assert moves
    shown = int(re.search(r'name="seat" value="(\d)"', page).group(1))
    reply = web.post(f"/sandboxes/{sid}/move/", {"seat": shown, "action": moves[0], "shown_seat": shown})
    assert reply.status_code == 302 and reply["Location"] == f"/sandboxes/{sid}/?seat={shown}"
    page = web.get(reply["Location"]).content.decode()
    assert 'aria-current="step"' in page and len(Sandbox.objects.get(pk=sid).nodes) == 2
    # an illegal move comes back as a message; nothing changes
    reply = web.post(f"/sandboxes/{sid}/move/", {"seat": shown, "action": '{"type": "nonsense"}'}, follow=True)
    assert reply.status_code == 200 and 'class="error"' in reply.content.decode()
    reply = web.post(f"/sandboxes/{sid}/move/", {"seat": shown, "action": "{not json"}, follow=True)
    assert 'class="error"' in reply.content.decode()
    assert len(Sandbox.objects.get(pk=sid).nodes) == 2
    assert web.post(f"/sandboxes/{sid}/undo/").status_code == 302
    assert Sandbox.objects.get(pk=sid).current == 0
    assert web.post(f"/sandboxes/{sid}/goto/", {"node": "1"}).status_code == 302
    assert Sandbox.objects.get(pk=sid).current == 1
    reply = web.post(f"/sandboxes/{sid}/bot/", {"seat": "1", "level": "greedy"}, follow=True)
    assert reply.status_code == 200
    assert table_snapshot(game) == before  # the real table never moved
    # others: 404 on the page and every form
    other = client_for(member)
    assert other.get(f"/sandboxes/{sid}/").status_code == 404
    assert other.post(f"/sandboxes/{sid}/undo/").status_code == 404
    assert other.post(f"/sandboxes/{sid}/delete/").status_code == 404
    assert f"/sandboxes/{sid}/" not in other.get(f"/tables/{game.pk}/").content.decode()
    assert web.post(f"/sandboxes/{sid}/delete/").status_code == 302
    assert not Sandbox.objects.filter(pk=sid).exists()


def test_a_spectator_of_a_running_game_is_not_offered_a_sandbox(game, outsider):
    web = client_for(outsider)
    assert "Try lines" not in web.get(f"/tables/{game.pk}/").content.decode()
    reply = web.post(f"/tables/{game.pk}/sandboxes/new/", follow=True)
    assert "Only a player of this table can try lines while the game runs." in reply.content.decode()
    assert not Sandbox.objects.exists()


def test_the_replay_forks_at_its_move_from_a_chosen_seat(owner, member, outsider):
    game = play(started_topology(owner, member))
    assert game.status == Game.Status.FINISHED
    plies = replay.plies_of(game)
    web = client_for(outsider)
    page = web.get(f"/tables/{game.pk}/replay/?ply=3").content.decode()
    assert f'action="/tables/{game.pk}/sandboxes/new/"' in page and 'name="ply" value="3"' in page
    reply = web.post(f"/tables/{game.pk}/sandboxes/new/", {"ply": "3", "seat": "1"})
    box = Sandbox.objects.get()
    assert reply["Location"] == f"/sandboxes/{box.pk}/" and (box.ply, box.seat, box.owner) == (3, 1, outsider)
    assert web.get(reply["Location"]).status_code == 200
    assert plies > 3


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", ["Try lines", "Lines", "Take back"]),
        ("es", ["Probar jugadas", "Líneas", "Deshacer"]),
        ("zh-hant", ["試走變化", "變化", "退回"]),
    ],
)
def test_the_sandbox_speaks_three_languages(game, owner, lang, words):
    web = client_for(owner)
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    assert words[0] in web.get(f"/tables/{game.pk}/", **headers).content.decode()
    reply = web.post(f"/tables/{game.pk}/sandboxes/new/", **headers)
    page = web.get(reply["Location"], **headers).content.decode()
    assert words[1] in page and words[2] in page
