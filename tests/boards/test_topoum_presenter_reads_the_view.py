"""The Topoum presenter shows what the view says and recomputes no rule (decision 15): change a field of a real
game's view and the table shows the change.  Marked spaces, deadly squares, card categories, move outcomes and
their cost, the decision asked."""

from __future__ import annotations

import copy
import json

from django.utils import translation

from boards.topoum import presenter as tm
from engine.core import get_game, make_rng

GAME = get_game("topoum")
NAMES = ["ana", "bruno"]


def position_with_moves(seed: int = 4):
    """A real position of a random game where the seat to act may move moles: (state, seat)."""
    state = GAME.new_state(2, GAME.validate_options(2, {"obstacles": True}), seed)
    rng = make_rng(f"presenter-{seed}", 0)
    while True:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if any(a["type"] == "move" for a in legal) and state.stage == "moving":
            return state, seat
        state.apply(seat, json.loads(json.dumps(rng.choice([a for a in legal if a["type"] != "undo"]))))


def detail_of(state, seat) -> dict:
    return {
        "view": state.view(seat),
        "legal_actions": state.legal_actions(seat),
        "my_seat": seat,
        "undoable": state.undoable(seat),
    }


def present(detail: dict) -> dict:
    with translation.override("en"):
        return tm.present(detail, NAMES)


def test_the_marked_spaces_come_from_the_view():
    state, seat = position_with_moves()
    detail = detail_of(state, seat)
    marks = {s["key"]: s["mark"] for s in present(detail)["board"]["spaces"]}
    assert marks["3,0"] == "zone" and marks["4,0"] == "x" and marks["1,0"] == ""  # ruling T2
    detail["view"]["marks"] = {"x_spaces": [[1, 0]], "zones": [[0, 1]]}
    marks = {s["key"]: s["mark"] for s in present(detail)["board"]["spaces"]}
    assert marks["1,0"] == "x" and marks["0,1"] == "zone" and marks["3,0"] == marks["4,0"] == ""


def test_the_move_words_and_their_cost_come_from_the_view():
    state, seat = position_with_moves()
    detail = detail_of(state, seat)
    first = detail["view"]["move_outcomes"][0]
    move = {"type": "move", "from": first["from"], "to": first["to"]}

    def label(outcome: dict) -> str:
        detail["view"]["move_outcomes"][0] = {**first, **outcome}
        return next(p["label"] for p in present(detail)["paths"] if p["action"] == move)

    assert label({"outcome": "land", "penalty": 0}) == "Move the mole there"
    assert label({"outcome": "lost", "feature": "gas", "penalty": 5}) == (
        "Move onto the gas: the mole is eliminated (−5 medals)"
    )
    assert label({"outcome": "lost", "feature": None, "penalty": 7}) == (
        "Move there: no square, the mole is eliminated (−7 medals)"
    )  # the cost is the view's, not a copy
    assert label({"outcome": "collide_own", "penalty": 10}) == (
        "Move onto your own mole: both are eliminated (−10 medals)"
    )
    assert label({"outcome": "slide", "penalty": 0}) == "Move onto the ice: the mole slides on"


def test_the_prompt_is_the_views_decision():
    state, seat = position_with_moves()
    detail = detail_of(state, seat)
    assert present(detail)["prompt"] == "Move another mole, or end your turn."
    detail["view"]["decision"]["prompt"] = {"code": "topoum.prompt.stuck"}
    assert present(detail)["prompt"] == "None of your moles can act this turn: end your turn."
    detail["view"]["decision"]["prompt"] = {"code": "topoum.prompt.target", "card": "grenade"}
    assert present(detail)["prompt"] == "Choose the target of Grenade."


def test_deadly_squares_and_card_categories_come_from_the_view():
    state, seat = position_with_moves()
    detail = detail_of(state, seat)
    view = detail["view"]
    cell = view["board"][0]
    assert "deadly" not in cell or cell["feature"] in ("puddle", "gas", "trap", "footprint", "dynamite")
    changed = copy.deepcopy(detail)
    changed["view"]["board"][0]["deadly"] = True
    tile = next(t for t in present(changed)["board"]["tiles"] if t["key"] == f"{cell['hex'][0]},{cell['hex'][1]}")
    assert tile["deadly"] is True
    card = view["line"][0]
    assert present(detail)["line"][0]["category"] == view["card_categories"][card]
    changed["view"]["card_categories"][card] = "special" if view["card_categories"][card] != "special" else "combat"
    assert present(changed)["line"][0]["category"] == changed["view"]["card_categories"][card]
