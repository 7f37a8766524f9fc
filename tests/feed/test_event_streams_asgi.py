"""The streams through the site's ASGI application (config.asgi, what uvicorn serves), in this process: a token of
an account that signed up through the sign-up page (and so has a language) opens both streams."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken, User
from accounts.services import api_token_create, api_token_revoke
from feed import stream
from games import services
from tests.accounts.conftest import signed_up
from tests.feed.asgi_app import AsgiGet, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("short_streams")]


def opened(path: str, key: str) -> tuple[int, dict, bytes]:
    async def go():
        answer = AsgiGet(path, token=key)
        try:
            return await answer.start()
        finally:
            await answer.close()

    return run(go)


def test_a_signed_up_accounts_token_opens_both_streams(mailoutbox, owner):
    lucia = signed_up(mailoutbox)
    assert lucia.is_active and lucia.language == "es"
    key = api_token_create(user=lucia, name="bot")[1]
    table = services.game_create(user=owner, kind="topology", players=2)
    status, headers, body = opened("/api/events/stream/", key)
    assert status == 200 and headers["content-type"].startswith("text/event-stream"), body
    assert body.startswith(b"retry: ")
    status, headers, body = opened(f"/api/tables/{table.pk}/stream/", key)
    assert status == 200 and headers["content-type"].startswith("text/event-stream"), body
    # A refusal speaks her language, as the API does.
    status, _, body = opened("/api/tables/999999/stream/", key)
    assert status == 404 and "999999" in body.decode() and "There is no table" not in body.decode()


def revoke(token) -> None:
    api_token_revoke(token=token)


def expire(token) -> None:
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))


def deactivate(token) -> None:
    User.objects.filter(pk=token.user_id).update(is_active=False)


@pytest.fixture
def quick_token_checks(monkeypatch):
    monkeypatch.setattr(stream, "TOKEN_CHECK_SECONDS", 0.1)


@pytest.mark.usefixtures("quick_token_checks")
@pytest.mark.parametrize("end", [revoke, expire, deactivate])
@pytest.mark.parametrize("which", ["events", "table"])
def test_a_stream_opened_with_a_token_closes_when_the_token_stops_holding(owner, member, which, end):
    token, key = api_token_create(user=member, name="bot")
    table = services.game_create(user=owner, kind="topology", players=2)
    path = "/api/events/stream/" if which == "events" else f"/api/tables/{table.pk}/stream/"

    async def go():
        answer = AsgiGet(path, token=key)
        try:
            status, _, _ = await answer.start()
            assert status == 200
            assert not await answer.ended(0.5)  # checked several times meanwhile, and still open
            await asyncio.to_thread(end, token)
            return await answer.ended(30)
        finally:
            await answer.close()

    assert run(go)
    assert opened(path, key)[0] == 401  # and a new connection is told why
