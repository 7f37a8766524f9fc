"""The JSON Schema of a Toppo view (ToppoState.view): checked against every view the conformance tests build
(tests/engine/test_conformance.py) and published in the API's schema (games.api.responses).

Never in a view: the order of any deck or of the stack, covered display cards, another seat's sealed claim,
the seed (ruling G0.3).
"""

from ..schema_parts import arr, boolean, const, integer, nullable, obj, results, seat, seat_or_null, string
from .cards import COLOURS, SYMBOLS

CARD = obj(
    "A card face up.", {"colour": string("Its colour.", enum=COLOURS), "symbol": string("Its symbol.", enum=SYMBOLS)}
)
SEATS = arr("Seats.", seat("A seat."))
CLAIM = obj(
    "A sealed claim of a correspondence round (ruling P4): the action as sent.",
    {
        "type": string("top, match, renew or toppo.", enum=["top", "match", "renew", "toppo"]),
        "order": arr(
            "top: line card j goes onto display card i for each position i.", integer("A line index.", minimum=0)
        ),
        "pairs": arr(
            "match: [line card, display card] pairs.",
            arr("[line index, display index].", integer("An index.", minimum=0), minItems=2, maxItems=2),
        ),
    },
    optional=("order", "pairs"),
)
CLAIM_OUTCOMES = arr(
    "Each claim of the round in priority order, with what became of it.",
    obj(
        "A resolved claim.",
        {
            "seat": seat("Whose claim."),
            "claim": CLAIM,
            "outcome": string(
                "applied, void (interrupted or no longer true), renew, or toppo.",
                enum=["applied", "void", "renew", "toppo"],
            ),
        },
    ),
)
HAND = integer("The hand, from 1.", minimum=1)

EVENT = obj(
    "One thing the last action made happen, in order (the log line is written from these).",
    {
        "kind": string(
            "What happened: deal, choose, display, reveal, renew, interrupt, claimed, round, top, match, "
            "wrong, restock, propose, agree, proposal_lapsed, replace_failed, replaced, toppo, over.",
            enum=[
                "deal",
                "choose",
                "display",
                "reveal",
                "renew",
                "interrupt",
                "claimed",
                "round",
                "top",
                "match",
                "wrong",
                "restock",
                "propose",
                "agree",
                "proposal_lapsed",
                "replace_failed",
                "replaced",
                "toppo",
                "over",
            ],
        ),
        "seat": seat("The seat it is about."),
        "hand": HAND,
        "start": seat("deal: the hand's start player."),
        "size": integer("choose: the display size chosen.", minimum=1),
        "card": CARD,
        "cards": {
            "description": "display, top, replaced: the cards laid; restock: how many covered cards were "
            "shuffled back into the stack.",
            "anyOf": [arr("Cards.", CARD), integer("A count.", minimum=0)],
        },
        "back": integer("renew, match: cards that went face down under the seat's deck.", minimum=0),
        "restarter": seat("interrupt: who reveals next."),
        "round": integer("round: the correspondence round.", minimum=0),
        "priority": arr("round: the order its claims resolved in (ruling P4 amended).", seat("A seat.")),
        "claims": CLAIM_OUTCOMES,
        "pairs": arr(
            "match: each matched card and the display card it went on.",
            obj("A matched card.", {"card": CARD, "display": integer("The display card's index.", minimum=0)}),
        ),
        "call": string("wrong: the call that was wrong (top, match or toppo).", enum=["top", "match", "toppo"]),
        "line": arr("wrong: the line that went under, face up.", CARD),
        "penalty": integer("wrong: penalty cards taken from the stack.", minimum=0),
        "supply": integer("replace_failed: the cards the stack could still give.", minimum=0),
        "held": integer("toppo: the cards the caller held.", minimum=0),
        "points": arr("toppo: penalty points each seat took this hand.", integer("Points.", minimum=0)),
        "totals": arr("toppo, over: each seat's penalty total.", integer("Points.", minimum=0)),
    },
    optional=(
        "seat",
        "hand",
        "start",
        "size",
        "card",
        "cards",
        "back",
        "restarter",
        "round",
        "priority",
        "claims",
        "pairs",
        "call",
        "line",
        "penalty",
        "supply",
        "held",
        "points",
        "totals",
    ),
)

VIEW = obj(
    "The table as one seat (or a spectator) sees it: every card face up, counts of the rest, and the "
    "seat's own sealed claim.",
    {
        "game": const("toppo", "The game."),
        "seat": seat_or_null("The seat this view is for; null for a spectator."),
        "players": integer("Seats at the table (2-8).", minimum=2, maximum=8),
        "pace": string(
            "live (everyone at once, ruling P3) or correspondence (sealed rounds, ruling P4).",
            enum=["live", "correspondence"],
        ),
        "hands": integer("Hands in the match.", minimum=1),
        "hand": HAND,
        "phase": string(
            "choose_display (the start player picks the display size), play, or over.",
            enum=["choose_display", "play", "over"],
        ),
        "chooser": seat_or_null("Who must choose the display size now, or null."),
        "display_choices": arr(
            "The display sizes she may choose (empty outside choose_display).", integer("A size.", minimum=1)
        ),
        "start_player": seat("The hand's start player."),
        "display_size": nullable(integer("Cards in the display this hand; null until chosen.", minimum=1)),
        "display": arr(
            "The display piles: the top card of each, and how many cards the pile holds.",
            obj("A display pile.", {"top": CARD, "height": integer("Cards in the pile.", minimum=1)}),
        ),
        "lines": arr("Each seat's line, face up, in order.", arr("A line.", CARD)),
        "deck_sizes": arr("Cards in each seat's deck.", integer("A count.", minimum=0)),
        "decks_seen": arr(
            "Each seat's deck from the top: a card everyone saw go under it, or null.", arr("A deck.", nullable(CARD))
        ),
        "held": arr(
            "Cards in each seat's deck and line (what toppo and penalties count, ruling P5).",
            integer("A count.", minimum=0),
        ),
        "stack_size": integer("Cards in the stack.", minimum=0),
        "covered": integer("Cards lying under the visible display cards.", minimum=0),
        "totals": arr("Each seat's penalty points so far (lower is better).", integer("Points.", minimum=0)),
        "hand_points": arr(
            "The penalty points of every finished hand, per seat.", arr("A hand.", integer("Points.", minimum=0))
        ),
        "restarter": seat_or_null("Live pace: the seat to reveal next after an interruption, or null."),
        "bumped": arr(
            "Live pace, per seat: whose call last sent that seat's line back under its deck (a top, or a wrong "
            "call that interrupted play), until that seat acts again; null otherwise.",
            nullable(
                obj(
                    "An interruption that took a seat's line.",
                    {
                        "by": seat("The seat whose call it was."),
                        "call": string(
                            "top (a right top), wrong_top, wrong_match or wrong_toppo.",
                            enum=["top", "wrong_top", "wrong_match", "wrong_toppo"],
                        ),
                        "cards": integer("The cards of the line that went back.", minimum=1),
                    },
                )
            ),
        ),
        "proposal": nullable(
            obj("A proposal to replace the display (ruling P6).", {"by": seat("Who proposed it."), "agreed": SEATS})
        ),
        "round": nullable(integer("Correspondence: the round of the hand; null at a live pace.", minimum=0)),
        "priority": nullable(
            arr(
                "Correspondence, while playing: the order the round's claims resolve in "
                "(ruling P4 amended); null otherwise.",
                seat("A seat."),
            )
        ),
        "claimed": arr("Per seat: it has sent its claim this round.", boolean("Claimed.")),
        "claim_order": arr(
            "The seats that claimed this round, in the order they did (public; it decides nothing).", seat("A seat.")
        ),
        "my_claim": nullable(CLAIM),
        "last_round": nullable(
            obj(
                "The last resolved correspondence round.",
                {
                    "hand": HAND,
                    "round": integer("The round.", minimum=0),
                    "priority": arr("The order its claims resolved in.", seat("A seat.")),
                    "claims": CLAIM_OUTCOMES,
                },
            )
        ),
        "events": arr("What the last action made happen.", EVENT),
        "results": results(
            obj(
                "Toppo's detail.",
                {
                    "penalty_points": integer("The seat's penalty total.", minimum=0),
                    "hands": arr("Its penalty points per hand.", integer("Points.", minimum=0)),
                },
            )
        ),
    },
    title="ToppoView",
)
