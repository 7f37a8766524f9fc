"""Log entries (as data, decision 13), prompts and reasons for refused actions as codes; nothing hidden in them."""

from __future__ import annotations

from engine.core import near_miss

from .barracks import placement_spaces
from .board import at, ev
from .rules import legal_action_types, legal_actions_of_type
from .turn import compulsory


def _hex(action, key="hex"):
    h = action.get(key)
    return list(h) if isinstance(h, (list, tuple)) and len(h) == 2 else None


def describe(state, seat: int, action: dict, before) -> list[dict]:
    """The log entry as data (decision 13): the decision first, then what followed from it (state.events)."""
    t = action.get("type")
    head = _head(state, seat, t, action, before)
    if before is not None and before.phase == "setup" and t != "undo":
        return [head]
    return [head] + [e for e in state.events if e]


def _head(state, seat, kind, action, before) -> dict:
    if kind == "undo":
        return ev("undo", seat=seat)
    if before is not None and before.phase == "setup":
        return describe_setup(state, seat, action, before)
    p = before.pending if before is not None else None
    if kind == "end_turn":
        return ev("end_turn", seat=seat)
    if kind == "ransom":
        return ev("ransom", seat=seat, captor=action["captor"])
    if kind in ("place", "enter", "take_back", "keep"):
        return ev(kind, seat=seat, hex=_hex(action))
    if kind == "move":
        return ev("move", seat=seat, source=_hex(action, "from"), hex=_hex(action, "to"))
    if kind == "play":
        if action["source"] == "hand":
            return ev("play", seat=seat, card=action["card"], slot=None)
        k = action["slot"]
        return ev("play", seat=seat, card=action["card"], slot=k, medals=state.opts["line_values"][k - 1])
    if kind == "change_tile":
        return ev("change_tile", seat=seat)
    if kind == "direction":
        return ev("direction", seat=seat, card=p["card"] if p else "panic_attack", dir=action["dir"])
    if kind == "target":
        if p and p.get("k") == "dynamite":
            return ev("dynamite_back", seat=seat, hex=_hex(action))
        card = p.get("card") if p else None
        who = {"seat": seat, "card": card, "farmer": state.farmer if card == "farmer" else None}
        if action.get("hex") is None:
            return ev("no_crate", **who)
        if "from" in action:
            return ev("move_tile", **who, source=_hex(action, "from"), hex=_hex(action))
        if card == "farmer":
            return ev("call_farmer", **who, hex=_hex(action))
        return ev("aim", **who, hex=_hex(action))
    return {"code": "action", "seat": seat, "type": kind}


def describe_setup(state, seat: int, action: dict, before) -> dict:
    """The log entry of a setup decision, as data (decision 13)."""
    where = at(state.geo, state.geo.cell(action["hex"]))
    if action["type"] == "obstacle":
        return ev("setup_obstacle", seat=seat, kind=action["kind"], hex=where)
    if before.step == "centre":
        return ev("setup_centre", seat=seat, dynamite=state.farmer == "lady_boom", hex=where)
    if before.step == "ring":
        return ev("setup_ring", seat=seat, hex=where)
    return ev("setup_mole", seat=seat, hex=where)


# --- prompts and refusals, as data (decision 13; the site words them: boards/topoum/words.py) ------
def prompt(state) -> dict:
    """What the seat to act is being asked: {"code": "topoum.prompt.<what>", ...}."""
    if state.phase == "over":
        return {"code": "topoum.prompt.over"}
    if state.phase == "setup":
        return {"code": f"topoum.prompt.setup_{state.step}"}
    p = state.pending
    if p is not None:
        out = {"code": f"topoum.prompt.{p['k']}"}
        if p["k"] == "card" and p.get("alt"):
            out["alt"] = True
        if p.get("card"):
            out["card"] = p["card"]
        return out
    if state.stage in ("start", "action"):
        if state.stage == "start" and compulsory(state, state.cur) and placement_spaces(state, state.cur):
            return {"code": "topoum.prompt.place"}
        return {"code": "topoum.prompt.act"}
    if state.stage == "moving":
        return {"code": "topoum.prompt.moving"}
    return {"code": "topoum.prompt.end_turn"}


def _where(action) -> list | None:
    for key in ("hex", "from", "to"):
        h = action.get(key)
        if isinstance(h, (list, tuple)) and len(h) == 2 and all(isinstance(v, int) for v in h):
            return list(h)
    return None


def explain_illegal(state, seat: int, action, legal: list[dict] | None = None) -> tuple[str, dict]:
    """A reason the player can act on, as (code, params). `legal`: the seat's whole legal list when it is
    made already; without it only the actions of the type sent and the types allowed are found, which
    is all a reason needs (a bot tries end_turn after nearly every decision it weighs)."""
    if state.phase == "over":
        return "game_over", {}
    if seat != state.cur:
        return "topoum.turn_of", {"seat": state.cur}
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "action.not_object", {}
    t = action["type"]
    same = legal if legal is not None else legal_actions_of_type(state, t)
    malformed = near_miss(action, same)  # ruling G0.4: a wrong field or a 2.0 for a 2 is named as such
    if malformed:
        return malformed
    if t == "undo":
        if action.keys() != {"type"}:
            return "action.fields", {
                "type": "undo",
                "fields": [],
                "missing": [],
                "extra": sorted(str(k) for k in action if k != "type"),
            }
        if state.phase != "play" or not state.turn_log:
            return "topoum.nothing_to_undo", {}
        return "topoum.undo_blocked", {}
    types = sorted({a["type"] for a in legal} if legal is not None else legal_action_types(state))
    if t not in types:
        return "topoum.not_now", {"type": str(t)[:40], "prompt": prompt(state), "allowed": types}
    if t == "play":
        card = action.get("card")
        return "topoum.play_refused", {"card": card if isinstance(card, str) else None}  # Law of War #7
    if t == "enter":
        return "topoum.enter_refused", {"hex": _where(action)}
    if t == "move":
        source = action.get("from")
        cell = state.geo.cell(source) if _where({"from": source}) else -1
        if cell >= 0 and state.mole[cell] == seat and state.tile[cell] >= 0 and not state.bf[cell]:
            return "topoum.move_from_outpost", {"hex": list(source)}  # rulings T12, T21: not on the battlefield
        return "topoum.move_refused", {}
    return "topoum.choice_refused", {"hex": _where(action), "prompt": prompt(state)}
