"""State.legal_match checks one action directly (a web move need not list every placement, decision 16); it must
answer as the default does, finding the action in the legal list (core.find_action): every legal action found,
and every near miss refused (ruling G0.4: exactly the fields of its type, whole numbers as ints)."""

from __future__ import annotations

import copy

import pytest
from topology_positions import GAME, random_game

from engine.core import find_action, make_rng
from engine.hexgrid import DIRECTIONS

CONFIGURATIONS = [(2, {}), (3, {}), (2, {"advanced": True})]


def near_misses(action: dict, state) -> list:
    """Actions one small step away from `action`: another value, type or field; most are illegal."""
    out = [None, [], "place", {}, dict(action, type="pass"), {**action, "extra": 1}]
    for key in action:
        if key != "type":
            out.append({k: v for k, v in action.items() if k != key})
    if action["type"] == "turn_over":
        tile = action["tile"]
        out += [dict(action, tile=tile + 1), dict(action, tile=float(tile)), dict(action, tile=True)]
    if action["type"] == "place":
        (qa, ra), (qb, rb) = action["cells"]
        o, tile = action["orientation"], action["tile"]
        others = [t for t in list(state.board.tiles)[:2] + state.hand() + [tile + 1, -1] if t != tile]
        out += [dict(action, tile=t) for t in others]
        out += [dict(action, tile=float(tile)), dict(action, tile=str(tile))]
        out += [dict(action, orientation=x) for x in ((o + 1) % 6, (o + 3) % 6, 6, -1, float(o), True)]
        out += [
            dict(action, cells=[[qb, rb], [qa, ra]]),  # the same cells turned round: legal with o + 3 when unfolded
            dict(action, cells=[[qb, rb], [qa, ra]], orientation=(o + 3) % 6),
            dict(action, cells=[[qa, ra]]),
            dict(action, cells=[[qa, ra], [qb, rb], [qa, ra]]),
            dict(action, cells=[(qa, ra), (qb, rb)]),
            dict(action, cells=[[qa, float(ra)], [qb, rb]]),
            dict(action, cells=[[qa, ra], [qb + 2, rb]]),
            dict(action, cells="[[0, 0], [1, 0]]"),
        ]
        for dq, dr in DIRECTIONS:  # the same tile shifted one cell: off the table, onto it, or still legal
            out.append(dict(action, cells=[[qa + dq, ra + dr], [qb + dq, rb + dr]]))
    for kind in ("end_turn", "undo", "reveal", "decline"):
        out.append({"type": kind})
    return out


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_legal_match_answers_as_the_legal_list_does_on_random_positions(players, options):
    found = refused = 0
    for seed in range(4):
        rng = make_rng("legal-match-sample", seed)
        for state in random_game(players, options, seed, "legal-match"):
            seats = range(players)
            for seat in seats:
                legal = state.legal_actions(seat)
                for action in legal:
                    match = state.legal_match(seat, copy.deepcopy(action))
                    assert match == action and find_action(match, [action]) is action
                    found += 1
                sample = rng.sample(legal, min(6, len(legal)))
                for action in sample + [{"type": "place", "tile": 0, "cells": [[0, 0], [1, 0]], "orientation": 0}]:
                    for miss in near_misses(action, state):
                        expected = find_action(miss, legal)
                        assert state.legal_match(seat, miss) == expected, (seat, miss)
                        refused += expected is None
    assert found > 1000 and refused > 1000


def test_legal_match_leaves_the_state_as_it_was():
    state = GAME.new_state(2, {}, 5)
    for _ in range(9):
        state.apply(state.current, state.legal_actions(state.current)[0])
    before = state.to_json()
    legal = state.legal_actions(state.current)
    for action in legal[:50]:
        state.legal_match(state.current, action)
    assert state.to_json() == before and state.legal_actions(state.current) == legal
