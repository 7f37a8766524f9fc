"""The API also takes a browser session, and then asks for the CSRF token like any form."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_session_without_the_csrf_token_is_refused(owner):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    reply = browser.post("/api/tables/", {"game": "topology", "players": 2}, content_type="application/json")
    assert reply.status_code == 403
    assert "CSRF" in reply.json()["detail"]


def test_a_session_with_the_csrf_token_may_write(owner):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    browser.get("/")  # sets the csrftoken cookie as any page does
    token = browser.cookies["csrftoken"].value
    reply = browser.post(
        "/api/tables/", {"game": "topology", "players": 2}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert reply.status_code == 201
    assert browser.get("/api/tables/mine/").json()["results"][0]["id"] == reply.json()["id"]


def test_anonymous_reads_of_private_things_are_refused(client):
    assert client.get("/api/tables/mine/").status_code in (401, 403)
    assert client.get("/api/catalogue/").status_code == 200


def test_an_unknown_token_is_refused_with_401(client):
    reply = client.get("/api/tables/mine/", HTTP_AUTHORIZATION="Token tps_not-a-real-key")
    assert reply.status_code == 401
    assert "unknown or has been revoked" in reply.json()["detail"]


def test_a_session_with_an_idempotency_key_creates_one_table_however_often_it_retries(owner):
    from games.models import Game

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    browser.get("/")
    token = browser.cookies["csrftoken"].value
    replies = [
        browser.post(
            "/api/tables/",
            {"game": "topology", "players": 2},
            content_type="application/json",
            HTTP_X_CSRFTOKEN=token,
            HTTP_IDEMPOTENCY_KEY="session-create-1",
        )
        for _ in range(2)
    ]
    assert [r.status_code for r in replies] == [201, 201]
    assert replies[0].json()["id"] == replies[1].json()["id"]
    assert replies[1]["Idempotent-Replayed"] == "true"
    assert Game.objects.filter(created_by=owner).count() == 1
