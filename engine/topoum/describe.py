"""Plain-words log lines for every decision, and reasons for refused actions; nothing hidden in them."""
from __future__ import annotations

from engine.core import near_miss

from .board import COLOURS, hex_text
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


# --- refusals --------------------------------------------------------------------------
PROMPTS = {
    "card": "play a card on the active mole",
    "target": "choose the target of the card",
    "direction": "choose a direction for Panic Attack",
    "keep": "choose which part of the battlefield stays",
    "dynamite": "put the dynamite back next to the battlefield",
    "take_back": "choose one of your barracks to take back to your reserve",
}


def prompt(st) -> str:
    """What the seat to act is being asked, in words."""
    if st.phase == "over":
        return "The game is over."
    if st.phase == "setup":
        return {
            "centre": "Lay the centre tile of the battlefield.",
            "ring": "Place a barracks next to the centre tile.",
            "mole": "Place a barracks with a mole next to the battlefield.",
            "obstacle": "Place an obstacle tile next to a barracks.",
            "outpost": "Place an obstacle tile on a free X space.",
        }[st.step]
    p = st.pending
    if p is not None:
        text = PROMPTS[p["k"]]
        if p["k"] == "card" and p.get("alt"):
            text += ", or change the tile under it"
        if p.get("card"):
            text += f" ({title(p['card'])})"
        return text[0].upper() + text[1:] + "."
    if st.stage in ("start", "action"):
        from .turn import compulsory, placement_spaces
        if st.stage == "start" and compulsory(st, st.cur) and placement_spaces(st, st.cur):
            return "You have no mole on the battlefield: place a barracks with a mole next to it."
        return "Enter into combat or move one of your moles."
    if st.stage == "moving":
        return "Move another mole, or end your turn."
    return "End your turn."


def explain_illegal(st, seat: int, action) -> str:
    """A reason the player can act on."""
    if st.phase == "over":
        return "The game is over."
    if seat != st.cur:
        return f"It is {COLOURS[st.cur].capitalize()}'s turn to decide."
    legal = st.legal_actions(seat)
    malformed = near_miss(action, legal)  # ruling G0.4: a wrong field or a 2.0 for a 2 is named as such
    if malformed:
        return malformed
    t = action["type"]
    if t == "undo":
        if action.keys() != {"type"}:
            return 'An "undo" action has no other field than "type".'
        if st.phase != "play" or not st.turn_log:
            return "There is nothing to take back this turn."
        return "You cannot take that back: something hidden was revealed since (a crate was looked at)."
    types = sorted({a["type"] for a in legal})
    if t not in types:
        return f"You cannot do '{t}' now. {prompt(st)} Allowed now: {', '.join(types)}."
    where = ""
    for key in ("hex", "from", "to"):
        h = action.get(key)
        if isinstance(h, (list, tuple)):
            where = f" at {_hex(action, key)}"
            break
    if t == "play":
        return (f"You cannot play {title(action.get('card'))} that way now: the card must be in your hand or in "
                "the named Line slot, and its effect must be possible on the active mole (Law of War #7).")
    if t == "enter":
        return (f"You cannot enter into combat{where}: choose an empty space next to the battlefield where a card "
                "can then be played on the new mole (Law of War #7).")
    if t == "move":
        return ("That move is not allowed: move one of your moles that has not moved yet this turn to an adjacent "
                "space, not onto a rock or a protected mole, and where you can then play a card or change the tile.")
    return f"That choice{where} is not allowed now. {prompt(st)}"


__all__ = ["describe", "explain_illegal", "prompt", "hex_text"]
