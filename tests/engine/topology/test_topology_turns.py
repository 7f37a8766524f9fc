"""Setup, placement legality, turn sizes, undo, the end and the ranking (rulings G0, L2, L5, L7, S3)."""

from __future__ import annotations

import json

import pytest
from topology_positions import GAME, place, position

from engine.core import IllegalAction, InvalidOptions, NotYourDecision, make_rng, replay
from engine.topology.tiles import TILE_COUNT

PLAIN = ((0, 9), (1, 8), (2, 7), (3, 6), (4, 5))  # nested arcs; a half-turn keeps it
LOOSE = ((0, 1), (2, 3), (4, 5), (6, 7), (8, 9))  # neighbouring ends joined; a half-turn changes it


def frozen(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def new(players=2, seed=1, **options):
    return GAME.new_state(players, options, seed)


def first_place(state):
    return next(a for a in state.legal_actions(state.current) if a["type"] == "place")


def play_out_turn(state):
    """Place every revealed tile at the first legal spot, then end the turn."""
    seat = state.current
    while state.hand():
        state.apply(seat, first_place(state))
    state.apply(seat, {"type": "end_turn"})


# --- setup ----------------------------------------------------------------------------------


def test_setup_lays_one_tile_in_the_middle_and_hides_the_rest():  # rulebook SETUP, ruling L5
    state = new(2)
    assert len(state.board.tiles) == 1
    ((anchor, orientation),) = state.board.tiles.values()
    assert (anchor, orientation) == ((0, 0), 0)
    assert set(state.board.cells) == {(0, 0), (1, 0)}
    assert len(state.revealed) == 3
    assert len(state.stack) == TILE_COUNT - 1 - 3
    everything = list(state.board.tiles) + state.revealed + state.stack
    assert sorted(everything) == list(range(TILE_COUNT))


def test_start_player_comes_from_the_seed():  # ruling G0.1
    starts = {new(4, seed=s).start_player for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert new(3, seed="abc").to_json() == new(3, seed="abc").to_json()
    assert new(3, seed=5).current == new(3, seed=5).start_player


def test_the_advanced_variant_is_refused_for_more_than_two():  # ruling L6
    with pytest.raises(InvalidOptions) as err:
        GAME.validate_options(3, {"advanced": True})
    assert err.value.reason == ("topology.options.advanced_players", {"game": "topology", "players": 3})
    assert GAME.validate_options(2, {"advanced": True}) == {"advanced": True}
    with pytest.raises(InvalidOptions):
        GAME.validate_options(2, {"advanced": "yes"})
    with pytest.raises(InvalidOptions):
        GAME.validate_options(5, {})


# --- turn sizes ---------------------------------------------------------------------------------


def test_two_players_reveal_three_tiles_every_turn():  # ruling L5
    state = new(2, seed=3)
    for _ in range(4):
        assert len(state.revealed) == 3
        play_out_turn(state)


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_the_start_player_lays_one_tile_first(players):  # ruling L5
    state = new(players, seed=11)
    first = state.current
    assert len(state.revealed) == 1
    play_out_turn(state)
    sizes = []
    for _ in range(players + 1):
        sizes.append(len(state.revealed))
        play_out_turn(state)
    assert sizes == [2] * (players + 1)  # the start player's second turn is a full one
    assert state.history[0]["seat"] == first
    assert [h["seat"] for h in state.history[: players + 1]] == [(first + i) % players for i in range(players + 1)]


@pytest.mark.parametrize("players,turns", [(2, 17), (3, 26), (4, 26)])
def test_a_whole_game_lays_all_52_tiles(players, turns):
    state = new(players, seed=21)
    while not state.is_over():
        play_out_turn(state)
    assert len(state.board.tiles) == TILE_COUNT
    assert state.turn == turns
    assert state.legal_actions(0) == [] and state.to_act() == []


def test_the_last_turn_places_what_is_left_then_the_game_ends():  # ruling L5
    state, _, hand = position([((0, 0), 0, PLAIN)], hand=[LOOSE, LOOSE], stack=2, current=1)
    # Seat 2 lays what she holds; only two tiles remain face down for Seat 1's turn of three
    play_out_turn(state)
    assert state.current == 0
    assert len(state.revealed) == 2 and state.stack == []
    play_out_turn(state)
    assert state.is_over()
    assert state.to_act() == []
    assert len(state.board.tiles) == 5


def test_three_players_last_turn_may_be_a_single_tile():
    state, _, _ = position([((0, 0), 0, PLAIN)], hand=[LOOSE, LOOSE], players=3, stack=1, current=2)
    play_out_turn(state)
    assert state.current == 0 and len(state.revealed) == 1
    play_out_turn(state)
    assert state.is_over()


# --- placement ----------------------------------------------------------------------------------


def test_a_tile_must_touch_the_table():  # ruling L2
    state, _, hand = position([((0, 0), 0, PLAIN)], hand=[LOOSE])
    before = frozen(state)
    with pytest.raises(IllegalAction, match="topology.not_touching"):
        state.apply(0, place(hand[0], (5, 5), 0))
    assert frozen(state) == before
    # nor may it lie a cell away: (2, -2) and (3, -3) share no edge with (0, 0) or (1, 0)
    with pytest.raises(IllegalAction, match="topology.not_touching"):
        state.apply(0, place(hand[0], (2, -2), 1))
    state.apply(0, place(hand[0], (2, 0), 0))  # shares the edge between (1, 0) and (2, 0)
    assert state.board.tiles[hand[0]] == ((2, 0), 0)


def test_a_tile_needs_two_empty_neighbouring_cells():  # ruling L2
    state, _, hand = position([((0, 0), 0, PLAIN)], hand=[LOOSE])
    before = frozen(state)
    cases = [
        (place(hand[0], (1, 0), 0), "topology.covered"),
        (place(hand[0], (2, 0), 3), "topology.covered"),  # second cell (1, 0)
        ({"type": "place", "tile": hand[0], "cells": [[2, 0], [4, 0]], "orientation": 0}, "topology.not_neighbours"),
        ({"type": "place", "tile": hand[0], "cells": [[2, 0], [3, 0]], "orientation": 1}, "topology.second_cell"),
        ({"type": "place", "tile": hand[0], "cells": [[2, 0], [3, 0]], "orientation": 7}, "topology.orientation"),
        ({"type": "place", "tile": hand[0], "cells": "somewhere", "orientation": 0}, "topology.cells_shape"),
        ({"type": "place", "tile": hand[0], "cells": [[2, 0], [3, 0]]}, "action.fields"),  # G0.4
        ({"type": "place", "tile": 99, "cells": [[2, 0], [3, 0]], "orientation": 0}, "topology.tile_choice"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(0, action)
        assert frozen(state) == before


def test_a_design_a_half_turn_keeps_is_offered_once_per_pair_of_cells():
    state, _, hand = position([((0, 0), 0, LOOSE)], hand=[PLAIN])
    actions = state.legal_actions(0)
    places = [a for a in actions if a["type"] == "place"]
    pairs = [frozenset(map(tuple, a["cells"])) for a in places]
    assert len(pairs) == len(set(pairs))
    assert all(a["orientation"] < 3 for a in places)
    with pytest.raises(IllegalAction, match="topology.symmetric"):
        state.apply(0, place(hand[0], (3, 0), 3))  # same as (2, 0) with orientation 0


def test_legal_placements_are_exactly_the_touching_empty_pairs():
    state, _, hand = position([((0, 0), 0, PLAIN)], hand=[LOOSE])
    listed = {(tuple(a["cells"][0]), a["orientation"]) for a in state.legal_actions(0) if a["type"] == "place"}
    covered = {(0, 0), (1, 0)}
    touching = {c for cell in covered for c in _around(cell)} - covered
    expected = {
        (a, d)
        for a in _ring_of_cells(4)
        for d in range(6)
        if a not in covered and _step(a, d) not in covered and (a in touching or _step(a, d) in touching)
    }
    assert listed == expected
    # each of them applies
    for action in [a for a in state.legal_actions(0) if a["type"] == "place"]:
        trial = state.clone()
        trial.apply(0, action)


def _step(cell, d):
    dq, dr = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))[d]
    return cell[0] + dq, cell[1] + dr


def _around(cell):
    return [_step(cell, d) for d in range(6)]


def _ring_of_cells(radius):
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]


# --- confirm, undo, refusals ---------------------------------------------------------------------


def test_the_turn_ends_only_when_every_tile_is_down():  # ruling L5, S3
    state = new(2, seed=4)
    seat = state.current
    before = frozen(state)
    with pytest.raises(IllegalAction, match="topology.place_all"):
        state.apply(seat, {"type": "end_turn"})
    assert frozen(state) == before
    assert {"type": "end_turn"} not in state.legal_actions(seat)
    for _ in range(3):
        state.apply(seat, first_place(state))
    assert state.legal_actions(seat)[0] == {"type": "end_turn"}
    state.apply(seat, {"type": "end_turn"})
    assert state.current == 1 - seat and len(state.revealed) == 3


def test_undo_takes_back_placements_one_by_one():  # ruling S3
    state = new(2, seed=8)
    seat = state.current
    start = frozen(state)
    assert not state.undoable(seat)
    with pytest.raises(IllegalAction, match="topology.nothing_to_undo"):
        state.apply(seat, {"type": "undo"})
    state.apply(seat, first_place(state))
    after_one = frozen(state)
    state.apply(seat, first_place(state))
    assert state.undoable(seat) and {"type": "undo"} in state.legal_actions(seat)
    state.apply(seat, {"type": "undo"})
    assert frozen(state) == after_one
    state.apply(seat, {"type": "undo"})
    assert frozen(state) == start
    # after the turn is confirmed, nothing of it can be taken back
    play_out_turn(state)
    assert not state.undoable(seat) and not state.undoable(state.current)


def test_others_cannot_act_and_unknown_moves_are_refused():  # ruling G0.4
    state = new(3, seed=2)
    other = (state.current + 1) % 3
    before = frozen(state)
    with pytest.raises(NotYourDecision, match="topology.turn_of") as err:
        state.apply(other, first_place(state))
    assert err.value.params == {"seat": state.current}
    for action in [{"type": "fly"}, {}, {"type": "reveal"}, {"type": "turn_over", "tile": 0}]:
        with pytest.raises(IllegalAction) as err:
            state.apply(state.current, action)
        assert err.value.code.startswith(("topology.", "action."))
    assert frozen(state) == before
    assert state.legal_actions(other) == []


def test_a_finished_game_refuses_moves():
    state, _, hand = position([((0, 0), 0, PLAIN)], hand=[LOOSE], stack=0)
    play_out_turn(state)
    assert state.is_over()
    with pytest.raises(NotYourDecision, match="game_over"):
        state.apply(0, {"type": "end_turn"})


# --- the winner ----------------------------------------------------------------------------------


def test_a_tie_goes_against_the_player_of_the_later_turn():  # ruling L7, rulebook "If there is a tie"
    # seat 1 plays the last turn; both have 5 and it closes nothing, so seat 1 ranks second
    state, _, _ = position(
        [((0, 0), 0, PLAIN)], hand=[LOOSE], stack=0, current=1, scores=[5, 5], last_turn=[10, 9], turn=11
    )
    play_out_turn(state)
    assert state.is_over()
    ranks = {r.seat: r.rank for r in state.results()}
    assert ranks == {0: 1, 1: 2}
    # The result says which rule decided it, as a code the site words (decision 24).
    assert [r.tie_break for r in state.results()] == ["later_turn", "later_turn"]
    assert GAME.tie_breaks == ("later_turn",) and state.results()[1].to_json()["tie_break"] == "later_turn"


def test_ranking_with_three_players_and_a_tie():  # ruling L7
    state, _, _ = position(
        [((0, 0), 0, PLAIN)],
        hand=[LOOSE],
        players=3,
        stack=0,
        current=0,
        scores=[4, 7, 4],
        last_turn=[21, 22, 23],
        turn=24,
    )
    play_out_turn(state)
    results = {r.seat: (r.rank, r.score) for r in state.results()}
    # seat 2 (turn 23) played before seat 0 (turn 24 now), so seat 2 ranks above seat 0
    assert results == {1: (1, 7.0), 2: (2, 4.0), 0: (3, 4.0)}
    assert {r.seat: r.tie_break for r in state.results()} == {0: "later_turn", 1: None, 2: "later_turn"}


# --- storage and replay ------------------------------------------------------------------------------


def test_json_round_trip_and_replay_give_the_same_state():
    state = new(2, seed="replay")
    log = []
    rng = make_rng("test", 0)
    for _ in range(25):
        seat = state.current
        action = rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"])
        state.apply(seat, action)
        log.append((seat, action))
    again = replay(GAME, 2, {"advanced": False}, "replay", log)
    assert again.to_json() == state.to_json()
    loaded = GAME.load(json.loads(json.dumps(state.to_json())))
    assert loaded.to_json() == state.to_json()
    assert loaded.legal_actions(loaded.current) == state.legal_actions(state.current)
    assert state.clone().to_json() == state.to_json()
