"""Deep or huge bodies get 400 with a message that says which limit, on every endpoint and form, before any view
logic (config.request_limits); nothing is written."""

import json

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from config.request_limits import nesting_depth
from games.models import Action, Game, IdempotentRequest
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db
DEEP = "[" * 1500 + "]" * 1500  # the measured failure: ~1,450 levels (3 KB) raised RecursionError
WRITES = ("post", "put", "patch", "delete")


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _api_writes(patterns=None, prefix=""):
    """(route, view class) of every API endpoint that takes a write, from the URL conf, so a new one is covered."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _api_writes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            route = prefix + str(pattern.pattern)
            if route.startswith("api/") and view is not None and any(hasattr(view, m) for m in WRITES):
                yield route, view


def _url(route: str, game: Game) -> str:
    # Deep JSON is refused before a view looks anything up, so any message or player will do.
    for name, value in (("<int:pk>", game.pk), ("<int:ply>", 0), ("<int:message_id>", 1), ("<str:username>", "ana")):
        route = route.replace(name, str(value))
    assert "<" not in route, f"a test value for {route} is missing here"
    return "/" + route


def test_the_url_conf_is_enumerated():
    routes = [route for route, _ in _api_writes()]
    assert "api/tables/" in routes and "api/tables/<int:pk>/actions/" in routes and len(routes) >= 10


@pytest.mark.parametrize("route,view", list(_api_writes()), ids=lambda v: v if isinstance(v, str) else "")
@pytest.mark.parametrize("auth", ["token", "session", "anonymous"])
def test_every_api_write_refuses_json_nested_1500_deep(route, view, auth, owner, member, owner_api):
    game = started_topology(owner, member)
    versions = Game.objects.get(pk=game.pk).version
    client = {"token": owner_api, "session": client_for(owner), "anonymous": client_for(None)}[auth]
    for method in (m for m in WRITES if hasattr(view, m)):
        reply = getattr(client, method)(
            _url(route, game), DEEP, content_type="application/json", HTTP_IDEMPOTENCY_KEY="deep-1"
        )
        assert reply.status_code == 400, (route, method, reply.content[:200])
        assert reply.json()["error"] == "too_deep"
        assert "nested too deeply" in reply.json()["detail"] and "64" in reply.json()["detail"]
    assert Game.objects.get(pk=game.pk).version == versions
    assert not IdempotentRequest.objects.exists()


def test_a_deep_value_inside_a_valid_body_is_refused(owner, member, owner_api):
    game = started_topology(owner, member)
    body = '{"action": {"type": "place", "x": ' + DEEP + '}, "expected_version": 0}'
    reply = owner_api.post(f"/api/tables/{game.pk}/actions/", body, content_type="application/json")
    assert reply.status_code == 400 and reply.json()["error"] == "too_deep"


def test_json_nested_within_the_limit_gets_the_ordinary_answer(owner, member, owner_api):
    game = started_topology(owner, member)
    action = json.loads("[" * 60 + "]" * 60)
    reply = owner_api.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": {"type": "x", "deep": action}, "expected_version": 0},
        format="json",
    )
    assert reply.status_code in (400, 403)
    assert reply.json()["error"] not in ("too_deep", "too_large")
    assert not Action.objects.filter(game=game).exists()


def test_a_deep_action_posted_as_a_form_field_is_refused(owner, member, owner_api):
    game = started_topology(owner, member)
    reply = owner_api.post(f"/api/tables/{game.pk}/actions/", {"action": DEEP, "expected_version": 0})  # multipart
    assert reply.status_code == 400
    assert "nested too deeply" in str(reply.json()["fields"]["action"])
    assert not Action.objects.filter(game=game).exists()


def test_the_table_page_move_form_refuses_a_deep_action(owner, member):
    game = started_topology(owner, member)
    seat = Game.objects.get(pk=game.pk).to_act[0]
    mover = client_for(owner if game.seats.get(index=seat).user_id == owner.pk else member)
    reply = mover.post(f"/tables/{game.pk}/act/", {"action": DEEP, "version": game.version}, HTTP_HX_REQUEST="true")
    assert reply.status_code == 400
    assert "nested too deeply" in reply.content.decode()
    assert not Action.objects.filter(game=game).exists()


def test_a_body_over_the_size_limit_is_refused_on_an_api_write_and_a_form(settings, owner, member, owner_api):
    settings.TOPOS_MAX_BODY_BYTES = 4096
    game = started_topology(owner, member)
    big = {"action": {"type": "end_turn", "pad": "x" * 5000}, "expected_version": 0}
    reply = owner_api.post(f"/api/tables/{game.pk}/actions/", big, format="json")
    assert reply.status_code == 400 and reply.json()["error"] == "too_large"
    assert "4 KiB" in reply.json()["detail"]
    form = client_for(owner).post(f"/tables/{game.pk}/act/", {"action": json.dumps(big["action"]), "version": 0})
    assert form.status_code == 400 and "too large" in form.content.decode()
    assert not Action.objects.filter(game=game).exists()


def test_the_refusal_is_translated(owner_api):
    reply = owner_api.post("/api/tables/", DEEP, content_type="application/json", HTTP_ACCEPT_LANGUAGE="es")
    assert reply.status_code == 400
    assert "nested" not in reply.json()["detail"] and "64" in reply.json()["detail"]


@pytest.mark.parametrize(
    "text,depth",
    [
        ("1", 0),
        ("{}", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('["]]]]", "\\"[[["]', 1),
        ('"[[["', 0),
        ("[" * 1500 + "]" * 1500, 1500),
        ('[{"k": "}}}"}, [[]]]', 3),
        ('["a\\\\", "["]', 1),
    ],
)
def test_nesting_is_counted_without_parsing(text, depth):
    assert nesting_depth(text) == depth
    assert nesting_depth(text.encode()) == depth
