"""Characters PostgreSQL cannot store (U+0000 in text and jsonb, lone surrogates in any UTF-8 text) are refused with
400 at the edge, wherever they come from (config.request_limits): paths, query strings, headers, JSON and form
bodies.  Before, each of these reached the database and answered 500 on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.errors import ServiceError
from games.models import Game
from games.services.vacation import vacation_start
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/api/players/%00/"),
        ("get", "/api/players/%00/games/"),
        ("get", "/api/players/%00/ratings/"),
        ("delete", "/api/me/mutes/%00/"),
        ("delete", "/api/me/blocks/%00/"),
        ("get", "/api/players/a%00b/"),
    ],
)
def test_a_nul_in_an_api_path_is_a_400(owner_api, method, path):
    answer = getattr(owner_api, method)(path)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_characters"
    assert "U+0000" in answer.json()["detail"]


def test_a_nul_in_a_page_path_is_a_400(owner):
    client = Client()
    client.force_login(owner)
    answer = client.get("/accounts/players/%00/")
    assert answer.status_code == 400
    assert "U+0000" in answer.content.decode()


def test_a_nul_in_a_query_string_is_a_400(owner_api):
    answer = owner_api.get("/api/tables/", {"game": "topology\x00"})
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_characters"


@pytest.mark.parametrize("header", ["HTTP_IDEMPOTENCY_KEY", "HTTP_USER_AGENT"])
def test_a_nul_in_a_header_is_a_400(owner_api, header):
    answer = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json", **{header: "k\x00"})
    assert answer.status_code == 400
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/tables/", {"game": "\x00", "players": 2}),
        ("/api/tournaments/", {"name": "\x00", "game": "\x00"}),
        ("/api/tables/", {"game": "topology", "players": 2, "options": {"\x00": "x"}}),
    ],
)
def test_an_idempotent_request_whose_refusal_would_echo_a_nul_is_a_400(owner_api, path, body):
    answer = owner_api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="key-1")
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_characters"
    assert not Game.objects.exists()


def test_an_idempotent_move_whose_refusal_would_echo_a_nul_is_a_400(owner, member, owner_api, member_api):
    game = started_topology(owner, member)
    client = owner_api if game.to_act[0] == 0 else member_api
    answer = client.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": {"type": "\x00"}, "expected_version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="move-1",
    )
    assert answer.status_code == 400
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb", "\udc00\ud800"])
def test_a_lone_surrogate_in_json_is_a_400(owner_api, text):
    body = json.dumps({"game": "topology", "players": 2, "options": {"name": text}})  # escaped: \\udXXX
    answer = owner_api.post("/api/tables/", body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_characters"


def test_a_surrogate_pair_is_a_character_like_any_other(owner_api):
    answer = owner_api.post(
        "/api/tables/",
        '{"game": "topology", "players": 2, "options": {"x": "\\ud83d\\ude00"}}',
        content_type="application/json",
    )
    assert answer.status_code != 500
    assert answer.json().get("error") != "bad_characters"


def test_an_escaped_backslash_before_u0000_is_plain_text(owner_api):
    answer = owner_api.get("/api/players/%5Cu0000/")
    assert answer.status_code == 404


def test_a_nul_in_a_form_body_is_a_400(owner_api):
    answer = owner_api.post("/api/tables/", {"game": "topology\x00", "players": "2"}, format="multipart")
    assert answer.status_code == 400
    answer = owner_api.patch("/api/me/", "language=es%00", content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 400


def test_a_nul_in_a_page_form_is_a_400(owner):
    client = Client()
    client.force_login(owner)
    answer = client.post("/accounts/vacation/start/", {"days": "1\x00"})
    assert answer.status_code == 400


def test_a_vacation_of_a_billion_days_is_a_400_in_the_api(owner_api):
    answer = owner_api.post("/api/me/vacation/", {"days": 999_999_999}, format="json")
    assert answer.status_code == 400
    assert "vacation days left" in answer.json()["detail"]


def test_a_vacation_of_a_billion_days_is_refused_by_the_service(owner):
    with pytest.raises(ServiceError) as refused:
        vacation_start(user=owner, days=999_999_999)
    assert refused.value.status_code == 400


def test_a_vacation_of_a_billion_days_is_a_400_in_the_page_form(owner):
    client = Client()
    client.force_login(owner)
    answer = client.post("/accounts/vacation/start/", {"days": "999999999"})
    assert answer.status_code == 400


@pytest.mark.parametrize(
    "field, value",
    [("players", "1000000000000000000000000000000"), ("time_bank_days", "1000000000000000000000000000000")],
)
def test_huge_numbers_in_the_new_table_form_change_nothing(owner, field, value):
    client = Client()
    client.force_login(owner)
    form = {"game": "topology", "players": "2", "pace": "correspondence", "days": "3", "time_bank_days": "0"}
    answer = client.post("/tables/new/", {**form, field: value})
    assert answer.status_code < 500
    assert not Game.objects.exists()
    client.post("/tables/new/", form)  # the same form with a sane number opens the table
    assert Game.objects.exists()


def test_the_servers_own_environment_is_not_the_clients_input(owner_api):
    # runserver puts its environment in META; an undecodable byte there is a lone surrogate no client sent.
    assert owner_api.get("/api/me/", LANG_FROM_THE_SERVER="\udcff").status_code == 200
