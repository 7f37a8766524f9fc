"""Topology's log entries as data (decision 13): the site words them in the reader's language."""

from __future__ import annotations

from engine.core import Action

from .geometry import second_cell


def describe(state, seat: int, action: Action) -> list[dict]:
    """The entry for `action` by `seat`, read from `state` (a TopologyState) just after it:
    "topology.<what>" with the cells, points and rings."""
    kind = action.get("type")
    entry: dict = {"code": f"topology.{kind}", "seat": seat}
    if kind == "place":
        entry["cells"] = [list(cell) for cell in action["cells"]]
    elif kind == "end_turn":
        finished = state.history[-1] if state.history else {"points": 0, "rings": []}
        entry["points"] = finished["points"]
        entry["rings"] = [{"value": ring["value"], "inner": list(ring["inner"])} for ring in finished["rings"]]
        entry["over"] = state.current is None
    elif kind == "turn_over":
        tile = action.get("tile")
        if tile in state.board.tiles:
            anchor, orientation = state.board.tiles[tile]
            entry["cells"] = [list(anchor), list(second_cell(anchor, orientation))]
    elif kind not in ("undo", "reveal", "decline"):
        entry = {"code": "action", "seat": seat, "type": kind}
    return [entry]
