"""Queries per request on a table, at a short and at a long game (decision 16): the same, and no more than now.

Real moves on the real database: a Toppo match (two people, correspondence) is played to 10 and to 300 logged
actions through the move service, then each request is counted once more.  A request whose count grows with the
log would read the whole log again.  The counts include the SAVEPOINT and RELEASE of the move's transaction
inside the test's own (2 that production does not run): a move through the API makes 7 in production and one
through the page 9, within decision 16's goals (8 and 10).  What a move no longer reads: the ratings and vacations
of the answer come with the seats (games.selectors.prefetch_seats_with_standing), a game without unconfirmed
turns (Toppo) has no private log rows to make public (games.services.log_visibility), and a fragment without the
badge does not count the notifications (notifications.context_processors).
"""

from __future__ import annotations

import json
import re

import pytest

from games import services, tasks
from games.models import Game
from games.selectors.positions import load_state
from tests.conftest import api_client_for
from tests.web.conftest import HX, client_for

pytestmark = pytest.mark.django_db(transaction=False)

SHORT, LONG = 10, 300
# The most queries each request may make, at any length (with the 2 savepoint statements of a move under test).
# The page and a move each mark her notices at the table read in one statement (ruling S6: moot once she is there).
# effects: a turn's email is queued even for a player at the board, and dropped when due if she saw it (ruling S6).
# The page's panels of decision 29 read her sandboxes, her notes and the last move she may see: three more.
# effects: one more since decision 29: the position, read once, labels the turns told (games.selectors.turn_labels).
MOST = {"page": 15, "poll": 9, "api detail": 7, "api legal": 2, "api move": 10, "htmx move": 12, "effects": 17}


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


def _counts(owner, member, actions: int, most) -> dict[str, int]:
    """Each request's queries on a table `actions` long (the mover is whoever is to act)."""
    game = _played_to(owner, member, actions)
    users = {s.index: s.user for s in game.seats.all()}
    counts = {}

    def _counted(call, name: str) -> tuple[int, object]:
        with most(MOST[name]) as queries:
            answer = call()
        return len(queries), answer

    seat, _ = _next_move(game)
    page, api = client_for(users[seat]), api_client_for(users[seat])
    page.get(f"/tables/{game.pk}/")  # the session and the presence marks are written once, not counted
    counts["page"], answer = _counted(lambda: page.get(f"/tables/{game.pk}/"), "page")
    assert answer.status_code == 200
    counts["poll"], answer = _counted(lambda: page.get(f"/tables/{game.pk}/poll/?stamp=old", **HX), "poll")
    assert answer.status_code == 200
    counts["api detail"], answer = _counted(lambda: api.get(f"/api/tables/{game.pk}/"), "api detail")
    assert answer.status_code == 200
    counts["api legal"], answer = _counted(lambda: api.get(f"/api/tables/{game.pk}/legal-actions/"), "api legal")
    assert answer.status_code == 200

    seat, action = _next_move(game)
    mover = api_client_for(users[seat])
    mover.get(f"/api/tables/{game.pk}/")  # as a program does before its move
    counts["api move"], answer = _counted(
        lambda: mover.post(
            f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
        ),
        "api move",
    )
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()

    seat, action = _next_move(game)
    mover = client_for(users[seat])
    holds = _log_mark(mover.get(f"/tables/{game.pk}/"))  # what the page's log holds, sent with its htmx requests
    counts["htmx move"], answer = _counted(
        lambda: mover.post(
            f"/tables/{game.pk}/act/",
            {"action": json.dumps(action), "version": game.version},
            HTTP_X_TOPOS_LOG=holds,
            **HX,
        ),
        "htmx move",
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="log-lines"' not in html and answer["HX-Reswap"] == "none"  # the page keeps its log (and region)
    new_lines = html.split('hx-swap-oob="afterbegin:#log-lines">')[1].split("</div>")[0]
    assert new_lines.count("<li>") == 1  # and gets the new line only
    counts["effects"], _ = _counted(lambda: tasks.game_effects.run(game.pk), "effects")
    return counts


def test_queries_per_request_do_not_grow_with_the_game(owner, member, django_assert_max_num_queries):
    short = _counts(owner, member, SHORT, django_assert_max_num_queries)
    long = _counts(owner, member, LONG, django_assert_max_num_queries)
    assert short == long
