"""apply_legal (engine.core.State) carries out a listed action exactly as apply does, without checking it again."""

from __future__ import annotations

import random

import pytest

from engine.core import get_game


@pytest.mark.parametrize("pace", ["live", "correspondence"])
@pytest.mark.parametrize("seed", range(3))
def test_apply_legal_does_what_apply_does_with_every_listed_action(pace, seed):
    # Whole matches of random listed actions: the display choice, tops, matches, toppo, renewals, the votes (P6).
    state = get_game("toppo").new_state(3, {"pace": pace, "hands": 2}, f"legal-{seed}")
    rng = random.Random(seed)
    steps = 0
    while not state.is_over() and steps < 4000:
        seat = rng.choice(state.to_act())
        action = rng.choice(state.legal_actions(seat))
        checked, unchecked = state.clone(), state.clone()
        checked.apply(seat, action)
        unchecked.apply_legal(seat, action)
        assert unchecked.to_json() == checked.to_json(), action
        assert unchecked.describe(seat, action) == checked.describe(seat, action)
        state = unchecked
        steps += 1
    assert steps > 20


def test_a_claim_kept_by_apply_legal_is_a_copy_of_the_listed_action():
    # A sealed claim is stored until the round resolves (P4): changing the list it came from must not change it.
    state = get_game("toppo").new_state(2, {"pace": "correspondence"}, "copy")
    listed = state.legal_actions(0)
    renew = next(a for a in listed if a["type"] == "renew")
    state.apply_legal(0, renew)
    renew["type"] = "toppo"
    assert state.claims == [[0, {"type": "renew"}]]
