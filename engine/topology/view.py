"""What a seat (or a spectator) sees of a Topology table (ruling S3; JSON Schema: view_schema.py).

View (JSON): players, advanced, seat, start_player, current (None when over), turn, over,
stack_size, board [{tile, design, anchor, orientation, cells, curves}] with the drawing data of
geometry.placed_curves, revealed, hand [{tile, design, pairs, symmetric}] (pairs in the tile's
own end numbering, see geometry.py), steps, placed_this_turn, decided, undoable, scores,
last_turn, history [{turn, seat, points, rings: [{value, inner, points}]}], rings [{value,
curves: [[tile, end, end], ...]}] and results once over.  Never the stack order or the seed.

A turn is private until end_turn (ruling S3, amended): the other seats and spectators see the
table as the turn began, with the tiles revealed at its start (face up for everyone, as at a real
table) but not where she puts them nor a turn-over.  A third tile revealed in the advanced variant
is a draw: it cannot be taken back, and although a real table would see it at once, it shows
with the rest of the turn on confirmation, since asking for it is one of her decisions and nobody
else decides before then.
"""

from __future__ import annotations

from .geometry import placed_curves
from .rings import find_rings
from .rules import results
from .tiles import design_of, designs, symmetric


def view(state, seat: int | None) -> dict:
    """Everything on the table and in the score track of `state` (a TopologyState) as `seat` sees it."""
    if state.unconfirmed_seat() not in (None, seat):
        return view(state.turn_start(), seat)
    all_designs = designs()
    board = []
    for tile, (anchor, orientation) in state.board.tiles.items():
        drawing = placed_curves(all_designs[design_of(tile)], anchor, orientation)
        board.append(
            {"tile": tile, "design": design_of(tile), "anchor": list(anchor), "orientation": orientation, **drawing}
        )
    hand = [
        {
            "tile": tile,
            "design": design_of(tile),
            "pairs": [list(pair) for pair in all_designs[design_of(tile)]],
            "symmetric": symmetric()[design_of(tile)],
        }
        for tile in state.hand()
    ]
    return {
        "game": "topology",
        "seat": seat,
        "players": state.players,
        "advanced": state.advanced,
        "start_player": state.start_player,
        "current": state.current,
        "turn": state.turn,
        "over": state.current is None,
        "stack_size": len(state.stack),
        "board": board,
        "revealed": list(state.revealed),
        "hand": hand,
        "steps": [dict(step) for step in state.steps],
        "placed_this_turn": state.placed_now(),
        "decided": state.decided(),
        "undoable": seat is not None and state.undoable(seat),
        "scores": list(state.scores_),
        "last_turn": list(state.last_turn),
        "history": state.history_json(),
        "rings": [ring.to_json() for ring in find_rings(state.board)],
        "results": [result.to_json() for result in results(state)] if state.current is None else None,
    }
