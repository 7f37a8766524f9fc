"""Topoum: the rules engine (the rulebook + rulings T1-T21, restated in docs/rules/topoum.md; our own calls in
RULES_NOTES.md).

Modules, from the ground up: board (geometry, codes), cards (types, presets, deck), movement (arrivals,
eliminations, removals, Law #4), scoring (lines of sight, final scoring), farmers (the eight farmers),
obstacles (expert variant), barracks (from the reserve and back, T10), effects (the 22 cards, one table),
setup (options, new game, initial battlefield), turn (a turn's decisions), rules (setup then turns: legal
actions, apply), events (log entries, prompts, refusals as data), view (what a seat sees), state (the position),
hidden (determinize, plant_secrets), game (registration); hints (the bots' knowledge). No module imports one above it.

A turn is a chain of small decisions; `legal_actions(seat)` lists exactly the choices of the current
one, and none of them leads to a dead end (Law of War #7). Hexes are [q, r] lists. An action is accepted
only when it is one of them exactly, as JSON (ruling G0.4: 2 is not 2.0 nor true, no extra or missing key).

Setup (each a decision of the seat whose turn it is, applied at once):
  {"type": "place", "hex": [q, r]}          centre tile, ring barracks, barracks with mole
  {"type": "obstacle", "kind": "rock"|"puddle"|"gas"|"ice", "hex": [q, r]}   obstacle variant (T16)

Turn (ended by end_turn; undo takes back the last decision until something hidden is revealed):
  {"type": "ransom", "captor": seat}        T9, only before the action, 3 medals to the captor
  {"type": "place", "hex": [q, r]}          T9 compulsory barracks + mole when she has none on the battlefield
                                            (a mole on an outpost does not count, T21)
  {"type": "enter", "hex": [q, r]}          T11, then a play decision follows
  {"type": "move", "from": [q, r], "to": [q, r]}   T12, "to" may lie off the board; "from" a mole that was on
                                            the battlefield when the turn began (not on an outpost, T21)
  {"type": "play", "card": name, "source": "hand"}
  {"type": "play", "card": name, "source": "line", "slot": 1..5}
  {"type": "change_tile"}                   after a move onto a free square, instead of a card
  {"type": "target", "hex": [q, r]}         the card's target; also where the dynamite goes back
  {"type": "target", "hex": [q, r], "from": [q, r] | None}   four-tile farmers: which tile (None: beside)
  {"type": "target", "hex": None}           Lord of the Crates: no crate moved
  {"type": "direction", "dir": 0..5}        Panic Attack (0 east, counter-clockwise, engine.hexgrid)
  {"type": "keep", "hex": [q, r]}           Law #4 tie: any hex of the part that stays
  {"type": "take_back", "hex": [q, r]}      T10: which own barracks comes back to the reserve
  {"type": "end_turn"}                      scores new lines, Press, replenish, next player; before any
                                            action only when she has none, or each would cost her a mole (T21)
  {"type": "undo"}

The view carries `decision` (what is being asked, as a prompt code), the marked spaces, deadly squares, card
categories and, to the seat to act, what each of her moves does (`move_outcomes`); her legal actions travel
beside it (the table's detail), so a page can highlight exactly the clickable hexes and cards.
"""

from . import game  # noqa: F401  (registers "topoum")
from .game import TopoumGame
from .state import TopoumState

__all__ = ["TopoumGame", "TopoumState"]
