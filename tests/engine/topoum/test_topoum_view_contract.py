"""What Topoum's view tells the table so the site need not know the rules (decision 15): the marked spaces, the
deadly squares, each card's category, what every legal move does to the mole and what it costs, and the decision
asked.  Checked against the engine itself, on positions of random games."""

from __future__ import annotations

import json

import pytest

from engine.core import get_game, make_rng
from engine.hexgrid import DIRECTIONS
from engine.topoum.cards import CARDS

GAME = get_game("topoum")


def positions(seed: int, players: int = 2, options: dict | None = None, steps: int = 400):
    """Every position of one random game, with the seat to act."""
    state = GAME.new_state(players, GAME.validate_options(players, options or {"obstacles": True}), seed)
    rng = make_rng(f"topoum-view-{seed}", 0)
    for _ in range(steps):
        seats = state.to_act()
        if not seats:
            return
        yield state, seats[0]
        actions = [a for a in state.legal_actions(seats[0]) if a["type"] != "undo"]
        state.apply(seats[0], json.loads(json.dumps(rng.choice(actions))))


def moles_of(state, seat: int) -> int:
    return sum(1 for owner in state.mole if owner == seat)


@pytest.mark.parametrize("seed", range(6))
def test_each_move_outcome_is_what_the_move_does(seed):
    # ruling T12 (and T16 for ice): a mole lands, slides, is eliminated or collides; Law #5 costs 5 or 10 medals.
    checked = 0
    for state, seat in positions(seed):
        view = state.view(seat)
        moves = [a for a in state.legal_actions(seat) if a["type"] == "move"]
        outcomes = view.get("move_outcomes", [])
        assert sorted((o["from"], o["to"]) for o in outcomes) == sorted((a["from"], a["to"]) for a in moves)
        for outcome in outcomes:
            after = state.clone()
            after.apply(seat, {"type": "move", "from": outcome["from"], "to": outcome["to"]})
            assert after.medals[seat] - state.medals[seat] == -outcome["penalty"]
            if outcome["outcome"] in ("land", "slide"):
                assert after.mole[after.geo.cell(outcome["at"])] == seat
                assert (outcome["at"] != outcome["to"]) == (outcome["outcome"] == "slide")
            else:
                assert moles_of(after, seat) == moles_of(state, seat) - 1 - (outcome["outcome"] == "collide_own")
            checked += 1
    assert checked, "no move was offered in this game"


def test_the_view_carries_no_legal_actions_nor_undoable():
    # They travel once, beside the view, in the table's detail (games.selectors.table_detail).
    for state, seat in positions(1, steps=60):
        view = state.view(seat)
        assert "legal" not in view and "undoable" not in view


@pytest.mark.parametrize("radius", [4, 6])
def test_marks_are_the_x_spaces_and_the_farmer_zones(radius):
    # ruling T2: X spaces 4 away on the six axes, farmer zones 3 away on four of them.
    state = GAME.new_state(2, GAME.validate_options(2, {"radius": radius}), 7)
    marks = state.view(0)["marks"]
    assert {tuple(h) for h in marks["x_spaces"]} == {(4 * dq, 4 * dr) for dq, dr in DIRECTIONS}
    assert {tuple(h) for h in marks["zones"]} == {(3, 0), (-3, 0), (0, 3), (0, -3)}


def test_deadly_squares_and_card_categories():
    # rulings T12, T16, T17: a mole entering a puddle, gas, trap, footprint or dynamite is lost; T6: categories.
    seen = set()
    for state, seat in positions(3, options={"obstacles": True, "farmer": "trap_master"}):
        view = state.view(seat)
        for cell in view["board"]:
            feature = cell.get("feature")
            seen.add(feature)
            assert cell.get("deadly", False) == (feature in ("puddle", "gas", "trap", "footprint", "dynamite"))
        assert view["card_categories"] == {card: CARDS[card][1] for card in view["options"]["types"]}
    assert seen & {"puddle", "gas", "trap"}, "the game laid no deadly square"


@pytest.mark.parametrize("seed", range(4))
def test_stuck_is_asked_only_when_ending_the_turn_is_all_that_is_left(seed):
    for state, seat in positions(seed, players=3, options={}):
        decision = state.view(seat)["decision"]
        kinds = {a["type"] for a in state.legal_actions(seat)}
        if decision["prompt"]["code"] == "topoum.prompt.stuck":
            assert kinds <= {"end_turn", "undo", "ransom"}
        elif decision["prompt"]["code"] == "topoum.prompt.act":
            assert kinds - {"end_turn", "undo", "ransom"}
        other = (seat + 1) % state.n  # never said to another seat
        assert state.view(other)["decision"]["prompt"]["code"] != "topoum.prompt.stuck"


def test_a_seat_whose_moles_cannot_act_is_told_to_end_her_turn():
    # A real position at the start of a turn, then her moles spent (no move left, none in reserve to enter).
    state, seat = next((s, seat) for s, seat in positions(2) if s.phase == "play" and s.stage == "action")
    state.moles_left[seat] = 0
    state.mflag = [0] * len(state.mflag)
    state._legal = None
    assert {a["type"] for a in state.legal_actions(seat)} <= {"end_turn", "undo", "ransom"}
    assert state.view(seat)["decision"]["prompt"] == {"code": "topoum.prompt.stuck"}
    assert state.view(None)["decision"]["prompt"]["code"] != "topoum.prompt.stuck"  # said to her alone


NARROWED = ("topoum.prompt.moves_done", "topoum.prompt.act_enter", "topoum.prompt.act_move")


@pytest.mark.parametrize("seed", range(4))
def test_her_prompt_matches_what_she_can_do(seed):
    # Decision 26: "Move another mole, or end your turn." was asked with no mole left to move (nothing highlighted).
    told = set()
    for state, seat in positions(seed, players=3, options={}):
        code = state.view(seat)["decision"]["prompt"]["code"]
        kinds = {a["type"] for a in state.legal_actions(seat)} - {"undo", "ransom"}
        told.add(code)
        if code == "topoum.prompt.moving":
            assert "move" in kinds
        elif code == "topoum.prompt.moves_done":
            assert kinds == {"end_turn"}
        elif code == "topoum.prompt.act":
            assert {"move", "enter"} <= kinds
        elif code == "topoum.prompt.act_enter":
            assert "enter" in kinds and "move" not in kinds
        elif code == "topoum.prompt.act_move":
            assert "move" in kinds and "enter" not in kinds
        other = (seat + 1) % state.n  # the narrowed prompts are said to her alone
        assert state.view(other)["decision"]["prompt"]["code"] not in (
            "topoum.prompt.moves_done",
            "topoum.prompt.act_enter",
            "topoum.prompt.act_move",
        )
    assert "topoum.prompt.moves_done" in told or seed, "no random game reached a turn with every mole moved"
