"""Plain-words log lines for every decision, and reasons for refused actions; nothing hidden in them."""
from __future__ import annotations

from engine.core import near_miss

from .board import hex_text
from .cards import title
from .farmers import FARMERS
from .movement import name


def _hex(action, key="hex") -> str:
    h = action.get(key)
    return f"({h[0]},{h[1]})" if isinstance(h, (list, tuple)) and len(h) == 2 else "?"


def _card_title(card) -> str:
    return title(card)


def _signed(v: int) -> str:
    return f"{v:+d} medal{'s' if abs(v) != 1 else ''}"


def describe(st, seat: int, action: dict, before) -> str:
    """One line for the log, built from the action, the position before it and what happened."""
    who = name(seat)
    t = action.get("type")
    head = _head(st, seat, who, t, action, before)
    if before is not None and before.phase == "setup" and t != "undo":
        return head + "."
    events = [e for e in st.events if e]
    return head + (": " + "; ".join(events) if events else "") + "."


def _head(st, seat, who, t, action, before) -> str:
    if t == "undo":
        return f"{who} takes back her last decision"
    if before is not None and before.phase == "setup":
        from .setup import describe_setup
        return describe_setup(st, seat, action, before).rstrip(".")
    p = before.pending if before is not None else None
    if t == "end_turn":
        return f"{who} ends her turn"
    if t == "ransom":
        return f"{who} ransoms a mole from {name(action['captor'])} for 3 medals"
    if t == "place":
        return f"{who} has no mole on the battlefield and places a barracks with a mole at {_hex(action)}"
    if t == "enter":
        return f"{who} enters into combat at {_hex(action)}"
    if t == "move":
        return f"{who} moves her mole from {_hex(action, 'from')} to {_hex(action, 'to')}"
    if t == "play":
        card = _card_title(action["card"])
        if action["source"] == "hand":
            return f"{who} plays {card} from her hand"
        k = action["slot"]
        v = st.opts["line_values"][k - 1]
        return f"{who} plays {card} from Line slot {k} ({_signed(v)})"
    if t == "change_tile":
        return f"{who} changes the tile under her mole"
    if t == "take_back":
        return f"{who} takes back her barracks at {_hex(action)}"
    if t == "keep":
        return f"{who} keeps the part of the battlefield with {_hex(action)}"
    if t == "direction":
        card = _card_title(p["card"]) if p else "Panic Attack"
        return f"{who}'s {card} pushes the moles in direction {action['dir']}"
    if t == "target":
        if p and p.get("k") == "dynamite":
            return f"{who} puts the dynamite back at {_hex(action)}"
        card = p.get("card") if p else None
        label = FARMERS.get(st.farmer, "the farmer") if card == "farmer" else _card_title(card)
        if action.get("hex") is None:
            return f"{who}'s {label} moves no crate"
        if "from" in action:
            src = _hex(action, "from") if action["from"] is not None else "beside the board"
            return f"{who}'s {label} moves a tile from {src} to {_hex(action)}"
        if card == "farmer":
            return f"{who} calls {label} to {_hex(action)}"
        return f"{who} aims {label} at {_hex(action)}"
    return f"{who}: {t}"


# --- prompts and refusals, as data (issue 13; the site words them: games/presenters/topoum_words.py) ------
def prompt(st) -> dict:
    """What the seat to act is being asked: {"code": "topoum.prompt.<what>", ...}."""
    if st.phase == "over":
        return {"code": "topoum.prompt.over"}
    if st.phase == "setup":
        return {"code": f"topoum.prompt.setup_{st.step}"}
    p = st.pending
    if p is not None:
        out = {"code": f"topoum.prompt.{p['k']}"}
        if p["k"] == "card" and p.get("alt"):
            out["alt"] = True
        if p.get("card"):
            out["card"] = p["card"]
        return out
    if st.stage in ("start", "action"):
        from .turn import compulsory, placement_spaces
        if st.stage == "start" and compulsory(st, st.cur) and placement_spaces(st, st.cur):
            return {"code": "topoum.prompt.place"}
        return {"code": "topoum.prompt.act"}
    if st.stage == "moving":
        return {"code": "topoum.prompt.moving"}
    return {"code": "topoum.prompt.end_turn"}


def _where(action) -> list | None:
    for key in ("hex", "from", "to"):
        h = action.get(key)
        if isinstance(h, (list, tuple)) and len(h) == 2 and all(isinstance(v, int) for v in h):
            return list(h)
    return None


def explain_illegal(st, seat: int, action) -> tuple[str, dict]:
    """A reason the player can act on, as (code, params)."""
    if st.phase == "over":
        return "game_over", {}
    if seat != st.cur:
        return "topoum.turn_of", {"seat": st.cur}
    legal = st.legal_actions(seat)
    malformed = near_miss(action, legal)  # ruling G0.4: a wrong field or a 2.0 for a 2 is named as such
    if malformed:
        return malformed
    t = action["type"]
    if t == "undo":
        if action.keys() != {"type"}:
            return "action.fields", {"type": "undo", "fields": [], "missing": [],
                                     "extra": sorted(str(k) for k in action if k != "type")}
        if st.phase != "play" or not st.turn_log:
            return "topoum.nothing_to_undo", {}
        return "topoum.undo_blocked", {}
    types = sorted({a["type"] for a in legal})
    if t not in types:
        return "topoum.not_now", {"type": str(t)[:40], "prompt": prompt(st), "allowed": types}
    if t == "play":
        card = action.get("card")
        return "topoum.play_refused", {"card": card if isinstance(card, str) else None}  # Law of War #7
    if t == "enter":
        return "topoum.enter_refused", {"hex": _where(action)}
    if t == "move":
        return "topoum.move_refused", {}
    return "topoum.choice_refused", {"hex": _where(action), "prompt": prompt(st)}


__all__ = ["describe", "explain_illegal", "prompt", "hex_text"]
