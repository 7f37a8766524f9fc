"""What one seat (or a spectator) may see of a Toppo match (ruling G0.3): the public table and her own sealed claim.

Never in a view: the order of any deck or of the stack, covered display cards, another seat's sealed claim, the
seed.  Its shape is documented in view_schema.py and checked by the conformance tests.
"""

from __future__ import annotations

from engine.core import copy_json

from . import rounds
from .cards import card_json
from .rules import CORRESPONDENCE


def seat_view(state, seat: int | None) -> dict:
    """Public table plus the seat's own sealed claim; never the deck orders, stack, covered cards or seed."""
    by_rounds = state.pace == CORRESPONDENCE
    own = None
    if by_rounds and seat is not None:
        own = next((copy_json(c) for s, c in state.claims if s == seat), None)
    return {
        "game": "toppo",
        "seat": seat,
        "players": state.players,
        "pace": state.pace,
        "hands": state.hands,
        "hand": state.hand + 1,
        "phase": state.phase,
        "chooser": state.chooser,
        "display_choices": state.display_choices() if state.phase == "choose_display" else [],
        "start_player": state.start,
        "display_size": state.size,
        "display": [{"top": card_json(p[-1]), "height": len(p)} for p in state.display],
        "lines": [[card_json(c) for c in line] for line in state.lines],
        "deck_sizes": [len(d) for d in state.decks],
        "decks_seen": [
            [card_json(c) if known else None for c, known in zip(d, k)] for d, k in zip(state.decks, state.seen)
        ],
        "held": [state.held(s) for s in range(state.players)],
        "stack_size": len(state.stack),
        "covered": state.covered(),
        "totals": list(state.totals),
        "hand_points": [list(p) for p in state.hand_points],
        "restarter": state.restarter,
        # Live: per seat, whose call last sent her line back under her deck, until she acts again (decision 26).
        "bumped": [copy_json(b) for b in state.bumped] if state.bumped else [None] * state.players,
        "proposal": None
        if state.proposal is None
        else {"by": state.proposal["by"], "agreed": list(state.proposal["agreed"])},
        "round": state.round if by_rounds else None,
        # The round's claims resolve in this order, first seat first (ruling P4 amended); public.
        "priority": rounds.priority(state) if by_rounds and state.phase == "play" else None,
        "claimed": [any(s == other for s, _ in state.claims) for other in range(state.players)],
        # Who claimed when is public, as in the log; not what.  It no longer decides anything (P4 amended).
        "claim_order": [s for s, _ in state.claims],
        "my_claim": own,
        "last_round": copy_json(state.last_round),
        "events": copy_json(state.events),
        "results": [r.to_json() for r in state.results()] if state.phase == "over" else None,
    }
