"""The cheap paths of the Topoum engine (decision 16) give exactly what the checked ones give.

`apply_legal` (no check), `apply` checking against one type of action or a list shared by a clone, and
`clone` (lists copied, geometry shared) must never change the game: a state played one way or the
other ends in the same JSON, and a clone played on leaves the original as it was. A refusal explained
without the whole legal list names the reason the list gives.
"""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction, get_game
from engine.topoum.hints import TopoumHints
from engine.topoum.turn import turn_action_types, turn_actions

GAME = get_game("topoum")
HINTS = TopoumHints(GAME)
CONFIGS = [
    (2, {}),
    (3, {"deck": "preset", "preset": "tacticians"}),
    (4, {"deck": "random"}),
    (2, {"deck": "random", "obstacles": True}),
    (2, {"deck": "preset", "preset": "strategists"}),
]


def choices(state) -> list[dict]:
    return [a for a in state.legal_actions(state.cur) if a["type"] != "undo"]


@pytest.mark.parametrize("players, options", CONFIGS)
@pytest.mark.parametrize("seed", range(4))
def test_apply_legal_and_apply_reach_the_same_states(players, options, seed):
    checked = GAME.new_state(players, options, seed)
    trusted = GAME.new_state(players, options, seed)
    rng = random.Random(seed)
    while not checked.is_over():
        legal = checked.legal_actions(checked.cur)
        assert trusted.legal_actions(trusted.cur) == legal
        action = rng.choice(legal)  # undo included: it replays the turn
        fresh = GAME.load(checked.to_json())  # no list made yet: checked by the action's type alone
        fresh.apply(checked.cur, dict(action))
        checked.apply(checked.cur, dict(action))
        trusted.apply_legal(trusted.cur, action)
        assert trusted.to_json() == checked.to_json() == fresh.to_json()
        assert trusted.events == checked.events == fresh.events
    assert trusted.results() == checked.results()


@pytest.mark.parametrize("seed", range(3))
def test_a_clone_played_on_leaves_the_original_unchanged(seed):
    state = GAME.new_state(3, {"deck": "random"}, seed)
    rng = random.Random(seed)
    for _ in range(60):
        state.apply(state.cur, rng.choice(choices(state)))
    before = state.to_json()
    legal = state.legal_actions(state.cur)
    copy = state.clone()
    assert copy.to_json() == before
    while not copy.is_over():
        copy.apply_legal(copy.cur, rng.choice(choices(copy)))
    assert state.to_json() == before
    assert state.legal_actions(state.cur) == legal
    assert copy.geo is state.geo  # the board geometry never changes: shared, not copied


def test_a_type_checked_refusal_names_the_same_reason_as_a_listed_one():
    state = GAME.new_state(2, {}, 5)
    rng = random.Random(5)
    while state.phase == "setup" or state.stage != "start":
        state.apply(state.cur, rng.choice(choices(state)))
    sent = [
        {"type": "move", "from": [9, 9], "to": [9, 10]},
        {"type": "enter", "hex": [40, 0]},
        {"type": "end_turn", "now": True},
        {"type": "keep", "hex": [0, 0]},
        {"type": "undo"},
    ]
    for action in sent:
        listed = state.clone()
        listed.legal_actions(listed.cur)
        unlisted = GAME.load(state.to_json())
        refusals = []
        for target in (listed, unlisted):
            with pytest.raises(IllegalAction) as refused:
                target.apply(target.cur, action)
            refusals.append((refused.value.code, refused.value.params))
        assert refusals[0] == refusals[1]
        assert listed.to_json() == unlisted.to_json() == state.to_json()


def random_positions(players: int, options: dict, seed: int):
    """Every position of a random game (undo included now and then), each loaded afresh: nothing listed yet."""
    state = GAME.new_state(players, options, seed)
    rng = random.Random(seed)
    while not state.is_over():
        yield GAME.load(state.to_json())
        legal = state.legal_actions(state.cur)
        pick = [a for a in legal if a["type"] != "undo"] if rng.random() < 0.9 else legal
        state.apply(state.cur, rng.choice(pick))


@pytest.mark.parametrize("players, options", CONFIGS)
@pytest.mark.parametrize("seed", range(3))
def test_the_types_found_without_lists_are_the_listed_ones(players, options, seed):
    for position in random_positions(players, options, seed):
        if position.phase != "play":
            continue
        found = turn_action_types(position)
        assert found == {a["type"] for a in turn_actions(position)}
        if HINTS.cannot_end_turn(position, position.cur):  # a bot then never tries to end it
            assert "end_turn" not in found


@pytest.mark.parametrize("players, options", CONFIGS[:3])
def test_every_refusal_names_the_reason_the_whole_list_gives(players, options):
    sent = [
        {"type": "end_turn"},
        {"type": "end_turn", "now": True},
        {"type": "play", "card": "tunnel", "source": "hand"},
        {"type": "target", "hex": [30, 30]},
        {"type": "change_tile"},
        {"type": "undo"},
        {"type": "bogus"},
    ]
    for position in random_positions(players, options, 7):
        for action in sent:
            listed = position.clone()
            listed.legal_actions(listed.cur)
            unlisted = position.clone()
            reasons = []
            for target in (listed, unlisted):
                try:
                    target.apply(target.cur, dict(action))
                except IllegalAction as refused:
                    reasons.append((refused.code, refused.params))
            assert len(reasons) in (0, 2)
            assert reasons[:1] == reasons[1:]


@pytest.mark.parametrize("players, options", CONFIGS)
@pytest.mark.parametrize("seed", range(3))
def test_a_turn_start_kept_when_first_needed_is_the_one_kept_at_once(players, options, seed):
    """A turn's start (her lines then, the position undo goes back to) is kept when first read or before the
    turn's first action (TopoumState.snap): a state that reads it at once after every decision, one that never
    asks, and copies taken before it was kept all play the same game."""
    eager = GAME.new_state(players, options, seed)
    lazy = GAME.new_state(players, options, seed)
    rng = random.Random(seed)
    steps = 0
    while not eager.is_over():
        assert eager.snap is not None or eager.phase == "setup"  # read: kept now
        assert isinstance(eager.start_lines, frozenset)
        action = rng.choice(eager.legal_actions(eager.cur))  # undo included: it goes back to the kept start
        copy = lazy.clone() if steps % 5 == 0 else None  # lazy is never asked anything: its start may be due
        eager.apply_legal(eager.cur, action)
        lazy.apply_legal(lazy.cur, action)
        if copy is not None:
            copy.apply_legal(copy.cur, action)
            assert copy.to_json() == eager.to_json()
        steps += 1
    assert lazy.to_json() == eager.to_json()
    assert lazy.results() == eager.results()
