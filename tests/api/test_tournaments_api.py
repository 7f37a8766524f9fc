"""/api/tournaments/: list with filters and cursor pages, create, detail, register, withdraw; refusals with the
API's one error shape; the schema documents every answer with a named component."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _later(hours=2):
    return (timezone.now() + timedelta(hours=hours)).isoformat()


def _body(**extra):
    return {"name": "Winter cup", "game": "topology", "players": 2, "starts_at": _later(), **extra}


def _error(reply, status, code=None):
    assert reply.status_code == status, reply.content
    body = reply.json()
    assert set(body) >= {"error", "detail"} and body["detail"]
    if code:
        assert body["error"] == code
    return body


def test_create_then_read_it_as_anyone(owner_api):
    reply = owner_api.post(
        "/api/tournaments/", _body(options={"advanced": True}, max_entrants=6, turn_days=2), format="json"
    )
    assert reply.status_code == 201, reply.content
    data = reply.json()
    assert data["status"] == "registering" and data["organiser"] == "ana" and data["registered"] is True
    assert data["options"] == {"advanced": True} and data["turn_days"] == 2 and data["max_entrants"] == 6
    assert [e["username"] for e in data["entrant_list"]] == ["ana"]
    assert data["may_withdraw"] is True and data["may_register"] is False
    assert data["standings"][0]["username"] == "ana" and data["tables"] == []
    anonymous = APIClient().get(f"/api/tournaments/{data['id']}/")
    assert anonymous.status_code == 200 and anonymous.json()["registered"] is False
    assert anonymous.json()["may_register"] is False  # logged out


def test_create_refusals(owner_api):
    _error(owner_api.post("/api/tournaments/", _body(game="chess"), format="json"), 400, "invalid")
    _error(owner_api.post("/api/tournaments/", _body(players=5), format="json"), 400, "bad_request")  # Topology: 2-4
    _error(owner_api.post("/api/tournaments/", _body(players=3, min_entrants=2), format="json"), 400)
    _error(owner_api.post("/api/tournaments/", _body(starts_at=_later(hours=-1)), format="json"), 400)
    _error(owner_api.post("/api/tournaments/", _body(turn_days=4), format="json"), 400, "invalid")
    _error(owner_api.post("/api/tournaments/", {"name": "x"}, format="json"), 400, "invalid")
    _error(APIClient().post("/api/tournaments/", _body(), format="json"), 401)
    assert not Tournament.objects.exists()


def test_register_and_withdraw(owner_api, member_api, outsider):
    pk = owner_api.post("/api/tournaments/", _body(max_entrants=2), format="json").json()["id"]
    reply = member_api.post(f"/api/tournaments/{pk}/register/")
    assert reply.status_code == 200 and reply.json()["registered"] is True and reply.json()["entrants"] == 2
    _error(member_api.post(f"/api/tournaments/{pk}/register/"), 409, "conflict")  # already in
    from tests.conftest import api_client_for

    _error(api_client_for(outsider).post(f"/api/tournaments/{pk}/register/"), 409)  # full
    reply = member_api.post(f"/api/tournaments/{pk}/withdraw/")
    assert reply.status_code == 200 and reply.json()["registered"] is False and reply.json()["entrants"] == 1
    _error(member_api.post(f"/api/tournaments/{pk}/withdraw/"), 409)  # not in
    _error(member_api.post(f"/api/tournaments/{pk + 99}/register/"), 404, "not_found")
    _error(member_api.post(f"/api/tournaments/{pk + 99}/withdraw/"), 404, "not_found")
    _error(APIClient().post(f"/api/tournaments/{pk}/register/"), 401)
    _error(APIClient().get(f"/api/tournaments/{pk + 99}/"), 404, "not_found")


def test_register_with_an_idempotency_key_applies_once(owner_api, member_api):
    pk = owner_api.post("/api/tournaments/", _body(), format="json").json()["id"]
    first = member_api.post(f"/api/tournaments/{pk}/register/", HTTP_IDEMPOTENCY_KEY="k1")
    again = member_api.post(f"/api/tournaments/{pk}/register/", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.get(pk=pk).entrants.count() == 2


def test_list_filters_and_cursor_pages(owner, member):
    start = timezone.now() + timedelta(hours=3)
    made = [
        services.tournament_create(user=owner, name=f"T{i}", kind=kind, players=2, starts_at=start)
        for i, kind in enumerate(["topology", "toppo", "topology"])
    ]
    Tournament.objects.filter(pk=made[0].pk).update(status=Tournament.Status.FINISHED, winner=member)
    client = APIClient()
    everything = client.get("/api/tournaments/").json()
    assert [t["name"] for t in everything["results"]] == ["T2", "T1", "T0"]  # newest first
    assert everything["results"][2]["winner"] == "bruno" and everything["results"][0]["entrants"] == 1
    assert [t["name"] for t in client.get("/api/tournaments/?game=topology").json()["results"]] == ["T2", "T0"]
    assert [t["name"] for t in client.get("/api/tournaments/?status=finished").json()["results"]] == ["T0"]
    page = client.get("/api/tournaments/?page_size=2").json()
    assert [t["name"] for t in page["results"]] == ["T2", "T1"] and page["previous"] is None
    rest = client.get(page["next"]).json()
    assert [t["name"] for t in rest["results"]] == ["T0"] and rest["next"] is None
    _error(client.get("/api/tournaments/?game=chess"), 400)
    _error(client.get("/api/tournaments/?status=sleeping"), 400)
    _error(client.get("/api/tournaments/?cursor=nonsense"), 400)


def test_the_schema_names_every_answer(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = {
        p: schema["paths"][p]
        for p in (
            "/api/tournaments/",
            "/api/tournaments/{id}/",
            "/api/tournaments/{id}/register/",
            "/api/tournaments/{id}/withdraw/",
        )
    }
    operations = [(p, m, op) for p, ops in paths.items() for m, op in ops.items() if m in ("get", "post")]
    assert {op["operationId"] for _, _, op in operations} == {
        "tournaments_list",
        "tournaments_create",
        "tournament_detail",
        "tournament_register",
        "tournament_withdraw",
    }
    for path, method, op in operations:
        for status, answer in op["responses"].items():
            ref = answer["content"]["application/json"]["schema"]["$ref"]
            if status.startswith("4"):
                assert ref == "#/components/schemas/Error", (path, method, status)  # the API's one error shape
            else:
                assert ref.startswith("#/components/schemas/Tournament"), (path, method, status)
    assert {"200", "401", "404", "409"} <= set(paths["/api/tournaments/{id}/register/"]["post"]["responses"])


def test_only_the_organiser_cancels(owner_api, member_api):
    pk = owner_api.post("/api/tournaments/", _body(min_entrants=3), format="json").json()["id"]
    member_api.post(f"/api/tournaments/{pk}/register/")
    _error(member_api.post(f"/api/tournaments/{pk}/cancel/"), 403, "forbidden")
    _error(member_api.post(f"/api/tournaments/{pk}/start/"), 403, "forbidden")
    data = owner_api.get(f"/api/tournaments/{pk}/").json()
    assert data["may_organise"] is True
    assert "Only 2 of the 3" in _error(owner_api.post(f"/api/tournaments/{pk}/start/"), 409)["detail"]
    reply = owner_api.post(f"/api/tournaments/{pk}/cancel/")
    assert reply.status_code == 200 and reply.json()["status"] == "cancelled" and reply.json()["may_organise"] is False
    _error(owner_api.post(f"/api/tournaments/{pk}/cancel/"), 409)
    _error(owner_api.post(f"/api/tournaments/{pk + 99}/cancel/"), 404)
