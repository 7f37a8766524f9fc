"""Blocking over the API (ruling S7): /api/me/blocks/ shaped as /api/me/mutes/ (every status), and what a block
refuses or hides through the API: a challenge and an invitation (403 `not_possible`, the same words whoever
blocked), a join, and the lobby's list."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import Block
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_block_list_and_unblock_with_every_status(owner_api, owner, member, outsider):
    assert owner_api.get("/api/me/blocks/").json() == {"next": None, "previous": None, "results": []}
    made = owner_api.post("/api/me/blocks/", {"username": "bruno"}, format="json")
    assert made.status_code == 201 and made.json()["username"] == "bruno" and made.json()["created"]
    assert owner_api.post("/api/me/blocks/", {"username": "bruno"}, format="json").status_code == 200
    assert owner_api.post("/api/me/blocks/", {"username": "chen"}, format="json").status_code == 201
    listed = owner_api.get("/api/me/blocks/?page_size=1").json()
    assert [b["username"] for b in listed["results"]] == ["chen"] and listed["next"]  # newest first
    second = owner_api.get(listed["next"]).json()
    assert [b["username"] for b in second["results"]] == ["bruno"] and second["next"] is None

    for body in ({"username": "ana"}, {"username": "   "}, {}):
        bad = owner_api.post("/api/me/blocks/", body, format="json")
        assert bad.status_code == 400, body
    unknown = owner_api.post("/api/me/blocks/", {"username": "nobody"}, format="json")
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"
    assert owner_api.get("/api/me/blocks/?page_size=0").status_code == 400

    assert owner_api.delete("/api/me/blocks/bruno/").status_code == 204
    assert owner_api.delete("/api/me/blocks/bruno/").status_code == 404  # not blocked any more
    assert owner_api.delete("/api/me/blocks/nobody/").status_code == 404
    assert list(Block.objects.values_list("blocked__username", flat=True)) == ["chen"]

    anonymous = APIClient()
    assert anonymous.get("/api/me/blocks/").status_code == 401
    assert anonymous.post("/api/me/blocks/", {"username": "bruno"}, format="json").status_code == 401
    assert anonymous.delete("/api/me/blocks/chen/").status_code == 401


def test_those_who_blocked_her_are_not_listed_to_her(owner_api, member_api):
    assert member_api.post("/api/me/blocks/", {"username": "ana"}, format="json").status_code == 201
    assert owner_api.get("/api/me/blocks/").json()["results"] == []


@pytest.mark.parametrize("blocker", ["owner_api", "member_api"])
def test_a_challenge_and_an_invitation_are_refused_in_the_same_words_whoever_blocked(
    request, blocker, owner, owner_api, member_api
):
    other = "bruno" if blocker == "owner_api" else "ana"
    blocked = request.getfixturevalue(blocker).post("/api/me/blocks/", {"username": other}, format="json")
    assert blocked.status_code == 201
    challenge = owner_api.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json")
    assert challenge.status_code == 403
    assert challenge.json() == {"error": "not_possible", "detail": "It is not possible to challenge bruno."}
    table = services.game_create(user=owner, kind="topology", players=2)
    invite = owner_api.post(f"/api/tables/{table.pk}/invite/", {"username": "bruno"}, format="json")
    assert invite.status_code == 403
    assert invite.json() == {"error": "not_possible", "detail": "It is not possible to invite bruno."}
    back = member_api.post("/api/challenges/", {"username": "ana", "game": "topology"}, format="json")
    assert back.status_code == 403 and back.json()["detail"] == "It is not possible to challenge ana."
    assert Game.objects.count() == 1


def test_the_lobby_leaves_out_her_tables_to_him_and_refuses_his_join(
    owner, member, outsider, owner_api, member_api, outsider_api
):
    hers = services.game_create(user=owner, kind="topology", players=2)
    chens = services.game_create(user=outsider, kind="topology", players=2)

    def listed(client):
        return [t["id"] for t in client.get("/api/tables/").json()["results"]]

    assert set(listed(member_api)) == {hers.pk, chens.pk}
    owner_api.post("/api/me/blocks/", {"username": "bruno"}, format="json")
    assert listed(member_api) == [chens.pk]  # hers is left out for him
    assert set(listed(outsider_api)) == {hers.pk, chens.pk}  # anyone else still sees both
    his = services.game_create(user=member, kind="topology", players=2)
    assert his.pk not in listed(owner_api) and chens.pk in listed(owner_api)  # and his for her
    joined = member_api.post(f"/api/tables/{hers.pk}/join/", format="json")
    assert joined.status_code == 403
    assert joined.json() == {"error": "not_possible", "detail": "It is not possible for you to join this table."}
    assert Game.objects.get(pk=hers.pk).seats.count() == 1
