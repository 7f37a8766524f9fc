"""Random play: every listed action applies, cards are never lost, games end, logs replay.

Wrong calls are accepted at live pace but not listed (live.py explains why); the mixed test
throws some in on purpose so that penalties, restarts and restocks run in long games too.
"""

from __future__ import annotations

import json

import pytest
from toppo_table import GAME, total_cards

from engine.core import IllegalAction, make_rng, replay

MAX_STEPS = 60_000


def wild_call(state, seat, rng):
    """A call that may well be wrong: a random order, a random pair, or toppo."""
    size = state.size
    if len(state.lines[seat]) == size and rng.random() < 0.7:
        if rng.random() < 0.5:
            order = list(range(size))
            rng.shuffle(order)
            return {"type": "top", "order": order}
        return {"type": "match", "pairs": [[rng.randrange(size), rng.randrange(size)]]}
    return {"type": "toppo"}


def play(players, options, seed, wild=0.0):
    state = GAME.new_state(players, options, seed)
    rng = make_rng(f"toppo-random-{seed}", 0)
    total = total_cards(state)
    log, wrong = [], 0
    for _ in range(MAX_STEPS):
        seats = state.to_act()
        if not seats:
            return state, log, wrong
        assert seats == [s for s in range(players) if state.legal_actions(s)]
        seat = rng.choice(seats)
        if wild and state.phase == "play" and rng.random() < wild:
            action = wild_call(state, seat, rng)
            try:
                state.apply(seat, action)
            except IllegalAction:
                continue  # e.g. a call with an incomplete line: refused, nothing changed
            wrong += state.events[0]["kind"] == "wrong"
        else:
            legal = state.legal_actions(seat)
            assert legal, "a seat in to_act always has a listed action"
            action = rng.choice(legal)
            state.check(seat, action)
            state.apply(seat, action)
        log.append((seat, action))
        assert total_cards(state) == total
        if state.size:
            assert all(len(line) <= state.size for line in state.lines)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(
    "players,pace",
    [(2, "live"), (3, "correspondence"), (5, "live"), (8, "correspondence"), (4, "live"), (2, "correspondence")],
)
def test_random_matches_end_and_replay(players, pace):
    options = GAME.validate_options(players, {"pace": pace})
    for seed in range(8):
        final, log, _ = play(players, options, seed)
        assert final.is_over() and len(final.hand_points) == 3
        assert sorted(r.rank for r in final.results())[0] == 1
        again = replay(GAME, players, options, seed, [(s, json.loads(json.dumps(a))) for s, a in log])
        assert again.to_json() == final.to_json()
        assert GAME.load(json.loads(json.dumps(final.to_json()))).to_json() == final.to_json()


@pytest.mark.parametrize("players", [2, 5])
def test_live_matches_with_wrong_calls_thrown_in_still_end(players):
    options = {"pace": "live", "hands": 2}
    wrong_total = 0
    for seed in range(6):
        final, log, wrong = play(players, options, seed, wild=0.01)
        wrong_total += wrong
        assert final.is_over()
        again = replay(GAME, players, GAME.validate_options(players, options), seed, log)
        assert again.to_json() == final.to_json()
    assert wrong_total > 0
