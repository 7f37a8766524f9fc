"""Topology's How to play diagrams: the start tile, and a turn closing a ring around another (its presenter draws).

Positions reached by legal actions from fixed seeds (boards.registry explains why; found by game_module).
"""

from __future__ import annotations

from functools import lru_cache

from engine.bots import play_turn
from engine.core import get_game

from . import presenter


@lru_cache(maxsize=1)
def positions() -> dict:
    """The start tile (ruling L5) and the first turn, played by the greedy bot, that closes a ring around another
    (rulings L3, L4)."""
    game = get_game("topology")
    for attempt in range(20):
        state = game.new_state(2, {}, f"rules-topology-{attempt}")
        start = state.view(None)
        for turn in range(20):
            if state.is_over():
                break
            play_turn("greedy", game, state, state.to_act()[0], f"rules-{attempt}-{turn}")
            view = state.view(None)
            last = (view.get("history") or [None])[-1]
            if last and any(ring.get("inner") for ring in last["rings"]):
                return {"start": start, "after": view, "turn": last}
    raise LookupError("no nested ring found for the Topology diagram")


def diagrams() -> dict:
    found = positions()
    start = presenter.present({"view": found["start"], "legal_actions": [], "my_seat": None}, ["", ""])
    after = presenter.present({"view": found["after"], "legal_actions": [], "my_seat": None}, ["", ""])
    turn = found["turn"]
    # The rings of the turn, each with the rings inside it (ruling L4): the sum the page shows is the engine's.
    parts = []
    for ring in turn["rings"]:
        parts += [ring["value"], *ring.get("inner", [])]
    return {
        "start": start,
        "after": after,
        "points": turn["points"],
        "rings": turn["rings"],
        "sum": " + ".join(str(p) for p in parts),
        "tiles": len(found["after"]["board"]),
    }
