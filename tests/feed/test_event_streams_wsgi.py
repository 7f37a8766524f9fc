"""The streams under a WSGI server (the fallback): who may open them, and what they send."""

from __future__ import annotations

import itertools
import json

import pytest
from rest_framework.test import APIClient

from accounts.services import api_token_create, api_token_revoke
from feed import stream
from feed.models import Event
from feed.services import NewEvent, events_record
from games import services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("short_streams")]


def blocks(response, n: int) -> list[str]:
    """The first `n` blocks (events or comments) of a streamed answer."""
    out, buffer = [], ""
    chunks = iter(response.streaming_content)
    while len(out) < n:
        buffer += next(chunks).decode()
        while "\n\n" in buffer and len(out) < n:
            block, buffer = buffer.split("\n\n", 1)
            out.append(block)
    return out  # not response.close(): the test client would close the test's database connection with it


def data_of(block: str) -> dict:
    return json.loads(next(line[6:] for line in block.splitlines() if line.startswith("data: ")))


def test_a_private_table_stream_is_a_404_to_an_outsider_and_open_to_its_players(owner, owner_api, outsider_api):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    refused = outsider_api.get(f"/api/tables/{game.pk}/stream/", HTTP_ACCEPT="text/event-stream")
    assert refused.status_code == 404 and refused["Content-Type"] == "application/json"
    assert json.loads(refused.content)["error"] == "not_found"
    assert APIClient().get(f"/api/tables/{game.pk}/stream/").status_code == 404  # nor to anyone logged out
    assert outsider_api.get(f"/api/tables/{game.pk}/stream/?code={game.invite_code}").status_code == 200
    answer = owner_api.get(f"/api/tables/{game.pk}/stream/", HTTP_ACCEPT="text/event-stream")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/event-stream")
    opening, first = blocks(answer, 2)
    assert "event: table" in first
    assert data_of(first) == {
        "table": game.pk,
        "version": 0,
        "status": "open",
        "stamp": f"0.{int(game.updated_at.timestamp() * 1000)}",
    }


def test_a_public_table_stream_is_open_to_spectators(owner):
    game = services.game_create(user=owner, kind="topology", players=2)
    assert APIClient().get(f"/api/tables/{game.pk}/stream/").status_code == 200


def test_the_user_stream_resumes_after_a_cursor_and_needs_a_login(owner, owner_api):
    events_record([NewEvent(owner.pk, Event.Kind.MOVE, f"move:0:v{i}", None, {"version": i}) for i in range(3)])
    first_id = Event.objects.filter(user=owner).order_by("id").first().id
    answer = owner_api.get(f"/api/events/stream/?after={first_id}", HTTP_ACCEPT="text/event-stream")
    opening, *events = blocks(answer, 3)
    assert opening.startswith("retry: ") and f"id: {first_id}" in opening
    assert [data_of(b)["data"]["version"] for b in events] == [1, 2]
    assert events[0].startswith(f"id: {first_id + 1}\nevent: move")
    resumed = owner_api.get("/api/events/stream/", HTTP_LAST_EVENT_ID=str(first_id + 1))
    assert data_of(blocks(resumed, 2)[1])["data"]["version"] == 2
    assert owner_api.get("/api/events/stream/?after=nope").status_code == 400
    assert APIClient().get("/api/events/stream/").status_code in (401, 403)


def test_a_server_without_wsgi_streams_says_so_and_its_pages_do_not_ask(owner, owner_api, settings, client):
    """config.production under gunicorn's threads: a 503 that says what to do, and table pages keep polling."""
    settings.TOPOS_WSGI_STREAMS = False
    game = services.game_create(user=owner, kind="topology", players=2)
    refused = owner_api.get("/api/events/stream/")
    assert refused.status_code == 503 and "GET /api/events/" in json.loads(refused.content)["detail"]
    assert owner_api.get(f"/api/tables/{game.pk}/stream/").status_code == 503
    client.force_login(owner)
    page = client.get(f"/tables/{game.pk}/").content.decode()
    assert 'class="poller"' in page and "data-stream=" not in page
    settings.TOPOS_WSGI_STREAMS = True
    assert f'data-stream="/api/tables/{game.pk}/stream/"' in client.get(f"/tables/{game.pk}/").content.decode()


@pytest.mark.parametrize("which", ["events", "table"])
def test_a_stream_opened_with_a_token_ends_when_the_token_is_revoked(owner, member, which, monkeypatch):
    """The WSGI fallback as the ASGI app (tests/feed/test_event_streams_asgi.py): the stream asks again every
    TOKEN_CHECK_SECONDS and ends, the token being revoked while it ran."""
    monkeypatch.setattr(stream, "TOKEN_CHECK_SECONDS", 0.1)
    token, key = api_token_create(user=member, name="bot")
    table = services.game_create(user=owner, kind="topology", players=2)
    path = "/api/events/stream/" if which == "events" else f"/api/tables/{table.pk}/stream/"
    answer = APIClient().get(path, HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT="text/event-stream")
    assert answer.status_code == 200
    chunks = iter(answer.streaming_content)
    next(chunks)
    api_token_revoke(token=token)
    rest = b"".join(itertools.islice(chunks, 10_000))  # ends: the loop below would otherwise run for a minute
    assert rest.endswith(stream.TOKEN_ENDED)
    assert APIClient().get(path, HTTP_AUTHORIZATION=f"Token {key}").status_code == 401
