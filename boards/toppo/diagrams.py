"""Toppo's How to play diagrams (a line topping the display, one matching, every card), drawn by its presenter.

Positions reached by legal actions from fixed seeds (boards.registry explains why; found by game_module).
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import get_game
from engine.toppo.cards import COLOURS, SYMBOLS, card_json, match_choices, top_orders

from . import presenter


@lru_cache(maxsize=1)
def positions() -> dict:
    """A correspondence deal where seat 0's line can top the display, what the display shows once the round is
    resolved (ruling P4), and a deal where her line can match (rulings P2, P3)."""
    game = get_game("toppo")
    top = match = None
    for i in range(500):
        state = game.new_state(3, {"pace": "correspondence"}, f"rules-toppo-{i}")
        tops = [pile[-1] for pile in state.display]
        line = state.lines[0]
        if top is None and top_orders(line, tops):
            order = top_orders(line, tops)[0]
            before = state.view(0)
            state.apply(0, {"type": "top", "order": order})
            for seat in state.to_act():
                state.apply(seat, {"type": "renew"})
            top = {"before": before, "after": state.view(0), "order": order}
        elif match is None and match_choices(line, tops):
            match = {"before": state.view(0), "pairs": match_choices(line, tops)[0]}
        if top and match:
            return {"top": top, "match": match}
    raise LookupError("no deal found for the Toppo diagrams")


def diagrams() -> dict:
    found = positions()
    names = ["", "", ""]

    def board(view):
        return presenter.present({"view": view, "legal_actions": [], "my_seat": 0}, names)

    top, match = found["top"], found["match"]
    before = board(top["before"])
    # The line laid in the topping order, each card under the display card it goes on.
    laid = [before["my_line"][j]["card"] for j in top["order"]]
    match_board = board(match["before"])
    pairs = [
        {"line": match_board["my_line"][j]["card"], "line_pos": j + 1, "display_pos": d + 1} for j, d in match["pairs"]
    ]
    kinds = [
        [presenter.card(card_json(colour * len(SYMBOLS) + symbol)) for symbol in range(len(SYMBOLS))]
        for colour in range(len(COLOURS))
    ]  # every kind of card (ruling P1), a row per colour
    after = board(top["after"])
    return {
        "kinds": kinds,
        "top_line_display": [p["card"] for p in before["display"]],
        "top_line": [line["card"] for line in before["my_line"]],
        "top_laid": laid,
        "top_after_display": [p["card"] for p in after["display"]],
        "match_display": [p["card"] for p in match_board["display"]],
        "match_line": [line["card"] for line in match_board["my_line"]],
        "match_pairs": pairs,
        "priority": before["priority"],
    }
