"""The chat on the streams (decision 12 with decision 17): the table's stream announces the chat's stamp as its viewer
reads it (never a message itself), and a player's stamp does not move for a spectator's message while the game
runs; the person's feed carries a `chat` event (tests/notifications/test_notify_chat.py writes it)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from chat.selectors import chat_stamp
from chat.services import chat_post
from feed.models import Event
from feed.stream import TableFeed
from games.models import Game
from tests.feed.test_event_streams_wsgi import blocks, data_of
from tests.games.factories import started_topology

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("short_streams")]


def chat_blocks(feed: TableFeed) -> list[dict]:
    return [data_of(b) for b in feed.read().decode().split("\n\n") if b.startswith("event: chat")]


def test_the_table_stream_sends_the_chat_stamp_at_once(owner, member, owner_api):
    game = started_topology(owner, member)
    chat_post(user=owner, game_id=game.pk, body="hello")
    answer = owner_api.get(f"/api/tables/{game.pk}/stream/", HTTP_ACCEPT="text/event-stream")
    opening, table, chat = blocks(answer, 3)
    assert table.startswith("event: table") and chat.startswith("event: chat")
    assert data_of(chat) == {
        "table": game.pk,
        "stamp": chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at),
    }
    assert "hello" not in chat  # the page reads the messages itself, as its viewer may
    assert APIClient().get(f"/api/tables/{game.pk}/stream/").status_code == 200  # spectators follow it too


def test_a_players_chat_stamp_ignores_spectators_until_the_end(owner, member, outsider):
    game = started_topology(owner, member)
    players, spectators = TableFeed(game.pk, player=True), TableFeed(game.pk, player=False)
    first_player, first_spectator = chat_blocks(players), chat_blocks(spectators)
    assert len(first_player) == len(first_spectator) == 1
    chat_post(user=outsider, game_id=game.pk, body="a hint")
    assert chat_blocks(players) == []  # nothing new for her
    assert len(chat_blocks(spectators)) == 1
    chat_post(user=member, game_id=game.pk, body="thinking")
    assert len(chat_blocks(players)) == 1 and len(chat_blocks(spectators)) == 1
    assert chat_blocks(players) == [] and chat_blocks(spectators) == []  # no change, no event


def test_the_feed_api_documents_and_serves_chat_events(
    owner, member, owner_api, django_capture_on_commit_callbacks, celery_eager
):
    game = started_topology(owner, member)
    with django_capture_on_commit_callbacks(execute=True):
        message = chat_post(user=member, game_id=game.pk, body="gg")
    page = owner_api.get("/api/events/?after=0").json()
    chat = [e for e in page["results"] if e["kind"] == "chat"]
    assert len(chat) == 1 and chat[0]["data"]["message"] == message.pk and chat[0]["data"]["author"] == "bruno"
    assert Event.objects.filter(user=member, kind="chat").count() == 0
