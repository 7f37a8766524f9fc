"""Decision 29, point 4: private notes on a table and on its moves: hers alone (API and pages, for the other player,
a spectator, anyone), kept after the game, never in the public export, and in her own data export's reader."""

from __future__ import annotations

import json

import pytest

from games.models import Game
from games.selectors import replay
from notes.models import Note
from notes.selectors import notes_for_export
from notes.services import note_delete, note_put
from tests.conftest import api_client_for
from tests.games.factories import started_topology
from tests.games.test_replay import play
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

SECRET = "NOTE-CANARY-her plan: close the ring at the east"
MOVE_SECRET = "NOTE-CANARY-move-1: this tile was a mistake"


def test_she_writes_reads_replaces_and_deletes_her_notes_by_the_api(game, owner_api):
    assert owner_api.get(f"/api/tables/{game.pk}/notes/").json() == []
    assert owner_api.get(f"/api/tables/{game.pk}/notes/table/").status_code == 404
    reply = owner_api.put(f"/api/tables/{game.pk}/notes/table/", {"text": SECRET}, format="json")
    assert reply.status_code == 200 and reply.json()["text"] == SECRET and reply.json()["ply"] is None
    reply = owner_api.put(f"/api/tables/{game.pk}/notes/0/", {"text": MOVE_SECRET}, format="json")
    assert reply.status_code == 200 and reply.json()["ply"] == 0
    reply = owner_api.put(f"/api/tables/{game.pk}/notes/table/", {"text": SECRET + "!"}, format="json")
    assert reply.json()["text"] == SECRET + "!"
    assert [n["ply"] for n in owner_api.get(f"/api/tables/{game.pk}/notes/").json()] == [None, 0]
    assert owner_api.get(f"/api/tables/{game.pk}/notes/0/").json()["text"] == MOVE_SECRET
    assert owner_api.delete(f"/api/tables/{game.pk}/notes/0/").status_code == 204
    assert owner_api.delete(f"/api/tables/{game.pk}/notes/0/").status_code == 404
    assert owner_api.delete(f"/api/tables/{game.pk}/notes/table/").status_code == 204
    assert Note.objects.count() == 0


def test_bad_notes_are_refused_and_change_nothing(game, owner_api, outsider):
    owner_api.put(f"/api/tables/{game.pk}/notes/table/", {"text": SECRET}, format="json")
    for body in ({"text": ""}, {"text": "   "}, {"text": "x" * 4001}, {}, {"text": "a\x00b"}):
        reply = owner_api.put(f"/api/tables/{game.pk}/notes/table/", body, format="json")
        assert reply.status_code == 400, body
    assert owner_api.put(f"/api/tables/{game.pk}/notes/99/", {"text": "x"}, format="json").status_code == 404
    assert owner_api.put("/api/tables/999999/notes/table/", {"text": "x"}, format="json").status_code == 404
    assert list(Note.objects.values_list("text", flat=True)) == [SECRET]
    # a private table she may not see: 404, as a table that does not exist
    private = started_topology(outsider, game.seats.get(index=1).user)
    Game.objects.filter(pk=private.pk).update(private=True)
    assert owner_api.put(f"/api/tables/{private.pk}/notes/table/", {"text": "x"}, format="json").status_code == 404


def test_nobody_else_ever_sees_her_notes_and_they_outlive_the_game(owner, member, outsider, client):
    game = started_topology(owner, member)
    owner_web = client_for(owner)
    reply = owner_web.post(f"/tables/{game.pk}/notes/", {"text": SECRET, "next": f"/tables/{game.pk}/"})
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    owner_web.post(f"/tables/{game.pk}/notes/", {"text": MOVE_SECRET, "ply": "0"})
    mine = owner_web.get(f"/tables/{game.pk}/").content.decode()
    assert SECRET in mine and MOVE_SECRET in mine
    # the other player and a spectator keep notes of their own, and see none of hers
    client_for(member).post(f"/tables/{game.pk}/notes/", {"text": "bruno's own"})
    game = play(game)
    assert game.status == Game.Status.FINISHED
    plies = replay.plies_of(game)
    readers = [client_for(member), client_for(outsider), client]
    for reader in readers:
        for url in (
            f"/tables/{game.pk}/",
            f"/tables/{game.pk}/replay/?ply=0",
            f"/tables/{game.pk}/replay/?ply={plies}",
            f"/tables/{game.pk}/log.json",
        ):
            reply = reader.get(url)
            assert reply.status_code == 200, url
            assert "NOTE-CANARY" not in reply.content.decode(), url
    for api in (api_client_for(member), api_client_for(outsider)):
        for url in (
            f"/api/tables/{game.pk}/",
            f"/api/tables/{game.pk}/export/",
            f"/api/tables/{game.pk}/actions/",
            f"/api/tables/{game.pk}/notes/",
            f"/api/tables/{game.pk}/notes/table/",
            f"/api/tables/{game.pk}/notes/0/",
            f"/api/tables/{game.pk}/positions/0/",
        ):
            assert "NOTE-CANARY" not in api.get(url).content.decode(), url
        assert api.delete(f"/api/tables/{game.pk}/notes/table/").status_code in (204, 404)
    # the public export, even asked by her, holds no note
    assert "NOTE-CANARY" not in api_client_for(owner).get(f"/api/tables/{game.pk}/export/").content.decode()
    # kept after the game, on the table page and the replay of the move it is on
    assert SECRET in owner_web.get(f"/tables/{game.pk}/").content.decode()
    replay_page = owner_web.get(f"/tables/{game.pk}/replay/?ply=0").content.decode()
    assert MOVE_SECRET in replay_page and SECRET in replay_page
    assert Note.objects.filter(owner=owner).count() == 2


def test_notes_for_export_gives_hers_as_json_ready_data(game, owner, member):
    note_put(user=owner, game=game, ply=None, text=SECRET)
    note_put(user=owner, game=game, ply=0, text=MOVE_SECRET)
    note_put(user=member, game=game, ply=None, text="bruno's own")
    exported = notes_for_export(owner)
    assert json.loads(json.dumps(exported)) == exported
    assert [(n["table"], n["game"], n["ply"], n["text"]) for n in exported] == [
        (game.pk, "topology", None, SECRET),
        (game.pk, "topology", 0, MOVE_SECRET),
    ]
    assert [n["text"] for n in notes_for_export(member)] == ["bruno's own"]
    note_delete(user=owner, game=game, ply=0)
    assert len(notes_for_export(owner)) == 1


def test_the_note_forms_refuse_bad_input_with_a_message(game, owner):
    web = client_for(owner)
    reply = web.post(f"/tables/{game.pk}/notes/", {"text": ""}, follow=True)
    assert "A note needs some text" in reply.content.decode()
    reply = web.post(f"/tables/{game.pk}/notes/delete/", {"ply": "0"}, follow=True)
    assert "You have no note there." in reply.content.decode()
    reply = web.post(f"/tables/{game.pk}/notes/", {"text": "x", "next": "https://evil.example/"})
    assert reply["Location"] == f"/tables/{game.pk}/"  # no open redirect
    assert client_for(owner).get(f"/tables/{game.pk}/notes/").status_code == 405


def test_her_data_export_holds_her_notes_and_nobody_elses(game, owner, member):
    """Ruling S8: her notes are a section of the file she downloads; the other player's notes are not in it."""
    note_put(user=owner, game=game, ply=None, text=SECRET)
    note_put(user=member, game=game, ply=None, text="bruno's own")
    body = api_client_for(owner).get("/api/me/data/")
    assert body.status_code == 200
    data = body.json()
    assert [n["text"] for n in data["notes"]] == [SECRET]
    assert "bruno's own" not in json.dumps(data)
    assert "notes.Note.owner" not in data["other"]  # told by its own section, not the generic one
