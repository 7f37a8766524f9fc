"""The table chat in the API (decision 17, point 1), with the personas: a player, the other player, a spectator
(outsider), someone logged out, and a private table."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from chat.models import ChatMessage, ChatMute, ChatReport
from games import services

pytestmark = pytest.mark.django_db


def chat_url(game, suffix: str = "") -> str:
    return f"/api/tables/{game.pk}/chat/{suffix}"


def bodies(client, game, query: str = "") -> list[str]:
    answer = client.get(chat_url(game) + query)
    assert answer.status_code == 200, answer.content
    return [m["body"] for m in answer.json()["results"]]


def test_players_and_spectators_write_and_each_reads_what_she_may(game, owner_api, member_api, outsider_api):
    posted = owner_api.post(chat_url(game), {"body": " <script>alert(1)</script> "}, format="json")
    assert posted.status_code == 201
    assert posted.json() | {"created": None} == {
        "id": posted.json()["id"],
        "table": game.pk,
        "author": "ana",
        "spectator": False,
        "body": "<script>alert(1)</script>",
        "deleted": False,
        "created": None,
        "mine": True,
    }
    watcher = outsider_api.post(chat_url(game), {"body": "take the ring"}, format="json")
    assert watcher.status_code == 201 and watcher.json()["spectator"] is True
    assert bodies(member_api, game) == ["<script>alert(1)</script>"]  # plain text; the page escapes it
    assert bodies(outsider_api, game) == ["<script>alert(1)</script>", "take the ring"]
    assert bodies(APIClient(), game) == ["<script>alert(1)</script>", "take the ring"]  # reading needs no login
    refused = APIClient().post(chat_url(game), {"body": "hi"}, format="json")
    assert refused.status_code in (401, 403) and set(refused.json()) == {"error", "detail"}
    services.game_resign(game_id=game.pk, user=game.seats.get(index=1).user)
    assert bodies(member_api, game) == ["<script>alert(1)</script>", "take the ring"]  # the game is over


def test_a_private_table_chat_is_a_404_without_its_code(owner, owner_api, outsider_api):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    assert owner_api.post(chat_url(game), {"body": "anyone?"}, format="json").status_code == 201
    for answer in (
        outsider_api.get(chat_url(game)),
        outsider_api.post(chat_url(game), {"body": "x"}, format="json"),
        APIClient().get(chat_url(game)),
    ):
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    assert bodies(outsider_api, game, f"?code={game.invite_code}") == ["anyone?"]
    joined = outsider_api.post(chat_url(game), {"body": "here", "invite_code": game.invite_code}, format="json")
    assert joined.status_code == 201 and joined.json()["spectator"] is True


def test_malformed_messages_and_cursors_are_400(game, owner_api):
    for body in ({"body": "   "}, {"body": "x" * 501}, {}):
        answer = owner_api.post(chat_url(game), body, format="json")
        assert answer.status_code == 400 and {"error", "detail"} <= set(answer.json()), body
    blank = owner_api.post(chat_url(game), {"body": "   "}, format="json").json()
    assert blank["error"] == "invalid" and blank["fields"]["body"] == ["Write something before sending."]
    for query in ("?after=-1", "?after=x", "?limit=0", "?limit=201"):
        assert owner_api.get(chat_url(game) + query).status_code == 400, query
    assert not ChatMessage.objects.exists()


def test_the_chat_reads_on_by_cursor_oldest_first(game, owner_api, settings):
    settings.TOPOS_CHAT_BURST = (100, 10)
    for n in range(5):
        owner_api.post(chat_url(game), {"body": f"m{n}"}, format="json")
    first = owner_api.get(chat_url(game) + "?limit=3").json()
    assert [m["body"] for m in first["results"]] == ["m0", "m1", "m2"] and first["more"] is True
    rest = owner_api.get(chat_url(game) + f"?after={first['cursor']}&limit=3").json()
    assert [m["body"] for m in rest["results"]] == ["m3", "m4"] and rest["more"] is False
    assert owner_api.get(chat_url(game) + f"?after={rest['cursor']}").json() == {
        "results": [],
        "cursor": rest["cursor"],
        "more": False,
    }


def test_writing_too_fast_is_429_with_retry_after_and_nothing_written(game, owner_api, settings):
    settings.TOPOS_CHAT_BURST = (2, 10)
    for n in range(2):
        assert owner_api.post(chat_url(game), {"body": f"m{n}"}, format="json").status_code == 201
    refused = owner_api.post(chat_url(game), {"body": "m2"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert refused.status_code == 429 and refused.json()["error"] == "chat_rate_limited"
    assert 1 <= int(refused["Retry-After"]) <= 10 and refused.json()["retry_after"] == int(refused["Retry-After"])
    assert ChatMessage.objects.count() == 2


def test_the_author_deletes_her_message_and_nobody_else_may(game, owner_api, member_api):
    message = owner_api.post(chat_url(game), {"body": "typo"}, format="json").json()
    assert member_api.delete(chat_url(game, f"{message['id']}/")).status_code == 403
    deleted = owner_api.delete(chat_url(game, f"{message['id']}/"))
    assert deleted.status_code == 200 and deleted.json()["deleted"] is True and deleted.json()["body"] == ""
    assert member_api.get(chat_url(game)).json()["results"][0]["deleted"] is True
    assert owner_api.delete(chat_url(game, "999999/")).status_code == 404
    assert APIClient().delete(chat_url(game, f"{message['id']}/")).status_code in (401, 403)


def test_a_report_lands_once(game, owner_api, member_api):
    message = member_api.post(chat_url(game), {"body": "you are bad"}, format="json").json()
    url = chat_url(game, f"{message['id']}/report/")
    made = owner_api.post(url, {"reason": "abuse", "note": "insult"}, format="json")
    assert made.status_code == 201 and made.json()["message"] == message["id"] and made.json()["reason"] == "abuse"
    assert owner_api.post(url, {}, format="json").status_code == 409
    assert member_api.post(url, {}, format="json").status_code == 403
    assert owner_api.post(url, {"reason": "boring"}, format="json").status_code == 400
    assert ChatReport.objects.get().note == "insult"


def test_mutes_are_listed_added_and_removed(game, owner_api, member_api):
    member_api.post(chat_url(game), {"body": "hello"}, format="json")
    added = owner_api.post("/api/me/mutes/", {"username": "bruno"}, format="json")
    assert added.status_code == 201 and added.json()["username"] == "bruno"
    assert owner_api.post("/api/me/mutes/", {"username": "bruno"}, format="json").status_code == 200
    assert [m["username"] for m in owner_api.get("/api/me/mutes/").json()["results"]] == ["bruno"]
    assert bodies(owner_api, game) == []
    assert owner_api.post("/api/me/mutes/", {"username": "ana"}, format="json").status_code == 400
    assert owner_api.post("/api/me/mutes/", {"username": "nobody"}, format="json").status_code == 404
    assert owner_api.delete("/api/me/mutes/bruno/").status_code == 204
    assert owner_api.delete("/api/me/mutes/bruno/").status_code == 404
    assert bodies(owner_api, game) == ["hello"] and not ChatMute.objects.exists()
    assert APIClient().get("/api/me/mutes/").status_code in (401, 403)


def test_the_schema_documents_the_chat(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    post = schema["paths"]["/api/tables/{id}/chat/"]["post"]
    assert post["operationId"] == "table_chat_post"
    assert {"201", "400", "404", "429"} <= set(post["responses"])
    # The one error shape, which carries `retry_after` for a refusal that says when to try again.
    assert post["responses"]["429"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
    assert "Retry-After" in post["responses"]["429"]["headers"]
    assert "retry_after" in schema["components"]["schemas"]["Error"]["properties"]
    for path in (
        "/api/tables/{id}/chat/{message_id}/",
        "/api/tables/{id}/chat/{message_id}/report/",
        "/api/me/mutes/",
        "/api/me/mutes/{username}/",
    ):
        assert path in schema["paths"], path
