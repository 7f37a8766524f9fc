"""Topology's rules: what may be done, what it changes, and how the game is scored (rulings G0, L1-L7, S3).

Actions (JSON dicts; cells are [q, r] lists, geometry.py fixes the sides):
    {"type": "place", "tile": t, "cells": [[qA, rA], [qB, rB]], "orientation": o}
        put revealed tile t with its anchor on cells[0]; cells[1] must be
        neighbour(cells[0], o).  For a design a half-turn leaves unchanged,
        (A, o) and (B, o + 3) are the same placement; only o in 0..2 is offered
        and accepted for it, so every listed placement is a different position.
    {"type": "end_turn"}   confirm the turn once every revealed tile is down; it scores now.  Until then
                           the other seats see the table as the turn began (ruling S3, amended).
    {"type": "undo"}       take back the last placement (or turn-over) of this turn (ruling S3).
  Advanced variant (ruling L6), the first decision of each turn:
    {"type": "reveal"}            reveal a third tile (cannot be taken back);
    {"type": "turn_over", "tile": t}   turn placed tile t half a turn in place;
    {"type": "decline"}           only when no tile is left to reveal: keep every tile as it is.
  legal_actions lists "undo" too while it is allowed (bots leave it out).  Actions are
  read-only: the place actions are shared between calls and between a state and its clones.

Where the rules are silent, the site plays so:
  - advanced variant: the reveal-or-turn-over choice is the turn's first decision, before any
    placement; any placed tile may be turned, the start tile included; when no face-down tile
    is left the player may also decline the turn-over;
  - a ring counts as closed this turn when it runs through a tile placed this turn (rings
    present at the start of the turn, or right after the turn-over, do not score);
  - ties (ruling L7) are broken by each tied player's latest turn, the earlier one ranking
    higher, so ranks are never shared in a played game.

The functions take the TopologyState (state.py) as `state`; that class calls them.
"""

from __future__ import annotations

from engine.core import (
    Action,
    IllegalAction,
    NotYourDecision,
    Result,
    action_type,
    find_action,
    is_whole,
    tie_breaks_of,
)
from engine.hexgrid import DIRECTIONS

from .geometry import second_cell
from .rings import rings_around, rings_through, score_rings
from .tiles import design_of, symmetric

TILES_PER_TURN = {2: 3, 3: 2, 4: 2}  # ruling L5
ADVANCED_FIRST_REVEAL = 2  # ruling L6
CHOICES = ("reveal", "turn_over", "decline")
PLACE_KEYS = {"type", "tile", "cells", "orientation"}
# Each action type and its fields besides "type": nothing more, nothing less (ruling G0.4).
FIELDS = {
    "place": ("tile", "cells", "orientation"),
    "end_turn": (),
    "undo": (),
    "reveal": (),
    "turn_over": ("tile",),
    "decline": (),
}


# --- what may be done -------------------------------------------------------------------------
def legal_actions(state, seat: int) -> list[Action]:
    if seat != state.current:
        return []
    if not state.decided():
        actions: list[Action] = [{"type": "reveal"}] if state.stack else [{"type": "decline"}]
        actions += [{"type": "turn_over", "tile": tile} for tile in state.board.tiles]
    elif hand := state.hand():
        actions = []
        for tile in hand:
            actions += state.board.place_actions(tile)
    else:
        actions = [{"type": "end_turn"}]
    if state.undoable(seat):
        actions.append({"type": "undo"})
    return actions


def legal_match(state, seat: int, action) -> Action | None:
    """The legal action `action` names exactly (as core.find_action would find it in legal_actions), or None.

    A placement is checked directly, fact by fact, as legal_actions lists it (a web move need not list the
    hundreds of others); any other action is looked up among the few non-placements legal now.
    """
    if seat != state.current or not isinstance(action, dict):
        return None
    if action.get("type") != "place":
        if state.decided() and state.hand():  # placements to make: the only other legal action is undo
            return find_action(action, [{"type": "undo"}] if state.undoable(seat) else [])
        return find_action(action, legal_actions(state, seat))  # a short list: no placements in it
    if action.keys() != PLACE_KEYS or not state.decided():
        return None
    tile, cells, orientation = action["tile"], action["cells"], action["orientation"]
    if not (is_whole(tile) and is_whole(orientation) and 0 <= orientation <= 5) or tile not in state.hand():
        return None
    if not (
        type(cells) is list
        and len(cells) == 2
        and all(type(cell) is list and len(cell) == 2 and all(is_whole(v) for v in cell) for cell in cells)
    ):
        return None
    anchor, second = tuple(cells[0]), tuple(cells[1])
    if second_cell(anchor, orientation) != second or (orientation >= 3 and symmetric()[design_of(tile)]):
        return None
    board = state.board
    if anchor in board.cells or second in board.cells or not board.touches(anchor, orientation):
        return None
    return {"type": "place", "tile": tile, "cells": [list(anchor), list(second)], "orientation": orientation}


def validate(state, seat: int, action: Action):
    """Check `action` fully without changing anything; return (kind, parsed argument) for `change`.

    Placements are far too many to list and compare at every call: each fact is checked directly.
    """
    if state.current is None:
        raise NotYourDecision("game_over", action=action, seat=seat)
    if seat != state.current:
        raise NotYourDecision("topology.turn_of", {"seat": state.current}, action=action, seat=seat)
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in FIELDS:
        raise IllegalAction("topology.unknown", {"advanced": state.advanced}, action=action, seat=seat)
    # Exactly the fields of its type; the values are checked below, whole numbers as ints (G0.4).
    try:
        action_type(action, FIELDS, "Topology")
    except IllegalAction as err:
        err.seat = seat
        raise

    def refuse(code: str, **params):
        raise IllegalAction(f"topology.{code}", params, action=action, seat=seat)

    if kind == "undo":
        if not state.steps:
            refuse("nothing_to_undo")
        if state.steps[-1]["type"] == "reveal":
            refuse("undo_reveal")
        return kind, None
    if kind in CHOICES:
        if not state.advanced:
            refuse("advanced_only")
        if state.decided():
            refuse("already_chosen")
        if kind == "reveal":
            if not state.stack:
                refuse("stack_empty")
            return kind, None
        if kind == "decline":
            if state.stack:
                refuse("must_choose")
            return kind, None
        tile = action.get("tile")
        if not is_whole(tile) or tile not in state.board.tiles:
            refuse("turn_which")
        return kind, tile
    if not state.decided():
        refuse("choose_first")
    hand = state.hand()
    if kind == "end_turn":
        if hand:
            refuse("place_all", left=len(hand))
        return kind, None
    return kind, _validate_place(state, action, hand, refuse)


def _validate_place(state, action: Action, hand: list[int], refuse):
    """The parsed (tile, anchor, orientation) of a legal placement, or a refusal (code and facts)."""
    if not hand:
        refuse("all_placed")
    tile = action.get("tile")
    if not is_whole(tile) or tile not in hand:
        if is_whole(tile) and tile in state.board.tiles:
            refuse("tile_placed")
        refuse("tile_choice", tiles=list(hand))
    cells = action.get("cells")
    if not (
        isinstance(cells, list)
        and len(cells) == 2
        and all(isinstance(cell, list) and len(cell) == 2 and all(is_whole(v) for v in cell) for cell in cells)
    ):
        refuse("cells_shape")
    anchor, second = tuple(cells[0]), tuple(cells[1])
    orientation = action.get("orientation")
    if not is_whole(orientation) or not 0 <= orientation <= 5:
        refuse("orientation")
    if (second[0] - anchor[0], second[1] - anchor[1]) not in DIRECTIONS:
        refuse("not_neighbours")
    if second_cell(anchor, orientation) != second:
        refuse("second_cell", orientation=orientation, cell=list(second_cell(anchor, orientation)))
    if orientation >= 3 and symmetric()[design_of(tile)]:
        refuse("symmetric", cells=[list(second), list(anchor)], orientation=orientation - 3)
    for cell in (anchor, second):
        if cell in state.board.cells:
            refuse("covered", cell=list(cell))
    if not state.board.touches(anchor, orientation):
        refuse("not_touching")
    return tile, anchor, orientation


def parse_legal(action: Action):
    """(kind, parsed argument) of an action taken from the legal list, as `validate` gives them, unchecked."""
    kind = action["type"]
    if kind == "place":
        return kind, (action["tile"], tuple(action["cells"][0]), action["orientation"])
    if kind == "turn_over":
        return kind, action["tile"]
    return kind, None


# --- what it changes --------------------------------------------------------------------------
def change(state, seat: int, kind: str, arg) -> None:
    """Carry out a validated action (kind and parsed argument from `validate` or `parse_legal`)."""
    if kind == "place":
        tile, anchor, orientation = arg
        state.board.place(tile, anchor, orientation)
        state.steps.append({"type": "place", "tile": tile})
    elif kind == "end_turn":
        end_turn(state, seat)
    elif kind == "undo":
        step = state.steps.pop()
        if step["type"] == "place":
            state.board.remove(step["tile"])
        elif step["type"] == "turn_over":
            state.board.turn_over(step["tile"])  # a half-turn undoes itself
    elif kind == "reveal":
        tile = state.stack.pop()
        state.revealed.append(tile)
        state.steps.append({"type": "reveal", "tile": tile})
    elif kind == "turn_over":
        state.board.turn_over(arg)
        state.steps.append({"type": "turn_over", "tile": arg})
    elif kind == "decline":
        state.steps.append({"type": "decline"})


def start_turn(state) -> None:
    """Reveal the tiles of the turn that begins (rulings L5, L6)."""
    if state.advanced:
        count = ADVANCED_FIRST_REVEAL
    elif state.players > 2 and state.turn == 0:
        count = 1  # the start player places a single tile in her first turn
    else:
        count = TILES_PER_TURN[state.players]
    state.revealed = [state.stack.pop() for _ in range(min(count, len(state.stack)))]
    state.steps = []


def end_turn(state, seat: int) -> None:
    points, detail = turn_score(state)
    state.scores_[seat] += points
    state.history.append({"turn": state.turn, "seat": seat, "points": points, "rings": detail})
    state.last_turn[seat] = state.turn
    state.turn += 1
    if state.stack:
        state.current = (seat + 1) % state.players
        start_turn(state)
    else:  # the last tiles are down: the game ends (ruling L5)
        state.current = None
        state.revealed, state.steps = [], []


# --- scoring ------------------------------------------------------------------------------------
def turn_score(state) -> tuple[int, list[dict]]:
    """What the turn in progress scores (ruling L4): nothing unless a ring runs through a tile placed now.

    Only then are other rings needed: those that may lie inside the new ones (rings_around), so most
    turns walk a few lines.
    """
    placed = state.placed_now()
    if not placed:
        return 0, []
    # Remembered per table (its tiles in the order they came, which orders the rings found) and placed tiles:
    # a bot's playouts end the same turns again on every sample and for every candidate.
    key = (tuple(state.board.tiles.items()), tuple(placed))
    known = _SCORED.get(key)
    if known is None:
        new = rings_through(state.board, placed)
        known = score_rings(rings_around(state.board, new), set(placed)) if new else (0, [])
        if len(_SCORED) >= _SCORED_LIMIT:
            _SCORED.clear()
        _SCORED[key] = known
    points, detail = known
    return points, [dict(ring, inner=list(ring["inner"])) for ring in detail]  # the caller's own copy


# (table, placed tiles) -> turn_score's answer, never handed out itself.
_SCORED: dict[tuple, tuple[int, list[dict]]] = {}
_SCORED_LIMIT = 4096


# The tie-break rules, in order (Game.tie_breaks): ruling L7, the later turn ranks lower.
TIE_BREAKS = ("later_turn",)


def results(state) -> list[Result]:
    """Highest score first; among tied players, the later turn ranks lower (ruling L7).

    Seats are ordered by (score, earlier latest turn); two tied seats share a
    rank only if neither has finished a turn, which a full game never allows.
    """

    def rank_key(seat):
        last = state.last_turn[seat]
        return (-state.scores_[seat], -1 if last is None else last)

    order = sorted(range(state.players), key=rank_key)
    decided = tie_breaks_of([rank_key(seat) for seat in range(state.players)], TIE_BREAKS)
    ranked = []
    for seat in order:
        better = sum(1 for other in order if rank_key(other) < rank_key(seat))
        ranked.append(
            Result(
                seat=seat,
                rank=better + 1,
                score=float(state.scores_[seat]),
                detail={"last_turn": state.last_turn[seat]},
                tie_break=decided[seat],
            )
        )
    return sorted(ranked, key=lambda result: result.seat)
