"""The placements kept up to date as tiles come and go (decision 16) against a from-scratch enumeration,
and clones that share what never changes without letting a change through (ruling L2, S3)."""

from __future__ import annotations

import json

import pytest
from topology_positions import GAME, random_game

from engine.core import make_rng
from engine.hexgrid import DIRECTIONS
from engine.topology.board import Board
from engine.topology.lines import LineIndex
from engine.topology.state import TopologyState
from engine.topology.tiles import design_of, symmetric

CONFIGURATIONS = [(2, {}), (3, {}), (4, {}), (2, {"advanced": True})]


def scratch_place_actions(state) -> list[dict]:
    """Every place action of the hand, enumerated from the covered cells alone: the rule of ruling L2
    (two empty neighbouring cells, touching the table; a design a half-turn keeps in orientations 0..2),
    listed by frontier cell, then direction, each pair of frontier cells from its smaller cell."""
    cells = state.board.cells
    frontier = {(q + dq, r + dr) for q, r in cells for dq, dr in DIRECTIONS if (q + dq, r + dr) not in cells}
    spots = []
    for cell in sorted(frontier):
        for direction, (dq, dr) in enumerate(DIRECTIONS):
            other = (cell[0] + dq, cell[1] + dr)
            if other in cells or (other in frontier and other < cell):
                continue
            spots += [(cell, direction, other), (other, (direction + 3) % 6, cell)]
    return [
        {"type": "place", "tile": tile, "cells": [list(anchor), list(other)], "orientation": orientation}
        for tile in state.hand()
        for anchor, orientation, other in spots
        if not (orientation >= 3 and symmetric()[design_of(tile)])
    ]


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_listed_placements_match_a_from_scratch_enumeration_at_every_step(players, options):
    steps = 0
    for seed in range(6):
        for state in random_game(players, options, seed):
            if state.is_over() or not state.decided() or not state.hand():
                continue
            listed = [action for action in state.legal_actions(state.current) if action["type"] == "place"]
            assert listed == scratch_place_actions(state)
            # a loaded copy lists them in the very same order (bots and replays rely on it)
            loaded = TopologyState.from_json(json.loads(json.dumps(state.to_json())))
            assert loaded.legal_actions(loaded.current) == state.legal_actions(state.current)
            steps += 1
    assert steps > 100


def test_placements_come_back_exactly_after_undo():  # ruling S3
    state = GAME.new_state(2, {}, 7)
    rng = make_rng("undo", 7)
    for _ in range(12):  # a few turns in, so that the table has a shape
        legal = [action for action in state.legal_actions(state.current) if action["type"] != "undo"]
        state.apply(state.current, rng.choice(legal))
    while not state.hand():
        state.apply(state.current, {"type": "end_turn"})
    seat = state.current
    before = state.legal_actions(seat)
    for action in rng.sample([a for a in before if a["type"] == "place"], 20):
        state.apply(seat, action)
        assert state.legal_actions(seat) != before
        state.apply(seat, {"type": "undo"})
        assert state.legal_actions(seat) == before
        assert [a for a in before if a["type"] == "place"] == scratch_place_actions(state)


def test_the_others_see_the_turn_start_with_its_own_placements():  # ruling S3: turn_start removes this turn's tiles
    for state in random_game(2, {}, 3):
        if state.placed_now():
            start = state.turn_start()
            assert start.board.spots() == Board.from_json(start.board.to_json()).spots()
            assert set(start.board.tiles) == set(state.board.tiles) - set(state.placed_now())


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_changing_a_clone_never_changes_the_original(players, options):
    rng = make_rng("clones", players)
    for state in random_game(players, options, 11):
        if state.is_over():
            continue
        frozen = json.dumps(state.to_json(), sort_keys=True)
        legal = state.legal_actions(state.current)
        copy = state.clone()
        for _ in range(4):  # a few decisions on the copy: placements, undo, turn-overs, the end of the turn
            if copy.is_over():
                break
            copy.apply(copy.current, rng.choice(copy.legal_actions(copy.current)))
        assert json.dumps(state.to_json(), sort_keys=True) == frozen
        assert state.legal_actions(state.current) == legal
        if state.hand() and state.decided():
            assert [a for a in legal if a["type"] == "place"] == scratch_place_actions(state)


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_apply_legal_does_what_apply_does(players, options):
    for seed in range(3):
        checked = GAME.new_state(players, options, seed)
        trusted = GAME.new_state(players, options, seed)
        rng = make_rng("apply_legal", seed)
        while not checked.is_over():
            action = rng.choice(trusted.legal_actions(trusted.current))
            checked.apply(checked.current, action)
            trusted.apply_legal(trusted.current, action)
            assert trusted.to_json() == checked.to_json()
        assert trusted.results() == checked.results()


def test_the_stored_json_keeps_its_shape_and_no_cache():
    """Games in the database are this JSON: the same fields as before the placement index, nothing more."""
    state = next(s for s in random_game(2, {}, 5) if s.turn == 3 and s.placed_now())
    data = state.to_json()
    assert set(data) == {
        "players",
        "advanced",
        "seed",
        "stack",
        "start_player",
        "board",
        "current",
        "turn",
        "revealed",
        "steps",
        "scores",
        "last_turn",
        "history",
    }
    assert all(isinstance(placed, list) and len(placed) == 4 for placed in data["board"])
    assert TopologyState.from_json(json.loads(json.dumps(data))).to_json() == data


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_the_bots_open_lines_follow_each_placement_as_a_fresh_walk_finds_them(players, options):
    """engine/topology/lines.py derives a playout's next table's open lines from the last ones."""
    checked = 0
    for seed in range(4):
        index, before = None, []
        for state in random_game(players, options, seed):
            placed = list(state.board.tiles.items())
            if index is not None and placed[:-1] == before:
                last, (anchor, orientation) = placed[-1]
                assert index.with_tile(last, anchor, orientation).other == LineIndex(state.board).other
                checked += 1
            index, before = LineIndex(state.board), placed
    assert checked > 50


@pytest.mark.parametrize("players,options", CONFIGURATIONS)
def test_a_loaded_state_played_on_before_listing_lists_what_the_original_lists(players, options):
    """A loaded board builds where tiles fit only when asked (decision 16): moves, undo and turn-overs made
    before that, checked as the site checks them, must leave it listing exactly what the original lists."""
    rng = make_rng("loaded", players)
    checked = 0
    for state in random_game(players, options, 2):
        if state.is_over():
            continue
        loaded = TopologyState.from_json(json.loads(json.dumps(state.to_json())))
        played = state.clone()
        for _ in range(3):  # the decisions a few requests would send, each checked (placements use `touches`)
            if played.is_over():
                break
            action = rng.choice(played.legal_actions(played.current))
            played.apply(played.current, action)
            loaded.apply(loaded.current, action)
        assert loaded.to_json() == played.to_json()
        if not loaded.is_over():
            assert loaded.legal_actions(loaded.current) == played.legal_actions(played.current)
            if loaded.hand() and loaded.decided():
                listed = [a for a in loaded.legal_actions(loaded.current) if a["type"] == "place"]
                assert listed == scratch_place_actions(loaded)
        checked += 1
    assert checked > 20


def test_a_placement_off_the_table_is_refused_on_a_loaded_board_too():  # ruling L2
    state = GAME.new_state(2, {}, 4)
    loaded = TopologyState.from_json(json.loads(json.dumps(state.to_json())))
    tile = loaded.hand()[0]
    far = {"type": "place", "tile": tile, "cells": [[5, 5], [6, 5]], "orientation": 0}
    near = {"type": "place", "tile": tile, "cells": [[2, 0], [3, 0]], "orientation": 0}
    assert loaded.explain_illegal(loaded.current, far)[0] == "topology.not_touching"
    assert loaded.explain_illegal(loaded.current, near) == ("allowed", {})
    assert near in state.legal_actions(state.current)
