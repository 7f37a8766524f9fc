"""A chat message reaches the open streams under a real uvicorn process, through the real worker: on Redis the
worker's nudge (pub/sub) wakes the table's stream and the other player's feed stream (decision 12 with decision 17)."""

from __future__ import annotations

import pytest

from accounts.services import api_token_create
from chat.models import ChatMessage
from chat.selectors import chat_stamp
from feed.models import Event
from games.models import Game
from tests.feed.test_event_streams_uvicorn import redis_site  # noqa: F401  (the fixture)
from tests.games.tables import topology_table
from tests.integration.workers import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def token(user) -> str:
    return api_token_create(user=user, name="stream")[1]


def test_a_message_reaches_the_table_stream_and_the_feed_through_redis(
    redis_site,  # noqa: F811
    redis_broker,
    owner,
    member,
):
    game = topology_table(owner, member)
    wait_for(lambda: Event.objects.filter(user=member, kind="started").exists(), 60, "the worker to tell the start")
    feed = redis_site.stream("/api/events/stream/", token=token(member))
    table = redis_site.stream(f"/api/tables/{game.pk}/stream/", token=token(member))
    try:
        assert "retry" in feed.next_block()
        first = table.next_event("chat")["data"]
        assert first == {"table": game.pk, "stamp": "0.0"}
        status, body = redis_site.call(
            "POST", f"/api/tables/{game.pk}/chat/", token=token(owner), body={"body": "good luck"}
        )
        assert status == 201, body
        told = feed.next_event("chat", timeout=60)
        assert told["data"]["data"]["message"] == body["id"] and told["data"]["data"]["author"] == "ana"
        announced = table.next_event("chat", timeout=60)["data"]
        assert (
            announced
            == {"table": game.pk, "stamp": chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at)}
            != first
        )
        assert ChatMessage.objects.get(pk=body["id"]).dispatched_at is not None
    finally:
        feed.close()
        table.close()
