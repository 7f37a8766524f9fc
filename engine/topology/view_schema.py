"""The JSON Schema of a Topology view (TopologyState.view): checked against every view the conformance tests
build (tests/engine/test_conformance.py) and published in the API's schema (games.api.responses).

Cells are axial hex coordinates [q, r]; sides of a cell are numbered 0-5 (engine/topology/geometry.py).
"""

from ..schema_parts import arr, boolean, const, integer, nullable, obj, results, seat, seat_or_null, string
from .rules import TIE_BREAKS

CELL = arr("A hex cell as axial coordinates [q, r].", integer("A coordinate."), minItems=2, maxItems=2)
TILE = integer("A tile's number (0-based, unique in the game).", minimum=0)
DESIGN = integer("Which of the double-hex designs the tile shows (its curves).", minimum=0)
END = arr(
    "One end of a curve: [cell, side], the side of that cell (0-5) where the curve meets the edge.",
    {"anyOf": [CELL, integer("The side, 0-5.", minimum=0, maximum=5)]},
    minItems=2,
    maxItems=2,
)
CURVE = arr("A curve of a placed tile: its two ends.", END, minItems=2, maxItems=2)

VIEW = obj(
    "The table as one seat (or a spectator) sees it: everything on the table and the score track; never "
    "the stack's order or the seed.  During another seat's unconfirmed turn, that turn as it began "
    "(ruling S3).",
    {
        "game": const("topology", "The game."),
        "seat": seat_or_null("The seat this view is for; null for a spectator."),
        "players": integer("Seats at the table (2-4).", minimum=2, maximum=4),
        "advanced": boolean("The advanced variant: each turn also reveals a third tile or turns one over."),
        "start_player": seat("The seat that played the first turn."),
        "current": seat_or_null("The seat whose turn it is; null once the game is over."),
        "turn": integer("Turns played so far (the current turn's number, from 0).", minimum=0),
        "over": boolean("The game is over."),
        "stack_size": integer("Tiles left face down in the stack.", minimum=0),
        "board": arr(
            "The tiles on the table.",
            obj(
                "A placed tile.",
                {
                    "tile": TILE,
                    "design": DESIGN,
                    "anchor": CELL,
                    "orientation": integer(
                        "Which side of the anchor cell the tile's second cell lies on (0-5).", minimum=0, maximum=5
                    ),
                    "cells": arr("The tile's two cells: the anchor, then the second.", CELL, minItems=2, maxItems=2),
                    "curves": arr("Its five curves, each from one end to another.", CURVE),
                },
            ),
        ),
        "revealed": arr("The tiles revealed for this turn, placed or not.", TILE),
        "hand": arr(
            "The revealed tiles still to place this turn.",
            obj(
                "A tile to place.",
                {
                    "tile": TILE,
                    "design": DESIGN,
                    "pairs": arr(
                        "The design's curves as pairs of end numbers (the tile's own numbering, 0-9 "
                        "around the double hex; engine/topology/geometry.py).",
                        arr("Two end numbers.", integer("An end, 0-9.", minimum=0, maximum=9), minItems=2, maxItems=2),
                    ),
                    "symmetric": boolean("Turning the tile half a turn draws the same curves."),
                },
            ),
        ),
        "steps": arr(
            "What the current turn did so far, in order (undo takes the last back).",
            obj(
                "One step of the turn.",
                {
                    "type": string("place, reveal or turn_over.", enum=["place", "reveal", "turn_over"]),
                    "tile": TILE,
                },
                optional=("tile",),
            ),
        ),
        "placed_this_turn": arr("The tiles placed this turn, in order.", TILE),
        "decided": boolean(
            "False while an advanced turn still needs its choice: reveal a third tile or turn one over."
        ),
        "undoable": boolean("This seat may take back its last step of this turn (ruling S3)."),
        "scores": arr("Points per seat.", integer("Points.")),
        "last_turn": arr(
            "Per seat, the number of the last turn it finished, or null.",
            nullable(integer("A turn number.", minimum=0)),
        ),
        "history": arr(
            "Every finished turn, oldest first.",
            obj(
                "A turn and what it scored.",
                {
                    "turn": integer("The turn's number.", minimum=0),
                    "seat": seat("Who played it."),
                    "points": integer("Points it scored."),
                    "rings": arr(
                        "The rings it closed.",
                        obj(
                            "A ring closed that turn.",
                            {
                                "value": integer("The ring's value."),
                                "points": integer("Points it gave."),
                                "inner": arr(
                                    "The values of the rings it encloses, largest first (they add to its points).",
                                    integer("A ring's value."),
                                ),
                            },
                        ),
                    ),
                },
            ),
        ),
        "rings": arr(
            "The closed rings on the table now.",
            obj(
                "A closed ring.",
                {
                    "value": integer("The ring's value."),
                    "curves": arr(
                        "The curves it runs through in walking order, each as [tile, entry end, exit end] "
                        "(ends in the tile's own numbering).",
                        arr("[tile, end, end].", integer("A number.", minimum=0), minItems=3, maxItems=3),
                    ),
                },
            ),
        ),
        "results": results(
            obj(
                "Topology's detail.",
                {
                    "last_turn": nullable(
                        integer(
                            "The seat's last turn: among tied scores the later turn ranks lower (ruling L7).", minimum=0
                        )
                    ),
                },
            ),
            TIE_BREAKS,
        ),
    },
    title="TopologyView",
)
