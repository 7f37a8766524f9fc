"""What each seat may see (ruling G0.3).  States rebuilt from a view, and the planted secrets, are in hidden.py."""

from __future__ import annotations

from . import board as B
from .board import COLOURS, CRATE, DEADLY, FRESH, MOVABLE, STANDALONE
from .cards import category
from .events import prompt
from .movement import COLLIDE, DIE, LOST_MOLE_PENALTY, OWN_COLLISION_PENALTY, trace
from .scoring import new_lines


def _convert_pending(pending, convert):
    """The pending decision with its spaces converted by `convert` (cell index <-> [q, r])."""
    if pending is None:
        return None
    out = dict(pending)
    if "m" in pending:
        out["m"] = convert(pending["m"])
    if "parts" in pending:
        out["parts"] = [[convert(space) for space in part] for part in pending["parts"]]
    if "then" in pending:
        then = dict(pending["then"])
        for field in ("cell", "m"):
            if field in then:
                then[field] = convert(then[field])
        out["then"] = then
    return out


def _public_pending(geo, pending):
    return _convert_pending(pending, geo.hex)


def private_pending(geo, pending):
    """The pending decision with its spaces as cell indexes (a state's own form), from a view's [q, r]."""
    return _convert_pending(pending, geo.cell)


def board_cells(state, seat) -> list[dict]:
    """The occupied or tiled spaces; crate values only for those who looked (or at the end)."""
    geo = state.geo
    over = state.phase == "over"
    out = []
    for cell_index in range(geo.size):
        tile = state.tile[cell_index]
        if tile < 0 and state.rc != cell_index:
            continue
        cell = {"hex": geo.hex(cell_index)}
        if tile >= 0:
            if tile == STANDALONE:
                cell["tile"], cell["colour"] = "standalone", None
            else:
                cell["tile"] = "barracks" if tile >= B.BARRACKS else "neutral"
                cell["colour"] = tile & 3
            cell["outpost"] = not state.bf[cell_index]
        feature = state.feat[cell_index]
        if feature >= CRATE:
            crate = feature - CRATE
            cell["feature"] = "crate"
            cell["crate"] = crate
            cell["seen_by"] = [s for s in range(state.n) if crate in state.crate_known[s]]
            if over or (seat is not None and crate in state.crate_known[seat]):
                cell["value"] = state.crate_values[crate]
        elif feature:
            cell["feature"] = B.FEATURE_NAMES[feature]
            if feature in DEADLY:
                cell["deadly"] = True  # rulings T12, T16, T17: a mole entering is eliminated
        owner = state.mole[cell_index]
        if owner >= 0:
            cell["mole"] = owner
            if state.mflag[cell_index] & MOVABLE:
                cell["movable"] = True
            if state.mflag[cell_index] & FRESH:
                cell["fresh"] = True
        if state.rc == cell_index:
            cell["red_cross"] = True
        out.append(cell)
    return out


def move_outcomes(state, seat: int) -> list[dict]:
    """What each of the seat's legal moves does to the moving mole (ruling T12), as the engine plays it."""
    geo = state.geo
    out = []
    for action in state.legal_actions(seat):
        if action["type"] != "move":
            continue
        source = geo.cell(action["from"])
        direction = B.DIRECTIONS_INDEX[(action["to"][0] - action["from"][0], action["to"][1] - action["from"][1])]
        entered = geo.nb[source][direction]
        outcome, where = trace(state, entered, direction, seat)
        entry = {"from": action["from"], "to": action["to"], "at": geo.hex(where) if where >= 0 else None, "penalty": 0}
        if outcome == DIE:
            feature = state.feat[where] if where >= 0 and state.tile[where] >= 0 else B.NONE
            entry.update(outcome="lost", feature=B.FEATURE_NAMES.get(feature), penalty=LOST_MOLE_PENALTY)
        elif outcome == COLLIDE:
            own = state.mole[where] == seat
            entry.update(outcome="collide_own" if own else "collide_rival", penalty=OWN_COLLISION_PENALTY if own else 0)
        else:
            entry["outcome"] = "land" if where == entered else "slide"
        out.append(entry)
    return out


def _decision(state) -> dict | None:
    """Who decides and what she is asked (engine.topoum.events.prompt)."""
    return {"seat": state.cur, "prompt": prompt(state)} if state.phase != "over" else None


def _own_prompt(state, seat: int, decision: dict | None) -> str | None:
    """To herself, the prompt narrowed to what she can do (decision 26: it matches what her page highlights), or None.

    stuck: none of her moles can act, ending the turn is all that is left; act_enter / act_move: entering into
    combat, or moving a mole, is her only kind of action; moves_done: she has moved, none of her other moles can.
    """
    if decision is None or seat != state.cur:
        return None
    code = decision["prompt"]["code"]
    if code not in ("topoum.prompt.act", "topoum.prompt.moving"):
        return None
    kinds = {action["type"] for action in state.legal_actions(seat)} - {"undo", "ransom"}
    if code == "topoum.prompt.moving":
        return None if "move" in kinds else "topoum.prompt.moves_done"
    if kinds <= {"end_turn"}:
        return "topoum.prompt.stuck"
    if "move" not in kinds:
        return "topoum.prompt.act_enter"
    if "enter" not in kinds:
        return "topoum.prompt.act_move"
    return None


def public_part(state, me) -> dict:
    """Everything on the table that every seat sees (the board, medals, reserves, Line, pile tops...)."""
    geo = state.geo
    seen = {
        "game": "topoum",
        "players": state.n,
        "colours": list(COLOURS[: state.n]),
        "options": {name: state.opts[name] for name in ("radius", "types", "line_values", "obstacles", "farmer")},
        "card_categories": {card: category(card) for card in state.opts["types"]},
        "marks": {"x_spaces": [geo.hex(cell) for cell in geo.x_spaces], "zones": [geo.hex(cell) for cell in geo.zones]},
        "farmer": state.farmer,
        "phase": state.phase,
        "step": state.step,
        "order": list(state.order),
        "start": state.start,
        "current": state.cur if state.phase != "over" else None,
        "to_act": state.to_act(),
        "board": board_cells(state, me),
        "red_cross": geo.hex(state.rc) if state.rc >= 0 else None,
        "medals": list(state.medals),
        "reserve": {"moles": list(state.moles_left), "tiles": list(state.tiles_left)},
        "prisoners": [row[:] for row in state.prisoners],
        "press": state.press if state.press >= 0 else None,
        "farmer_tiles_beside": state.pool,
        "obstacle_tiles_left": {"puddle_rock": state.obst_left[0], "ice_gas": state.obst_left[1]},
        "crates_total": len(state.crate_values),
        "dynamite_pending": state.dyn_pending,
        "deck_size": len(state.deck),
        "line": list(state.line),
        "trash": list(state.trash),
        "hand_sizes": [len(cards) for cards in state.hands],
        "piles": [{"size": len(pile), "top": pile[-1] if pile else None} for pile in state.piles],
        "peace": state.peace,
        "last_seat": (state.start - 1) % state.n,
        "turns": state.turns,
        "turn": {
            "stage": state.stage,
            "pending": _public_pending(geo, state.pending),
            "hand_used": state.hand_used,
            "line_used": [slot + 1 for slot in state.line_used],
            "start_lines": [[geo.hex(a), geo.hex(b)] for a, b in sorted(state.start_lines)],
            "log": [dict(action) for action in state.turn_log],
            "undo_floor": state.undo_floor,
        },
        "decision": _decision(state),
    }
    if state.phase == "play":
        seen["new_lines"] = [
            {"from": geo.hex(a), "to": geo.hex(b), "medals": medals} for a, b, medals in new_lines(state, state.cur)
        ]
    return seen


def view(state, seat) -> dict:
    """Everything `seat` (None: a spectator) may see, plus what the page needs for the current decision.

    Her legal actions and whether she may take back travel beside the view (the table's detail), not in it.
    """
    me = seat if isinstance(seat, int) and 0 <= seat < state.n else None
    if state.unconfirmed_seat() not in (None, me) and state.snap is not None:
        # Ruling S3 (amended): her turn is hers until she confirms it; the others see it as it began
        # (turn_start too, as they saw it before her first decision).
        seen = view(state.snap, seat)
        seen["turn_start"] = public_part(state.snap, me)
        return seen
    seen = public_part(state, me)
    seen["seat"] = me
    if me is not None:
        seen["hand"] = list(state.hands[me])
        seen["pile"] = list(state.piles[me])
        seen["crates_known"] = {str(crate): state.crate_values[crate] for crate in state.crate_known[me]}
        if state.phase == "play" and me == state.cur:
            seen["move_outcomes"] = move_outcomes(state, me)
        narrowed = _own_prompt(state, me, seen["decision"])
        if narrowed:
            seen["decision"]["prompt"] = {"code": narrowed}
    # The table as it was when this turn began (public): lets a bot's sampled state take back too.
    seen["turn_start"] = public_part(state.snap, me) if state.snap is not None and state.phase == "play" else None
    if state.phase == "over":
        seen["final"] = state.final
        seen["crate_values"] = list(state.crate_values)
        seen["results"] = [r.to_json() for r in state.results()]
    return seen
