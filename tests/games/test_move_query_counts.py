"""Queries of a move, every game, flat and few (decision 28): an API move at most 8 at the median and 12 at a turn
change, a move through the page (htmx) at most 10 and 14.

Real games on the real database, played through the API and the page by two people with random legal moves; the
after-move dispatch runs after each move (outside the count), so the mover's "your turn" is there to be made moot
as in production.  The transaction's own statements (BEGIN, COMMIT; under a test SAVEPOINT and RELEASE) are not
counted: they are not queries.  A move that ends the game (the ranks, the ratings, the player summaries, ruling S5)
is reported apart and bounded by END.
"""

from __future__ import annotations

import json
import random
import re
import statistics

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, tasks
from games.models import Game
from games.selectors.positions import load_state
from tests.conftest import api_client_for
from tests.web.conftest import HX, client_for

pytestmark = pytest.mark.django_db(transaction=False)

GAMES = ("topology", "topoum", "toppo")
LIMITS = {"api": (8, 12), "htmx": (10, 14)}  # (median, at a turn change): decision 28
END = 24  # the move that ends the game: ranks, ratings and summaries written in its transaction (ruling S5)
MOVES = 60
CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def _queries(captured) -> int:
    return sum(1 for q in captured.captured_queries if not q["sql"].lstrip().upper().startswith(CONTROL))


def _mark(answer, old: str) -> str:
    found = re.search(r'"X-Topos-Log": "(\d+:\d+)"', answer.content.decode())
    return found.group(1) if found else old


def _played(kind: str, owner, member, way: str) -> list[tuple[int, bool, bool]]:
    """(queries, turn changed, game over) of each move of a game of `kind` played through `way`."""
    game = services.game_create(user=owner, kind=kind, players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    tasks.game_effects.run(game.pk)
    users = {s.index: s.user for s in game.seats.all()}
    clients = {i: (api_client_for(u) if way == "api" else client_for(u)) for i, u in users.items()}
    marks = {i: _mark(clients[i].get(f"/tables/{game.pk}/"), "") for i in users} if way == "htmx" else {}
    rng, moves = random.Random(f"{kind}:{way}"), []
    while game.status == Game.Status.RUNNING and len(moves) < MOVES:
        seat = game.to_act[0]
        action = rng.choice([a for a in load_state(game).legal_actions(seat) if a.get("type") != "undo"])
        with CaptureQueriesContext(connection) as captured:
            if way == "api":
                answer = clients[seat].post(
                    f"/api/tables/{game.pk}/actions/",
                    {"action": action, "expected_version": game.version},
                    format="json",
                )
            else:
                answer = clients[seat].post(
                    f"/tables/{game.pk}/act/",
                    {"action": json.dumps(action), "version": game.version},
                    HTTP_X_TOPOS_LOG=marks[seat],
                    **HX,
                )
        assert answer.status_code == 200, answer.content[:300]
        if way == "htmx":
            marks[seat] = _mark(answer, marks[seat])
        game.refresh_from_db()
        moves.append((_queries(captured), seat not in game.to_act, game.status != Game.Status.RUNNING))
        tasks.game_effects.run(game.pk)  # as the worker does after the commit: her next "your turn" is made
    return moves


@pytest.mark.parametrize("way", ["api", "htmx"])
@pytest.mark.parametrize("kind", GAMES)
def test_a_moves_queries_are_few_and_flat_in_every_game(kind, way, owner, member):
    moves = _played(kind, owner, member, way)
    median, at_turn = LIMITS[way]
    counts = [n for n, _, over in moves if not over]
    turns = [n for n, changed, over in moves if changed and not over]
    assert turns, "no turn changed hands: play more moves"
    assert statistics.median(counts) <= median, counts
    assert max(turns) <= at_turn, turns
    assert all(n <= END for n, _, over in moves if over)
