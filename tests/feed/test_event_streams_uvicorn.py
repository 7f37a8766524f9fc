"""The streams under a real uvicorn process: a move made after connecting reaches the stream, on the embedded
setup (the stream reads the database every second) and on Redis (the worker's nudge through pub/sub wakes it);
an open stream holds no thread of the server; a private table's stream is a 404 to an outsider."""

from __future__ import annotations

import pytest

from accounts.services import api_token_create
from feed.models import Event
from games.models import Game
from tests.conftest import TEST_BROKER
from tests.feed.uvicorn_site import Uvicorn
from tests.games.tables import pick, toppo_table
from tests.integration.workers import TEST_REDIS_URL, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def token(user) -> str:
    return api_token_create(user=user, name="stream")[1]


def move_over_http(site: Uvicorn, game: Game, key: str, seat: int = 0) -> int:
    """The player at `seat` makes her first legal decision through the API of the uvicorn process; the new
    version."""
    from engine.core import get_game

    game = Game.objects.get(pk=game.pk)
    action = pick(game.kind, get_game(game.kind).load(game.state), seat)
    status, body = site.call(
        "POST", f"/api/tables/{game.pk}/actions/", token=key, body={"action": action, "expected_version": game.version}
    )
    assert status == 200, body
    return body["version"]


def a_move_reaches_the_stream(site: Uvicorn, owner, member) -> None:
    # Toppo: its decisions are public at once (a Topology placement would stay hers until end_turn, ruling S3)
    game = toppo_table(owner, member, hands=20)
    wait_for(lambda: Event.objects.filter(user=member, kind="started").exists(), 60, "the worker to tell the start")
    stream = site.stream("/api/events/stream/", token=token(member))  # no cursor: from now on
    table = site.stream(f"/api/tables/{game.pk}/stream/", token=token(member))
    try:
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
        opening = stream.next_block()
        assert "retry" in opening and int(opening["id"]) == Event.objects.filter(user=member).latest("id").id
        assert table.next_event("table")["data"]["version"] == 0
        # Made after both connected.  The first claim of a Toppo round by correspondence is sealed and tells nobody
        # anything new (decision 28: no dispatch, no "move" event); the table's stream shows its version all the same.
        sealed = move_over_http(site, game, token(owner), seat=0)
        assert table.next_event("table", timeout=60)["data"]["version"] == sealed
        version = move_over_http(site, game, token(member), seat=1)  # hers resolves the round
        move = stream.next_event("move", timeout=60)
        assert move["data"]["kind"] == "move" and move["data"]["table"] == game.pk
        assert move["data"]["data"]["version"] == version
        assert int(move["id"]) == Event.objects.get(user=member, key=f"move:{game.pk}:v{version}").id
        assert table.next_event("table", timeout=60)["data"]["version"] == version
    finally:
        stream.close()
        table.close()


@pytest.fixture
def embedded_site(embedded_worker, tmp_path):
    site = Uvicorn(tmp_path / "uvicorn.log", broker_dir=TEST_BROKER)
    yield site
    site.stop()


@pytest.fixture
def redis_site(start_worker, tmp_path):
    start_worker("events")
    site = Uvicorn(tmp_path / "uvicorn.log", redis_url=TEST_REDIS_URL)
    yield site
    site.stop()


def test_a_move_reaches_the_stream_under_uvicorn_on_the_embedded_setup(embedded_site, owner, member):
    a_move_reaches_the_stream(embedded_site, owner, member)


@pytest.mark.redis
def test_a_move_reaches_the_stream_under_uvicorn_through_redis_pub_sub(redis_site, redis_broker, owner, member):
    channel = f"topos:events:user:{member.pk}"
    seen = redis_broker.pubsub()
    seen.subscribe(channel)
    a_move_reaches_the_stream(redis_site, owner, member)
    # The worker nudged the member's channel (the stream itself had subscribed to it) ...
    messages = [seen.get_message(timeout=1) for _ in range(5)]
    assert any(m and m["type"] == "message" and m["channel"].decode() == channel for m in messages)
    seen.close()


def test_open_streams_hold_no_thread_and_a_private_table_is_a_404(embedded_site, owner, member, outsider):
    from games import services

    private = services.game_create(user=owner, kind="topology", players=2, private=True)
    refused = embedded_site.call("GET", f"/api/tables/{private.pk}/stream/", token=token(outsider))
    assert refused == (404, {"error": "not_found", "detail": f"There is no table #{private.pk} that you can see."})
    assert embedded_site.call("GET", "/api/events/stream/?after=x", token=token(owner))[0] == 400
    key = token(member)
    before = embedded_site.threads()
    streams = [embedded_site.stream("/api/events/stream/", token=key) for _ in range(40)]
    try:
        for s in streams:
            assert "retry" in s.next_block()
        # Forty idle streams, and the server runs the threads it had (plus at most its shared pool's few).
        assert embedded_site.threads() < before + 10, (before, embedded_site.threads())
    finally:
        for s in streams:
            s.close()


def test_a_signed_up_accounts_token_streams_under_uvicorn_until_it_is_revoked(tmp_path, mailoutbox, owner):
    """The real server: a token of an account made by the sign-up page (with a language) opens both streams; revoked,
    the open streams end by themselves within seconds and a new connection is refused."""
    from accounts.services import api_token_revoke
    from games import services
    from tests.accounts.conftest import signed_up

    lucia = signed_up(mailoutbox)
    api_token, key = api_token_create(user=lucia, name="bot")
    table = services.game_create(user=owner, kind="topology", players=2)
    site = Uvicorn(tmp_path / "uvicorn.log")
    streams = []
    try:
        streams = [
            site.stream("/api/events/stream/", token=key),
            site.stream(f"/api/tables/{table.pk}/stream/", token=key),
        ]
        assert [s.status for s in streams] == [200, 200]
        assert "retry" in streams[0].next_block() and streams[1].next_event("table")["data"]["table"] == table.pk
        api_token_revoke(token=api_token)
        for s in streams:
            with pytest.raises(EOFError):  # a comment says why, then the end (the reads time out after 30 s)
                while True:
                    s.next_block()
        assert site.call("GET", "/api/events/stream/", token=key)[0] == 401
        assert "Traceback" not in site.output()
    finally:
        for s in streams:
            s.close()
        site.stop()
