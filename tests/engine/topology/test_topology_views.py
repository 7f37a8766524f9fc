"""What each seat sees, bots' sampled states, and the log lines (rulings G0.2, G0.3, L5)."""

from __future__ import annotations

import json

from topology_positions import EXAMPLE_BEFORE, EXAMPLE_TURN, GAME, play_turn, position

from engine.core import make_rng
from engine.topology.tiles import TILE_COUNT, design_of, designs, symmetric


def played(players=2, seed=5, steps=20, **options):
    state = GAME.new_state(players, options, seed)
    rng = make_rng("views", seed)
    for _ in range(steps):
        seat = state.current
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"]))
    return state


def test_the_view_shows_the_stack_size_but_not_its_order_nor_the_seed():  # rulings G0.2, L5
    state = GAME.new_state(2, {}, "a-secret-seed-string")
    for seat in (None, 0, 1):
        view = state.view(seat)
        text = json.dumps(view)
        assert "a-secret-seed-string" not in text
        assert "stack" not in view and "seed" not in view
        assert view["stack_size"] == len(state.stack)
        # tile ids seen: the table and the revealed ones, never one still face down
        seen = {b["tile"] for b in view["board"]} | set(view["revealed"])
        assert seen.isdisjoint(state.stack)


def test_two_states_that_differ_only_in_stack_order_look_the_same():
    state = played()
    other = state.clone()
    other.stack = list(reversed(other.stack))
    other.seed = "another"
    for seat in (None, 0, 1):
        assert state.view(seat) == other.view(seat)


def test_planted_secrets_stay_out_of_every_view():
    state = played(steps=12)
    planted = GAME.plant_secrets(state)
    assert planted[None]
    for seat in (None, 0, 1):
        text = json.dumps(state.view(seat))
        assert not any(marker in text for marker in planted[None])


def test_the_view_carries_the_drawing_of_every_tile_and_the_rings():
    state, _, hand = position(EXAMPLE_BEFORE, hand=[p for _, _, p in EXAMPLE_TURN])
    play_turn(state, hand, EXAMPLE_TURN)
    view = state.view(1)
    assert len(view["board"]) == 7
    for tile in view["board"]:
        assert len(tile["cells"]) == 2 and len(tile["curves"]) == 5
        sides = {(tuple(cell), side) for curve in tile["curves"] for cell, side in curve}
        assert len(sides) == 10  # every outer edge carries one end
        assert tile["cells"][0] == tile["anchor"]
    assert sorted(r["value"] for r in view["rings"]) == [2, 2, 10]
    assert view["scores"] == [16, 0]
    assert view["history"][-1]["points"] == 16
    assert view["hand"] and all(h["pairs"] == [list(p) for p in designs()[design_of(h["tile"])]] for h in view["hand"])


def test_determinize_keeps_the_view_and_samples_only_unseen_tiles():
    state = played(seed=13, steps=17, advanced=True)
    view = state.view(state.current)
    guess = GAME.determinize(view, state.current, make_rng("guess", 1))
    assert guess.view(state.current) == view
    assert sorted(guess.stack) == sorted(state.stack)
    assert len(set(guess.board.tiles) | set(guess.revealed) | set(guess.stack)) == TILE_COUNT
    # a bot can play on from the sampled state
    action = guess.legal_actions(guess.current)[0]
    guess.apply(guess.current, action)


def test_log_lines_say_what_happened_in_plain_words():
    state, _, hand = position(EXAMPLE_BEFORE, hand=[p for _, _, p in EXAMPLE_TURN])
    before = state.clone()
    play_turn(state, hand, EXAMPLE_TURN)
    [line] = state.describe(0, {"type": "end_turn"}, before)  # data; the site words it (decision 13)
    assert line["code"] == "topology.end_turn" and line["seat"] == 0 and line["points"] == 16
    assert {"value": 10, "inner": [2]} in line["rings"] and line["over"] is False
    placed = state.describe(0, {"type": "place", "tile": hand[0], "cells": [[-1, 0], [-1, -1]], "orientation": 2})
    assert placed == [{"code": "topology.place", "seat": 0, "cells": [[-1, 0], [-1, -1]]}]


def test_the_others_see_her_turn_as_it_began_until_she_confirms():  # ruling S3 (amended)
    state = GAME.new_state(2, {}, "private-turn")
    seat = state.current
    before = {s: state.view(s) for s in (1 - seat, None)}
    assert len(before[None]["revealed"]) == 3  # revealed at the start of her turn, face up for everyone
    tiles = [a for a in state.legal_actions(seat) if a["type"] == "place"][:1]
    state.apply(seat, tiles[0])
    assert state.unconfirmed_seat() == seat and state.view(seat)["placed_this_turn"] == [tiles[0]["tile"]]
    assert all(state.view(s) == before[s] for s in before)
    state.apply(seat, {"type": "undo"})
    assert state.unconfirmed_seat() is None and all(state.view(s) == before[s] for s in before)
    while state.current == seat:
        state.apply(seat, next(a for a in state.legal_actions(seat) if a["type"] in ("place", "end_turn")))
    assert len(state.view(None)["board"]) == len(before[None]["board"]) + 3


def test_a_third_tile_and_a_turn_over_stay_hers_until_she_confirms():  # rulings L6, S3 (amended)
    state = GAME.new_state(2, {"advanced": True}, "private-reveal")
    seat = state.current
    before = {s: state.view(s) for s in (1 - seat, None)}
    state.apply(seat, {"type": "reveal"})
    assert not state.undoable(seat) and len(state.view(seat)["revealed"]) == 3
    assert all(state.view(s) == before[s] for s in before)  # two tiles, the stack as it was
    for s in before:
        guess = GAME.determinize(state.view(s), s, make_rng("start", 1))
        assert guess.view(s) == before[s]
    while state.current == seat:
        state.apply(seat, next(a for a in state.legal_actions(seat) if a["type"] in ("place", "end_turn")))
    seat = state.current
    before = {s: state.view(s) for s in (1 - seat, None)}
    tile = next(t for t in state.board.tiles if not symmetric()[design_of(t)])  # one a half-turn changes
    state.apply(seat, {"type": "turn_over", "tile": tile})
    assert state.view(seat)["board"] != state.turn_start().view(seat)["board"]
    assert all(state.view(s) == before[s] for s in before)
