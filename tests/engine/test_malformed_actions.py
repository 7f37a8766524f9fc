"""Malformed actions are refused and change nothing, in every game (ruling G0.4).

During random play of every registered game and configuration (the conformance suite's list),
legal actions are bent out of shape: a whole number as 2.0, true, "2", [2], {"v": 2}, null, a
huge or a negative number; text as a number or a list; a field dropped or one added; a wrong
"type".  Each bent action that is not itself a listed legal action must raise IllegalAction with
a reason, and the state must serialise byte for byte as before.  Then the audit's own finds, one
by one.
"""

from __future__ import annotations

import json

import pytest
from test_conformance import configurations

from engine.core import IllegalAction, all_games, get_game, make_rng
from engine.toppo.table import end_hand

HUGE = 10**30
# How many decisions of one random game are played per configuration, and how often the bent
# actions are thrown in (always for a type of action not bent yet): a few seconds per game with a
# fixed seed.  Toppo's decisions are cheap and a hand is long: 3000 reach its second hand's display.
STEPS = {"topology": 90, "topoum": 160, "toppo": 3000}
EVERY = {"topology": 1, "topoum": 2, "toppo": 15}


def key(value) -> str:
    """JSON text tells 2 from 2.0 from true, unlike Python's ==."""
    return json.dumps(value, sort_keys=True)


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def bent_values(value) -> list:
    """Values of the wrong shape for a field whose legal value is `value`."""
    if isinstance(value, bool):
        return [int(value), "true", None]
    if isinstance(value, int):
        return [float(value), True, False, str(value), [value], {"v": value}, None, HUGE, -HUGE, -value - 1]
    if isinstance(value, str):
        return [0, 1.5, True, None, [value], {value: value}, value.upper() + "?"]
    if value is None:
        return [0, False, "", [], {}]
    if isinstance(value, list):
        out = [None, "text", 3, {"list": value}, value + [value[-1] if value else 0]]
        for i, item in enumerate(value[:3]):  # each of the first items bent in place, nested lists too
            for bent in bent_values(item)[:5]:
                out.append(value[:i] + [bent] + value[i + 1 :])
        return out
    return [None]


def bent_actions(action: dict) -> list:
    """Every malformed variant of one legal action."""
    out = [
        None,
        [],
        "end_turn",
        {},
        {"type": None},
        {"type": 5},
        {"type": [action["type"]]},
        {**action, "type": "no_such_action"},
        {**action, "type": action["type"].upper()},
        {**action, "extra": 1},
    ]
    if "hex" not in action:
        out.append({**action, "hex": {"q": 0, "r": 0}})
    for field, value in action.items():
        out.append({k: v for k, v in action.items() if k != field})  # a field missing
        if field != "type":
            out += [{**action, field: bent} for bent in bent_values(value)]
    return out


def refused_without_change(state, seat, action) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(seat, action)
    # Decision 13: a code and JSON facts, which the site words in the reader's language.
    assert isinstance(err.value.code, str) and err.value.code.strip(), f"no reason for {action!r}"
    assert " " not in err.value.code and json.loads(json.dumps(err.value.params)) == err.value.params
    assert snapshot(state) == before, f"{action!r} was refused but changed the state"
    code, params = state.explain_illegal(seat, action)
    assert isinstance(code, str) and isinstance(params, dict)
    assert snapshot(state) == before


@pytest.mark.parametrize("name,players,options,count", list(configurations()))
def test_malformed_actions_are_refused_and_change_nothing(name, players, options, count):
    game = all_games()[name]
    state = game.new_state(players, game.validate_options(players, options), 11)
    rng = make_rng(f"malformed-{name}", players)
    tried, bent_types = 0, set()
    for step in range(STEPS[name]):
        seats = state.to_act()
        if not seats:
            break
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        fresh = [a for a in legal if a["type"] not in bent_types]
        if fresh or step % EVERY[name] == 0:
            original = rng.choice(fresh or legal)
            bent_types.add(original["type"])
            listed = {key(a) for a in legal}
            for action in bent_actions(json.loads(json.dumps(original))):
                if key(action) in listed:
                    continue  # bending happened to give another legal action
                refused_without_change(state, seat, action)
                tried += 1
        state.apply(seat, json.loads(json.dumps(rng.choice(legal))))
    assert tried > 20
    if name == "toppo":
        assert "choose_display" in bent_types


# --- the audit's finds ---------------------------------------------------------------------
def topoum_at(predicate, players=2, options=None, seed=3, steps=3000):
    """A Topoum position of random play where some legal action satisfies `predicate`."""
    game = get_game("topoum")
    state = game.new_state(players, game.validate_options(players, options or {}), seed)
    rng = make_rng("audit", seed)
    for _ in range(steps):
        legal = state.legal_actions(state.cur)
        found = [a for a in legal if predicate(a)]
        if found:
            return state, found[0]
        state.apply(state.cur, rng.choice([a for a in legal if a["type"] != "undo"]))
    raise AssertionError("no such position in random play")


@pytest.mark.parametrize("field,bent", [("slot", 2.0), ("slot", True)])
def test_topoum_a_line_slot_must_be_a_whole_number(field, bent):  # ruling G0.4
    state, action = topoum_at(lambda a: a["type"] == "play" and a["source"] == "line")
    refused_without_change(state, state.cur, {**action, field: float(action[field]) if bent == 2.0 else True})


def test_topoum_a_direction_must_be_a_whole_number():  # ruling G0.4
    state, action = topoum_at(lambda a: a["type"] == "direction", options={"deck": "preset", "preset": "tacticians"})
    for bent in (float(action["dir"]), str(action["dir"]), [action["dir"]]):
        refused_without_change(state, state.cur, {**action, "dir": bent})
    if action["dir"] in (0, 1):
        refused_without_change(state, state.cur, {**action, "dir": bool(action["dir"])})


def test_topoum_a_captor_must_be_a_whole_number():  # ruling G0.4
    from engine.topoum.turn import begin_turn

    state, _ = topoum_at(lambda a: a["type"] in ("enter", "move"))
    c, rival = state.cur, 1 - state.cur
    state.prisoners[rival][c] = 1
    state.medals[c] = 10
    state.moles_left[c] = max(0, state.moles_left[c] - 1)
    begin_turn(state)
    state._legal = None
    assert {"type": "ransom", "captor": rival} in state.legal_actions(c)
    for bent in (float(rival), bool(rival), str(rival), None):
        refused_without_change(state, c, {"type": "ransom", "captor": bent})
    state.apply(c, {"type": "ransom", "captor": rival})
    assert state.prisoners[rival][c] == 0


@pytest.mark.parametrize("card", [["advance"], {"advance": 1}, None, 7])
def test_topoum_an_odd_card_is_refused_and_explained(card):  # ruling G0.4
    state, action = topoum_at(lambda a: a["type"] == "play")
    refused_without_change(state, state.cur, {**action, "card": card})
    refused_without_change(state, state.cur, {"type": "play", "card": card, "source": "hand"})


@pytest.mark.parametrize("pace", ["live", "correspondence"])
def test_toppo_a_display_size_must_be_a_whole_number(pace):  # ruling G0.4
    game = get_game("toppo")
    state = game.new_state(2, {"pace": pace}, 4)
    end_hand(state, 0)
    assert state.phase == "choose_display"
    for bent in (3.0, True, "3", [3], None, 5):
        refused_without_change(state, state.chooser, {"type": "choose_display", "size": bent})
    state.apply(state.chooser, {"type": "choose_display", "size": 3})
    assert len(state.display) == 3 and state.chooser is None


def test_topology_refuses_unknown_fields():  # ruling G0.4
    game = get_game("topology")
    state = game.new_state(2, {}, 1)
    place = state.legal_actions(state.current)[0]
    for action in (
        {**place, "note": "hi"},
        {**place, "orientation": float(place["orientation"])},
        {k: v for k, v in place.items() if k != "orientation"},
    ):
        refused_without_change(state, state.current, action)
    state.apply(state.current, place)
    refused_without_change(state, state.current, {"type": "end_turn", "really": True})


def test_the_reason_names_the_malformed_field():  # ruling G0.4: a message a person can act on
    state, action = topoum_at(lambda a: a["type"] == "play" and a["source"] == "line")
    with pytest.raises(IllegalAction, match="action.field_kind") as err:
        state.apply(state.cur, {**action, "slot": float(action["slot"])})
    assert err.value.params["field"] == "slot" and err.value.params["kinds"] == ["integer"]
    with pytest.raises(IllegalAction, match="action.no_such_field") as err:
        state.apply(state.cur, {**action, "colour": "red"})
    assert err.value.params["extra"] == ['"colour"']
    game = get_game("toppo")
    toppo = game.new_state(2, {"pace": "live"}, 4)
    with pytest.raises(IllegalAction, match="action.fields") as err:
        toppo.apply(toppo.start, {"type": "reveal", "now": True})
    assert err.value.params["extra"] == ['"now"']
