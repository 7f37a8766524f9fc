"""Decision 9's acceptance test: at correspondence pace a bot's speed wins nothing (ruling P4 amended).

A person plays Toppo against the greedy bot.  The bot claims the instant the round starts; she
claims after it, in a round where she has priority, and her top is the one carried out.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import pytest

from engine.core import get_game
from games import services
from games.models import Action
from tests.games.tables import dealt_with

# A real transaction per write, so each commit's after-effects run (the bot claims at once).
pytestmark = pytest.mark.django_db(transaction=True)

TOPPO = get_game("toppo")
OPTIONS = {"hands": 1, "pace": "correspondence"}


def tops(state, seat) -> list[dict]:
    return [a for a in state.legal_actions(seat) if a["type"] == "top"]


@lru_cache(maxsize=None)
def both_can_top_in_round_one() -> str:
    """A seed (shaped like the site's) whose first round lets both seats top and the bot do nothing else.

    Seat 1's line matches no display card, so the greedy bot's best claim is its top (it sheds the
    whole line); seat 0, the person, has a top too.
    """
    for n in range(5000):
        seed = hashlib.sha256(f"topos-tests:toppo-priority:{n}".encode()).hexdigest()[:32]
        state = TOPPO.new_state(2, OPTIONS, seed)
        kinds = {a["type"] for a in state.legal_actions(1)}
        if tops(state, 0) and tops(state, 1) and "match" not in kinds:
            return seed
    raise AssertionError("no seed found where both seats can top in round 1")


def test_the_person_claims_after_the_bot_and_still_takes_the_display_with_priority(
    owner, owner_api, outsider_api, celery_eager
):
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 1}, bots=["greedy"])
    with dealt_with(both_can_top_in_round_one()):
        services.game_start(user=owner, game_id=game.pk)

    # The bot claimed as soon as the start committed: sealed, but its claim is in before hers.
    detail = owner_api.get(f"/api/tables/{game.pk}/").data
    view = detail["view"]
    assert view["round"] == 1 and view["claimed"] == [False, True] and view["claim_order"] == [1]
    assert view["priority"] == [0, 1], "round 1 of a hand starts with seat 0 (round r: seat r mod n)"
    assert outsider_api.get(f"/api/tables/{game.pk}/").data["view"]["priority"] == [0, 1]  # public
    assert view["my_claim"] is None and detail["my_turn"]
    mine = view["lines"][0]
    bots_line = view["lines"][1]

    top = next(a for a in detail["legal_actions"] if a["type"] == "top")
    reply = owner_api.post(
        f"/api/tables/{game.pk}/actions/", {"action": top, "expected_version": detail["version"]}, format="json"
    )
    assert reply.status_code == 200, reply.data

    log = list(Action.objects.filter(game_id=game.pk).order_by("seq").values_list("seat", "source", "action"))
    assert [(seat, source) for seat, source, _ in log[:2]] == [(1, "bot"), (0, "player")], "the bot claimed first"
    assert log[0][2]["type"] == "top", "the bot claimed a top of its own"

    after = owner_api.get(f"/api/tables/{game.pk}/").data["view"]
    last = after["last_round"]
    assert last["round"] == 1 and last["priority"] == [0, 1]
    assert [(c["seat"], c["claim"]["type"], c["outcome"]) for c in last["claims"]] == [
        (0, "top", "applied"),
        (1, "top", "void"),
    ]
    # Her cards lie on the display, in the order she claimed; the bot's line went back under its deck.
    assert [p["top"] for p in after["display"]] == [mine[j] for j in top["order"]]
    assert [p["height"] for p in after["display"]] == [2, 2, 2]
    assert after["decks_seen"][1][-3:] == bots_line
    assert after["round"] == 2 and after["priority"] == [1, 0], "the next round starts with the next seat"
