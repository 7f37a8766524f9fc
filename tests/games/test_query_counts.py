"""Queries per request on a table, at a short and at a long game (issue 16): the same, and within the goals.

Real moves on the real database: a Toppo match (two people, correspondence) is played to 10 and to 300 logged
actions through the move service, then each request is counted once more.  A request whose count grows with the
log would read the whole log again; the goals are 8 queries for a move through the API and 10 through the page.
"""
from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, tasks
from games.models import Game
from games.positions import load_state
from tests.conftest import api_client_for
from tests.web.conftest import HX, client_for

pytestmark = pytest.mark.django_db(transaction=False)

API_MOVE, HTMX_MOVE = 8, 10
SHORT, LONG = 10, 300


def _next_move(game: Game) -> tuple[int, dict]:
    """The seat to act and a plain move of its (a hand ended early when it can, else the first legal one)."""
    state = load_state(game)
    seat = state.to_act()[0]
    legal = [a for a in state.legal_actions(seat) if a.get("type") != "undo"]
    return seat, next((a for a in legal if a["type"] == "end_turn"), legal[0])


def _played_to(owner, member, actions: int) -> Game:
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 20})
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    users = {s.index: s.user for s in game.seats.all()}
    while game.version < actions:
        seat, action = _next_move(game)
        services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
        game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def _log_mark(page) -> str:
    return re.search(r'"X-Topos-Log": "(\d+:\d+)"', page.content.decode()).group(1)


def _counted(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        answer = call()
    return len(queries), answer


def _counts(owner, member, actions: int) -> dict[str, int]:
    """Each request's queries on a table `actions` long (the mover is whoever is to act)."""
    game = _played_to(owner, member, actions)
    users = {s.index: s.user for s in game.seats.all()}
    counts = {}
    seat, _ = _next_move(game)
    page, api = client_for(users[seat]), api_client_for(users[seat])
    page.get(f"/tables/{game.pk}/")  # the session and the presence marks are written once, not counted
    counts["page"], answer = _counted(lambda: page.get(f"/tables/{game.pk}/"))
    assert answer.status_code == 200
    counts["poll"], answer = _counted(lambda: page.get(f"/tables/{game.pk}/poll/?stamp=old", **HX))
    assert answer.status_code == 200
    counts["api detail"], answer = _counted(lambda: api.get(f"/api/tables/{game.pk}/"))
    assert answer.status_code == 200
    counts["api legal"], answer = _counted(lambda: api.get(f"/api/tables/{game.pk}/legal-actions/"))
    assert answer.status_code == 200

    seat, action = _next_move(game)
    mover = api_client_for(users[seat])
    mover.get(f"/api/tables/{game.pk}/")  # the token's last use is written at most every few minutes
    counts["api move"], answer = _counted(lambda: mover.post(
        f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"))
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()

    seat, action = _next_move(game)
    mover = client_for(users[seat])
    holds = _log_mark(mover.get(f"/tables/{game.pk}/"))  # what the page's log holds, sent with its htmx requests
    counts["htmx move"], answer = _counted(lambda: mover.post(
        f"/tables/{game.pk}/act/", {"action": json.dumps(action), "version": game.version},
        HTTP_X_TOPOS_LOG=holds, **HX))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert '<ol id="log-lines" class="log-lines" reversed hx-preserve></ol>' in html  # the page keeps its log
    assert html.split('hx-swap-oob="afterbegin:#log-lines">')[1].count("<li>") == 1  # and gets the new line only
    counts["effects"], _ = _counted(lambda: tasks.game_effects.run(game.pk))
    return counts


def test_queries_per_request_do_not_grow_with_the_game_and_moves_stay_within_the_goals(owner, member, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    short = _counts(owner, member, SHORT)
    long = _counts(owner, member, LONG)
    print("queries", {"short": short, "long": long})
    assert short == long
    assert long["api move"] <= API_MOVE and long["htmx move"] <= HTMX_MOVE


def test_dump(owner, member):
    game = _played_to(owner, member, 10)
    users = {s.index: s.user for s in game.seats.all()}
    for kind in ("api", "htmx"):
        seat, action = _next_move(game)
        if kind == "api":
            mover = api_client_for(users[seat])
            mover.get(f"/api/tables/{game.pk}/")
            call = lambda: mover.post(f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json")  # noqa
        else:
            mover = client_for(users[seat])
            mover.get(f"/tables/{game.pk}/")
            call = lambda: mover.post(f"/tables/{game.pk}/act/", {"action": json.dumps(action), "version": game.version}, **HX)  # noqa
        with CaptureQueriesContext(connection) as q:
            call()
        print("=====", kind)
        for x in q.captured_queries:
            print(x["sql"][:230])
        game.refresh_from_db()
