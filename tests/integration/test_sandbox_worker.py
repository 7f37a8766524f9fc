"""Decision 29, point 1: a bot's answer in a sandbox is played by a real worker (Redis, PostgreSQL), never inside the
request that asked for it; the real game does not move."""

from __future__ import annotations

import pytest

from sandbox.models import Sandbox
from tests.conftest import api_client_for
from tests.games.factories import started_topology, table_snapshot
from tests.integration.workers import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_worker_plays_the_bots_answer_in_a_sandbox(start_worker, owner, member):
    game = started_topology(owner, member)
    before = table_snapshot(game)
    api = api_client_for(owner)
    sid = api.post(f"/api/tables/{game.pk}/sandboxes/").json()["id"]
    seat = api.get(f"/api/sandboxes/{sid}/").json()["to_act"][0]
    reply = api.post(f"/api/sandboxes/{sid}/bot/", {"seat": seat, "level": "greedy"}, format="json")
    assert reply.status_code == 202 and reply.json()["current"] == 0 and reply.json()["bot"]["seat"] == seat
    start_worker()
    box = wait_for(
        lambda: (b := Sandbox.objects.get(pk=sid)) and not b.bot_token and b, 60, "the worker's answer in the sandbox"
    )
    assert box.current == 1 and box.nodes[1]["by"] == "bot" and box.nodes[1]["seat"] == seat
    assert api.get(f"/api/sandboxes/{sid}/").json()["bot"] is None
    assert table_snapshot(game) == before
