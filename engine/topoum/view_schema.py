"""The JSON Schema of a Topoum view (engine/topoum/view.py): checked against every view the conformance tests
build (tests/engine/test_conformance.py) and published in the API's schema (games.api.responses).

Spaces are axial hex coordinates [q, r] with the centre at [0, 0]; directions are numbered 0-5.  Never in a
view: another seat's hand or the cards under a pile's top, the deck's order, crate values the seat has not seen,
the seed (ruling G0.3).
"""

from ..schema_parts import arr, boolean, const, integer, nullable, obj, results, seat, seat_or_null, string
from .board import COLOURS, FEATURE_NAMES
from .cards import CATEGORIES
from .scoring import TIE_BREAKS

HEX = arr("A space as axial coordinates [q, r].", integer("A coordinate."), minItems=2, maxItems=2)
CARD = string("A card type, e.g. grenade (engine/topoum/cards.py).")
COUNT = integer("A count.", minimum=0)
PER_SEAT = integer("A number for one seat.", minimum=0)

ACTION = obj(
    "An action of Topoum: `type` and its own fields, as listed in the legal actions (engine/topoum/turn.py).",
    {
        "type": string(
            "What the action does.",
            enum=[
                "place",
                "obstacle",
                "play",
                "enter",
                "move",
                "direction",
                "target",
                "keep",
                "take_back",
                "ransom",
                "change_tile",
                "undo",
                "end_turn",
            ],
        ),
        "hex": nullable(HEX),
        "from": nullable(HEX),
        "to": HEX,
        "card": CARD,
        "source": string("play: where the card comes from, the hand or a Line slot.", enum=["hand", "line"]),
        "slot": integer("play from the Line: the slot, 1-5 (ruling T5).", minimum=1, maximum=5),
        "dir": integer("direction: the direction, 0-5.", minimum=0, maximum=5),
        "kind": string("obstacle: which obstacle.", enum=["rock", "puddle", "gas", "ice"]),
        "captor": seat("ransom: the seat holding the mole."),
    },
    optional=("hex", "from", "to", "card", "source", "slot", "dir", "kind", "captor"),
)

PENDING = nullable(
    obj(
        "A decision the current turn waits for before it can go on.",
        {
            "k": string(
                "What is asked: card (the card's effect for a mole), direction, target, keep (which of tied "
                "parts of the battlefield to keep), dynamite, take_back (which barracks to take back when none is "
                "left in the reserve, ruling T10).",
                enum=["card", "direction", "target", "keep", "dynamite", "take_back"],
            ),
            "card": CARD,
            "m": HEX,
            "alt": boolean("card: the mole reached by the alternative route."),
            "parts": arr("keep: the parts the battlefield fell into, each a list of spaces.", arr("A part.", HEX)),
            "then": obj(
                "take_back: what the barracks is for once one is taken back.",
                {"do": string("build, abandoned, conquest, change or place."), "cell": HEX, "m": HEX},
                optional=("m",),
            ),
        },
        optional=("card", "m", "alt", "parts", "then"),
    )
)

SPACE = obj(
    "An occupied or tiled space.",
    {
        "hex": HEX,
        "tile": string(
            "The tile on it: neutral, barracks (of `colour`) or standalone.", enum=["neutral", "barracks", "standalone"]
        ),
        "colour": nullable(
            integer("The tile's colour (a seat's colour index); null for a standalone tile.", minimum=0, maximum=3)
        ),
        "outpost": boolean("The tile is an outpost, not yet part of the battlefield."),
        "feature": string("What lies on it.", enum=[*FEATURE_NAMES.values(), "crate"]),
        "crate": integer("A crate: its number (0-3).", minimum=0),
        "seen_by": arr("A crate: the seats that looked inside.", seat("A seat.")),
        "value": integer("A crate's value: to those who looked, and to all once the game is over."),
        "mole": seat("The seat whose mole stands here."),
        "movable": boolean(
            "The mole may still move this turn (only moles on the battlefield when the turn began, not on an outpost)."
        ),
        "fresh": boolean("The mole arrived this turn."),
        "deadly": boolean("A mole entering this space is eliminated (the feature on it, rulings T12, T16, T17)."),
        "red_cross": boolean("The Red Cross stands here."),
    },
    optional=(
        "tile",
        "colour",
        "outpost",
        "feature",
        "crate",
        "seen_by",
        "value",
        "deadly",
        "mole",
        "movable",
        "fresh",
        "red_cross",
    ),
)

MOVE_OUTCOME = obj(
    "What one of her legal moves does to the moving mole, as the game will play it (ruling T12).",
    {
        "from": HEX,
        "to": HEX,
        "outcome": string(
            "land (it stops on `to`), slide (ice carries it on to `at`, ruling T16), lost (it is "
            "eliminated at `at`: no square, fallen off, or a deadly feature), collide_own or collide_rival "
            "(it meets a mole at `at`: both are eliminated).",
            enum=["land", "slide", "lost", "collide_own", "collide_rival"],
        ),
        "at": nullable(HEX),
        "feature": {
            **nullable(string("lost: the feature that eliminates it, or null when there is no square.")),
            "enum": [*FEATURE_NAMES.values(), None],
        },
        "penalty": integer("The medals she loses by it (Law #5).", minimum=0),
    },
    optional=("feature",),
)

FINAL = obj(
    "A seat's end-of-game bonus (ruling T20).",
    {
        "categories": integer("Medals from category majorities.", minimum=0),
        "sets": integer("Medals from sets of the four categories.", minimum=0),
        "majorities": arr("The categories she has the majority in.", string("A category.")),
        "counts": obj(
            "Cards per category in her discard pile.",
            {"combat": COUNT, "expansion": COUNT, "movement": COUNT, "special": COUNT},
        ),
        "crates": integer("Medals from her crates.", minimum=0),
        "total": integer("The bonus in all.", minimum=0),
    },
)

PUBLIC = {
    "game": const("topoum", "The game."),
    "players": integer("Seats at the table (2-4).", minimum=2, maximum=4),
    "colours": arr("Each seat's colour.", string("A colour.", enum=COLOURS)),
    "options": obj(
        "The table's options as the game uses them.",
        {
            "radius": integer("The battlefield's radius.", minimum=1),
            "types": arr("The card types in the deck.", CARD),
            "line_values": arr("The medals a line of sight is worth per slot.", integer("Medals.")),
            "obstacles": boolean("The obstacle variant."),
            "farmer": string("The farmer chosen for the table (or none/random as asked)."),
        },
    ),
    "card_categories": {
        "type": "object",
        "description": "Card type -> its category (combat, movement, expansion "
        "or special, ruling T6), for the types in the deck.",
        "patternProperties": {"^[a-z_]+$": string("A category.", enum=list(CATEGORIES))},
        "additionalProperties": False,
    },
    "marks": obj(
        "The spaces marked on the board (ruling T2).",
        {
            "x_spaces": arr("The X spaces, 4 away from the centre on the six axes.", HEX),
            "zones": arr("The four farmer zones, 3 away from the centre.", HEX),
        },
    ),
    "farmer": nullable(string("The farmer in play, or null.")),
    "phase": string("setup, play or over.", enum=["setup", "play", "over"]),
    "step": string(
        "Setup: what is being placed (centre, ring, mole, obstacle, outpost); empty in play.",
        enum=["centre", "ring", "mole", "obstacle", "outpost", ""],
    ),
    "order": arr("Setup: the seats still to place in this step, next first.", seat("A seat.")),
    "start": seat("The start player."),
    "current": seat_or_null("The seat to act; null once over."),
    "to_act": arr("The seats to act now.", seat("A seat.")),
    "board": arr("The occupied or tiled spaces.", SPACE),
    "red_cross": nullable(HEX),
    "medals": arr("Each seat's medals (the score).", integer("Medals.")),
    "reserve": obj(
        "What each seat has left to bring in.",
        {"moles": arr("Moles per seat.", PER_SEAT), "tiles": arr("Barracks tiles per seat.", PER_SEAT)},
    ),
    "prisoners": arr("prisoners[captor][owner]: moles a seat holds of another's.", arr("A captor's row.", COUNT)),
    "press": seat_or_null("Who holds the Press card (a medal each turn), or null."),
    "farmer_tiles_beside": integer("Farmer tiles beside the board, ready to come back.", minimum=0),
    "obstacle_tiles_left": obj("Obstacle tiles not yet placed.", {"puddle_rock": COUNT, "ice_gas": COUNT}),
    "crates_total": integer("Crates in the game.", minimum=0),
    "dynamite_pending": boolean("A dynamite is waiting to go off."),
    "deck_size": integer("Cards left in the deck.", minimum=0),
    "line": arr("The Line's five slots (slot 1 first), a card or null.", nullable(CARD), minItems=5, maxItems=5),
    "trash": arr("Slot-5 cards discarded unused, face up.", CARD),
    "hand_sizes": arr("Cards in each seat's hand.", COUNT),
    "piles": arr(
        "Each seat's discard pile: its size and its top card.", obj("A pile.", {"size": COUNT, "top": nullable(CARD)})
    ),
    "peace": boolean("The Peace card has come out: the game ends after the last seat's turn."),
    "last_seat": seat("The seat that plays last in a round."),
    "turns": integer("Turns played.", minimum=0),
    "turn": obj(
        "The current turn.",
        {
            "stage": string("start, action, moving or done.", enum=["start", "action", "moving", "done"]),
            "pending": PENDING,
            "hand_used": integer("Cards played from the hand this turn.", minimum=0),
            "line_used": arr("The Line slots used this turn (1-5).", integer("A slot.", minimum=1, maximum=5)),
            "start_lines": arr(
                "The lines of sight that stood when the turn began, as pairs of spaces.",
                arr("A line.", HEX, minItems=2, maxItems=2),
            ),
            "log": arr("The decisions of this turn so far.", ACTION),
            "undo_floor": integer("Decisions before this one can no longer be taken back.", minimum=0),
        },
    ),
    "decision": nullable(
        obj(
            "The decision the game waits for.",
            {
                "seat": seat("Who decides."),
                "prompt": obj(
                    "What is asked, as data (the site words it in the reader's language).",
                    {
                        "code": {
                            **string(
                                "topoum.prompt.<what>: over, setup_centre, setup_ring, setup_mole, setup_obstacle, "
                                "setup_outpost, card, target, direction, keep, dynamite, take_back, place, act, "
                                "stuck (to herself: none of her moles can act, only ending the turn is left), "
                                "act_enter / act_move (to herself: entering, or moving, is all she can do), "
                                "moving, moves_done (to herself: none of her other moles can move, ending is left) "
                                "or end_turn."
                            ),
                            "pattern": r"^topoum\.prompt\.[a-z_]+$",
                        },
                        "card": string("The card the decision is about, when there is one."),
                        "alt": boolean("The second way of asking the same thing."),
                    },
                    optional=("card", "alt"),
                ),
            },
        )
    ),
    "new_lines": arr(
        "In play: the lines of sight the current seat has made this turn.",
        obj("A line of sight.", {"from": HEX, "to": HEX, "medals": integer("What it is worth.")}),
    ),
}
OPTIONAL_PUBLIC = ("new_lines",)

VIEW = obj(
    "The table as one seat (or a spectator) sees it.  During another seat's unconfirmed turn, that turn "
    "as it began (ruling S3).",
    {
        **PUBLIC,
        "seat": seat_or_null("The seat this view is for; null for a spectator."),
        "hand": arr("Her hand.", CARD),
        "pile": arr("Her whole discard pile, bottom first.", CARD),
        "crates_known": {
            "type": "object",
            "description": "Crate number -> its value, for the crates she looked into.",
            "patternProperties": {"^[0-9]+$": integer("A crate's value.")},
            "additionalProperties": False,
        },
        "move_outcomes": arr("In play, to the seat to act: what each of her legal moves does.", MOVE_OUTCOME),
        "turn_start": nullable(
            obj("The public table as it was when this turn began.", PUBLIC, optional=OPTIONAL_PUBLIC)
        ),
        "final": arr("Once over: each seat's end-of-game bonus.", FINAL),
        "crate_values": arr("Once over: every crate's value.", integer("A value.")),
        "results": results(
            obj(
                "Topoum's detail (the tie-breaks, ruling T20).",
                {
                    "barracks": integer("Her barracks on the battlefield.", minimum=0),
                    "discards": integer("Cards in her discard pile.", minimum=0),
                    "final": FINAL,
                },
            ),
            TIE_BREAKS,
        ),
    },
    optional=(*OPTIONAL_PUBLIC, "hand", "pile", "crates_known", "move_outcomes", "final", "crate_values", "results"),
    title="TopoumView",
)
