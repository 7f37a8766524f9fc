"""Decision 12, point 5: every list of the API comes in cursor pages with documented filters; here the lists that
came in one answer before (invitations) or are new (tokens).  Tables, the log, notifications and a player's games
have their own tests; the schema test below checks every list operation of the API."""

from __future__ import annotations

import pytest

from accounts.services import api_token_create
from games import services

pytestmark = pytest.mark.django_db


def all_pages(api, url: str, **query) -> list[dict]:
    body = api.get(url, query).json()
    results = body["results"]
    while body["next"]:
        body = api.get(body["next"]).json()
        results += body["results"]
    return results


def test_invitations_come_oldest_first_in_cursor_pages_with_filters(owner, member, member_api):
    tables = [
        services.game_create(user=owner, kind=kind, players=players)
        for kind, players in (("topology", 2), ("topoum", 3), ("topology", 3))
    ]
    invited = [services.game_invite(user=owner, game_id=t.pk, username="bruno") for t in tables]
    first = member_api.get("/api/invitations/", {"page_size": 2}).json()
    assert len(first["results"]) == 2 and first["previous"] is None and first["next"]
    assert [i["id"] for i in all_pages(member_api, "/api/invitations/", page_size=2)] == [i.pk for i in invited]
    assert [i["id"] for i in all_pages(member_api, "/api/invitations/", game="topology")] == [
        invited[0].pk,
        invited[2].pk,
    ]
    assert [i["id"] for i in all_pages(member_api, "/api/invitations/", players=3)] == [invited[1].pk, invited[2].pk]
    bad = member_api.get("/api/invitations/", {"game": "chess"})
    assert bad.status_code == 400 and "game" in bad.json()["fields"]
    assert member_api.get("/api/invitations/", {"cursor": "x"}).json()["error"] == "invalid_cursor"


def test_tokens_come_newest_first_in_cursor_pages(owner, owner_api):
    made = [api_token_create(user=owner, name=f"bot {n}")[0] for n in range(4)]
    listed = all_pages(owner_api, "/api/me/tokens/", page_size=2)
    assert [t["id"] for t in listed][:4] == [t.pk for t in reversed(made)] and listed[-1]["name"] == "tests"


def test_every_list_operation_of_the_schema_pages_by_cursor(client):
    """A GET whose answer has `results` is a list: it takes a cursor (the event feed and the leaderboards name
    theirs `after`, an id or a row to start after) and says what comes next."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]

    def properties(answer: dict) -> dict:
        shape = answer.get("content", {}).get("application/json", {}).get("schema", {})
        if "$ref" in shape:
            shape = components[shape["$ref"].rsplit("/", 1)[1]]
        return shape.get("properties", {})

    lists = {}
    for path, methods in schema["paths"].items():
        get = methods.get("get")
        if get and "results" in properties(get["responses"].get("200", {})):
            lists[path] = get
    # A player's own ratings are one per game (at most four), in one answer.
    one_answer = {"/api/players/{username}/ratings/", "/api/leaderboards/"}
    assert {
        "/api/tables/",
        "/api/invitations/",
        "/api/notifications/",
        "/api/me/tokens/",
        "/api/players/{username}/games/",
    } <= set(lists)
    for path, get in lists.items():
        if path in one_answer:
            continue
        names = {p["name"] for p in get.get("parameters", [])}
        assert names & {"cursor", "after"}, f"{path} is a list without a cursor"
        # `next`: the next page's address; the event feed gives its `cursor` to resume from (and to its stream).
        assert {"next", "cursor"} & set(properties(get["responses"]["200"])), f"{path} does not say what comes next"


@pytest.mark.parametrize("size", ["0", "201", "-3", "many", ""])
@pytest.mark.parametrize("url", ["/api/tables/", "/api/notifications/", "/api/me/tokens/", "/api/invitations/"])
def test_a_page_size_out_of_range_is_400_not_quietly_changed(owner_api, url, size):
    reply = owner_api.get(url, {"page_size": size})
    assert reply.status_code == 400 and reply.json()["error"] == "invalid_page_size"
    assert "200" in reply.json()["detail"]


def test_an_unknown_api_address_answers_json_in_the_error_shape(owner_api, client):
    for api in (owner_api, client):
        reply = api.get("/api/notifications/null,null/read/")
        assert reply.status_code == 404 and reply["Content-Type"] == "application/json"
        assert reply.json()["error"] == "not_found" and "/api/docs/" in reply.json()["detail"]
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
