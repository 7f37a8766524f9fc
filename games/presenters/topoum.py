"""Topoum at the table: the hex battlefield as inline SVG, cards, reserves and the current decision.

Built only from the seat's view and legal actions (ruling G0.3).  Every legal action becomes a
"click path" of one or two keys: a hex ("q,r"), a card ("hand:<name>", "line:<slot>") or a
button ("dir:<d>", "beside", "none", "change_tile").  The page highlights exactly the first keys
of the paths; a key that starts two-step paths (a mole to move, a farmer tile to take) selects it
and highlights the second keys.  The script (static/js/topoum.js) only follows these paths and
posts the action they end in; the server stays the authority.
"""
from __future__ import annotations

import json
import math

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.hexgrid import DIRECTIONS, hexagon, to_pixel

SIZE = 26.0  # hex circumradius in SVG units
APOTHEM = SIZE * math.sqrt(3) / 2
MIN_SCALE = 0.85  # px per SVG unit at least: a space stays about 38 px wide, tappable on a phone

# Colours of the four armies (the view's "colours" names them by seat; tiles carry a colour index).
COLOUR_NAMES = ("red", "blue", "yellow", "black")
COLOUR_LABELS = {"red": gettext_noop("Red"), "blue": gettext_noop("Blue"), "yellow": gettext_noop("Yellow"),
                 "black": gettext_noop("Black")}

CARD_TITLES = {
    "bayonet": gettext_noop("Bayonet"),
    "short_range": gettext_noop("Short Range"),
    "long_range": gettext_noop("Long Range"),
    "grenade": gettext_noop("Grenade"),
    "mortar_attack": gettext_noop("Mortar Attack"),
    "slingshot": gettext_noop("Slingshot"),
    "advance": gettext_noop("Advance"),
    "underground_maneuver": gettext_noop("Underground Maneuver"),
    "motorbike_patrol": gettext_noop("Motorbike Patrol"),
    "panic_attack": gettext_noop("Panic Attack"),
    "tunnel": gettext_noop("Tunnel"),
    "decoy": gettext_noop("Decoy"),
    "build_barracks": gettext_noop("Build Barracks"),
    "abandoned_barracks": gettext_noop("Abandoned Barracks"),
    "conquest": gettext_noop("Conquest"),
    "betrayal": gettext_noop("Betrayal"),
    "new_soldier": gettext_noop("New Soldier"),
    "prisoner_of_war": gettext_noop("Prisoner of War"),
    "medal_of_honor": gettext_noop("Medal of Honor"),
    "press_support": gettext_noop("Press Support"),
    "red_cross": gettext_noop("Red Cross"),
    "farmer": gettext_noop("Farmer is coming!"),
    "peace": gettext_noop("Peace"),
}
# The card categories (ruling T6) and a one-line reminder of each effect (ruling T14).
CARD_CATEGORY = {
    "bayonet": "combat", "short_range": "combat", "long_range": "combat", "grenade": "combat",
    "mortar_attack": "combat", "slingshot": "combat", "advance": "movement", "underground_maneuver": "movement",
    "motorbike_patrol": "movement", "panic_attack": "movement", "tunnel": "movement", "decoy": "movement",
    "build_barracks": "expansion", "abandoned_barracks": "expansion", "conquest": "expansion",
    "betrayal": "expansion", "new_soldier": "expansion", "prisoner_of_war": "special",
    "medal_of_honor": "special", "press_support": "special", "red_cross": "special", "farmer": "special",
}
CATEGORY_LABELS = {"combat": gettext_noop("Combat"), "movement": gettext_noop("Movement"),
                   "expansion": gettext_noop("Expansion"), "special": gettext_noop("Special")}
CARD_EFFECTS = {
    "bayonet": gettext_noop("Move onto an adjacent rival mole, which is eliminated."),
    "short_range": gettext_noop("Eliminate an adjacent rival mole."),
    "long_range": gettext_noop("Eliminate a rival mole 2 or 3 spaces away in a straight line."),
    "grenade": gettext_noop("Remove an adjacent square with everything on it."),
    "mortar_attack": gettext_noop("Remove the square exactly 2 spaces away."),
    "slingshot": gettext_noop("Eliminate a rival mole exactly 2 spaces away."),
    "advance": gettext_noop("Move the mole to an adjacent square."),
    "underground_maneuver": gettext_noop("Move the mole to the square exactly 2 spaces away."),
    "motorbike_patrol": gettext_noop("Move the mole 2 squares in a straight line, running over a rival."),
    "panic_attack": gettext_noop("Push every mole on a ray one space further."),
    "tunnel": gettext_noop("From one of your barracks to another free one."),
    "decoy": gettext_noop("Swap with a rival mole on an adjacent barracks."),
    "build_barracks": gettext_noop("Place a barracks next to the battlefield."),
    "abandoned_barracks": gettext_noop("Place a barracks next to the mole and move onto it."),
    "conquest": gettext_noop("Replace an adjacent free rival barracks or neutral tile by your barracks."),
    "betrayal": gettext_noop("Replace an adjacent rival mole by one of your reserve moles."),
    "new_soldier": gettext_noop("Put a reserve mole exactly 2 spaces away in a straight line."),
    "prisoner_of_war": gettext_noop("Capture an adjacent rival mole."),
    "medal_of_honor": gettext_noop("Return another of your moles to the reserve: +3 medals."),
    "press_support": gettext_noop("Take the Press: +1 medal at the end of every turn."),
    "red_cross": gettext_noop("Move the Red Cross onto the mole's square."),
    "farmer": gettext_noop("The farmer uses his tile."),
}
FARMER_TITLES = {
    "kings_of_buckets": gettext_noop("Kings of Buckets"),
    "the_crusher": gettext_noop("The Crusher"),
    "the_sprayer": gettext_noop("The Sprayer"),
    "queen_of_nature": gettext_noop("The Queen of Nature"),
    "lady_boom": gettext_noop("Lady Boom"),
    "trap_master": gettext_noop("Trap Master"),
    "the_stomper": gettext_noop("The Stomper"),
    "lord_of_the_crates": gettext_noop("Lord of the Crates"),
}
FEATURE_LABELS = {
    "rock": gettext_noop("rock"), "puddle": gettext_noop("puddle"), "gas": gettext_noop("gas"),
    "ice": gettext_noop("ice"), "turnip": gettext_noop("turnip"), "trap": gettext_noop("trap"),
    "footprint": gettext_noop("footprint"), "dynamite": gettext_noop("dynamite"), "crate": gettext_noop("crate"),
}
OBSTACLE_LABELS = {"rock": gettext_noop("A rock here"), "puddle": gettext_noop("A puddle here"),
                   "gas": gettext_noop("Gas here"), "ice": gettext_noop("Ice here")}
DEADLY = frozenset({"puddle", "gas", "trap", "footprint", "dynamite"})  # ruling T12: a mole entering is lost
ARROWS = ("→", "↗", "↖", "←", "↙", "↘")  # direction d points at screen angle 60·d° counter-clockwise from east


def _fmt(v: float) -> str:
    text = f"{v:.1f}"
    return "0" if text in ("-0.0", "0.0") else text.removesuffix(".0")


def key(h) -> str:
    return f"{h[0]},{h[1]}"


def centre(h) -> tuple[float, float]:
    return to_pixel((h[0], h[1]), SIZE)


def hex_points(h, scale: float = 1.0) -> str:
    cx, cy = centre(h)
    r = SIZE * scale
    return " ".join(f"{_fmt(cx + r * math.cos(math.radians(60 * k - 30)))},"
                    f"{_fmt(cy + r * math.sin(math.radians(60 * k - 30)))}" for k in range(6))


def card_title(card) -> str:
    if card in CARD_TITLES:
        return _(CARD_TITLES[card])
    return str(card).replace("_", " ")


def card_info(card, **extra) -> dict:
    """A card as the templates draw it: name, category and a reminder of its effect."""
    cat = CARD_CATEGORY.get(card)
    return {"card": card, "title": card_title(card), "category": cat,
            "category_label": _(CATEGORY_LABELS[cat]) if cat else "",
            "effect": _(CARD_EFFECTS[card]) if card in CARD_EFFECTS else "", **extra}


def colour_label(colour: str) -> str:
    return _(COLOUR_LABELS.get(colour, colour))


def _marked_spaces(radius: int) -> tuple[set, set]:
    """X spaces at distance 4 on the six axes and the four farmer zones (ruling T2)."""
    x_spaces = {(4 * dq, 4 * dr) for dq, dr in DIRECTIONS} if radius >= 4 else set()
    zones = {(3, 0), (-3, 0), (0, 3), (0, -3)} if radius >= 3 else set()
    return x_spaces, zones


# --- the decision: every legal action as a click path ---------------------------------------------
def _prompt(view: dict, legal: list[dict], my_turn: bool) -> str:
    """What the seat to act is asked, in words (mirrors engine.topoum.describe.prompt, translatable)."""
    if view.get("phase") == "over":
        return _("The war is over.")
    if view.get("phase") == "setup":
        return {
            "centre": _("Lay the centre tile of the battlefield."),
            "ring": _("Place a barracks next to the centre tile."),
            "mole": _("Place a barracks with a mole next to the battlefield."),
            "obstacle": _("Place an obstacle tile next to a barracks."),
            "outpost": _("Place an obstacle tile on a free X space."),
        }.get(view.get("step"), "")
    turn = view.get("turn") or {}
    p = turn.get("pending")
    if p:
        card = card_title(p["card"]) if p.get("card") else None
        k = p["k"]
        if k == "card":
            return (_("Play a card on the active mole, or change the tile under it.") if p.get("alt")
                    else _("Play a card on the active mole."))
        if k == "target":
            return _("Choose the target of %(card)s.") % {"card": card}
        if k == "direction":
            return _("Choose a direction for %(card)s.") % {"card": card}
        if k == "keep":
            return _("The battlefield fell apart: choose which part stays.")
        if k == "dynamite":
            return _("Put the dynamite back next to the battlefield.")
        if k == "take_back":
            return _("Choose one of your barracks to take back to your reserve.")
    stage = turn.get("stage")
    if stage in ("start", "action"):
        if stage == "start" and any(a["type"] == "place" for a in legal):
            return _("You have no mole on the battlefield: place a barracks with a mole next to it.")
        if my_turn and legal and all(a["type"] in ("end_turn", "undo", "ransom") for a in legal):
            return _("None of your moles can act this turn: end your turn.")
        return _("Enter into combat or move one of your moles.")
    if stage == "moving":
        return _("Move another mole, or end your turn.")
    return _("End your turn.")


def _cell_index(view: dict) -> dict:
    return {key(c["hex"]): c for c in view.get("board") or []}


def _move_label(cells: dict, action: dict, me: int, radius: int) -> str:
    """Where a moving mole lands, with a warning when the move costs it (ruling T12)."""
    to = action["to"]
    target = cells.get(key(to))
    off = max(abs(to[0]), abs(to[1]), abs(to[0] + to[1])) > radius
    if off or target is None or not target.get("tile"):
        return _("Move there: no square, the mole is eliminated (−5 medals)")
    feature = target.get("feature")
    if feature in DEADLY:
        return _("Move onto the %(thing)s: the mole is eliminated (−5 medals)") % {
            "thing": _(FEATURE_LABELS[feature])}
    if "mole" in target:
        if target["mole"] == me:
            return _("Move onto your own mole: both are eliminated (−10 medals)")
        return _("Attack the rival mole there: both are eliminated")
    if feature == "ice":
        return _("Move onto the ice: the mole slides on")
    return _("Move the mole there")


def _target_label(pending: dict | None, action: dict) -> str:
    card = (pending or {}).get("card")
    if (pending or {}).get("k") == "dynamite":
        return _("Put the dynamite back here")
    if action.get("hex") is None:
        return _("Move no crate")
    if "from" in action:
        return _("Move the farmer's tile here")
    if card == "farmer":
        return _("Call the farmer here")
    return _("Aim %(card)s here") % {"card": card_title(card)}


def click_paths(view: dict, legal: list[dict], me: int | None) -> list[dict]:
    """Each legal action with the keys a player clicks to choose it and the words of the choice."""
    out = []
    if me is None:
        return out
    cells = _cell_index(view)
    radius = (view.get("options") or {}).get("radius", 6)
    pending = (view.get("turn") or {}).get("pending")
    setup_step = view.get("step") if view.get("phase") == "setup" else None
    line_values = (view.get("options") or {}).get("line_values") or [0] * 5
    for a in legal:
        t = a.get("type")
        path, label = None, None
        if t == "place":
            path = [key(a["hex"])]
            label = {"centre": _("Lay the centre tile here"), "ring": _("Place a barracks here")}.get(
                setup_step, _("Place a barracks with a mole here"))
        elif t == "obstacle":
            path = [key(a["hex"])]
            label = _(OBSTACLE_LABELS.get(a["kind"], a["kind"]))
        elif t == "enter":
            path, label = [key(a["hex"])], _("Enter into combat here with a new barracks and mole")
        elif t == "move":
            path, label = [key(a["from"]), key(a["to"])], _move_label(cells, a, me, radius)
        elif t == "play":
            if a["source"] == "hand":
                path = [f"hand:{a['card']}"]
                label = _("Play %(card)s from your hand") % {"card": card_title(a["card"])}
            else:
                slot = a["slot"]
                value = line_values[slot - 1] if 0 < slot <= len(line_values) else 0
                path = [f"line:{slot}"]
                label = _("Play %(card)s from Line slot %(slot)s (%(medals)+d medals)") % {
                    "card": card_title(a["card"]), "slot": slot, "medals": value}
        elif t == "change_tile":
            path, label = ["change_tile"], _("Change the tile under the mole")
        elif t == "target":
            label = _target_label(pending, a)
            if a.get("hex") is None:
                path = ["none"]
            elif "from" in a:
                path = ["beside" if a["from"] is None else key(a["from"]), key(a["hex"])]
            else:
                path = [key(a["hex"])]
        elif t == "direction":
            path = [f"dir:{a['dir']}"]
            label = _("Push the moles %(arrow)s") % {"arrow": ARROWS[a["dir"] % 6]}
        elif t == "keep":
            path, label = [key(a["hex"])], _("Keep the part of the battlefield with this square")
        elif t == "take_back":
            path, label = [key(a["hex"])], _("Take this barracks back to your reserve")
        if path:
            where = " → ".join(f"({k})" for k in path if "," in k)
            out.append({"path": path, "label": label, "where": where, "action": a,
                        "json": json.dumps(a)})
    return out


# --- the battlefield ----------------------------------------------------------------------------------
def _space(h, kind: str, **extra) -> dict:
    cx, cy = centre(h)
    return {"key": key(h), "q": h[0], "r": h[1], "x": _fmt(cx), "y": _fmt(cy), "points": hex_points(h),
            "inner": hex_points(h, 0.78), "kind": kind, **extra}


def battlefield(view: dict, paths: list[dict]) -> dict:
    """Spaces, tiles, pieces, highlights and lines of sight, in SVG units."""
    radius = (view.get("options") or {}).get("radius", 6)
    colours = view.get("colours") or []
    x_spaces, zones = _marked_spaces(radius)
    spaces = []
    for h in hexagon(radius):
        mark = "x" if h in x_spaces else ("zone" if h in zones else "")
        spaces.append(_space(h, "space", mark=mark))
    tiles = []
    for cell in view.get("board") or []:
        h = cell["hex"]
        colour = COLOUR_NAMES[cell["colour"]] if isinstance(cell.get("colour"), int) else None
        entry = _space(h, cell.get("tile") or "bare", colour=colour, outpost=bool(cell.get("outpost")),
                       feature=cell.get("feature"), red_cross=bool(cell.get("red_cross")))
        if cell.get("feature") == "crate":
            entry["crate_value"] = cell.get("value")  # only present when this seat has looked (ruling T8)
        if "mole" in cell:
            entry["mole"] = colours[cell["mole"]] if cell["mole"] < len(colours) else COLOUR_NAMES[cell["mole"] % 4]
            entry["mole_seat"] = cell["mole"]
            entry["movable"] = bool(cell.get("movable"))
        label = [_("space %(q)s,%(r)s") % {"q": h[0], "r": h[1]}]
        if cell.get("tile") in ("barracks", "neutral") and colour:
            label.append((_("%(colour)s barracks") if cell["tile"] == "barracks" else _("%(colour)s neutral tile"))
                         % {"colour": colour_label(colour)})
        if cell.get("feature"):
            label.append(_(FEATURE_LABELS.get(cell["feature"], cell["feature"])))
        if "mole" in entry:
            label.append(_("%(colour)s mole") % {"colour": colour_label(entry["mole"])})
            if cell["mole"] == view.get("seat"):
                label.append(_("yours"))  # for a screen reader, which sees no colours (issue 13)
        if cell.get("red_cross"):
            label.append(_("Red Cross"))
        entry["label"] = ", ".join(label)
        tiles.append(entry)
    # Clickable spaces: every hex key on some click path (off the board too: a move may leave it).
    on_board = {s["key"] for s in spaces}
    tile_labels = {t["key"]: t["label"] for t in tiles}
    hot, firsts = {}, {p["path"][0] for p in paths}
    for p in paths:
        for k in p["path"]:
            if "," in k and k not in hot:
                q, r = (int(v) for v in k.split(","))
                # Its name for a screen reader and a keyboard player (issue 13): what lies there.
                hot[k] = _space((q, r), "hot", first=k in firsts, off=k not in on_board,
                                label=tile_labels.get(k) or _("space %(q)s,%(r)s") % {"q": q, "r": r})
    pending = (view.get("turn") or {}).get("pending") or {}
    active = _space(pending["m"], "active") if pending.get("m") else None
    parts = []
    if pending.get("k") == "keep":
        for i, part in enumerate(pending.get("parts") or []):
            parts += [dict(_space(h, "part"), part=i % 4) for h in part]
    lines = []
    for ln in view.get("new_lines") or []:
        (x1, y1), (x2, y2) = centre(ln["from"]), centre(ln["to"])
        lines.append({"x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2), "y2": _fmt(y2),
                      "mx": _fmt((x1 + x2) / 2), "my": _fmt((y1 + y2) / 2), "medals": ln["medals"]})
    arrows = []
    if active and pending.get("k") == "direction":
        ax, ay = centre(pending["m"])
        for d in range(6):
            k = f"dir:{d}"
            if not any(p["path"][0] == k for p in paths):
                continue
            angle = math.radians(-60 * d)
            tx, ty = ax + 1.25 * SIZE * math.cos(angle), ay + 1.25 * SIZE * math.sin(angle)
            arrows.append({"key": k, "x": _fmt(tx), "y": _fmt(ty), "rotate": _fmt(-60 * d)})
    extent = (radius + 1) * SIZE * math.sqrt(3) + APOTHEM
    height = (radius + 1) * 1.5 * SIZE + SIZE
    view_box = f"{_fmt(-extent)} {_fmt(-height)} {_fmt(2 * extent)} {_fmt(2 * height)}"
    return {"spaces": spaces, "tiles": tiles, "hot": list(hot.values()), "active": active, "parts": parts,
            "lines": lines, "arrows": arrows, "view_box": view_box, "min_width": round(2 * extent * MIN_SCALE),
            "size": _fmt(SIZE), "half": _fmt(SIZE / 2)}


# --- the rest of the table ---------------------------------------------------------------------------
def players(view: dict, names: list[str], me: int | None) -> list[dict]:
    n = view.get("players", 0)
    colours = view.get("colours") or []
    medals = view.get("medals") or [0] * n
    reserve = view.get("reserve") or {}
    moles, tiles = reserve.get("moles") or [0] * n, reserve.get("tiles") or [0] * 4
    prisoners = view.get("prisoners") or [[0] * n for _ in range(n)]
    piles = view.get("piles") or [{"size": 0, "top": None}] * n
    hand_sizes = view.get("hand_sizes") or [0] * n
    results = {r["seat"]: r for r in view.get("results") or []}
    final = view.get("final") or []
    out = []
    for s in range(n):
        colour = colours[s] if s < len(colours) else COLOUR_NAMES[s % 4]
        held = [{"colour": colours[o], "colour_label": colour_label(colours[o]), "count": prisoners[s][o]}
                for o in range(n) if o != s and prisoners[s][o]]
        top = piles[s].get("top")
        out.append({
            "seat": s, "name": names[s] if s < len(names) else str(s + 1), "colour": colour,
            "colour_label": colour_label(colour), "me": s == me, "current": s == view.get("current"),
            "medals": medals[s], "moles": moles[s], "barracks": tiles[COLOUR_NAMES.index(colour)]
            if colour in COLOUR_NAMES else 0,
            "prisoners": held, "hand_size": hand_sizes[s], "pile_size": piles[s].get("size", 0),
            "pile_top": card_info(top) if top else None, "press": view.get("press") == s,
            "rank": results[s]["rank"] if s in results else None,
            "final": final[s] if s < len(final) and final[s] else None,
        })
    return out


def line_of_operations(view: dict, paths: list[dict]) -> list[dict]:
    values = (view.get("options") or {}).get("line_values") or [0] * 5
    playable = {p["path"][0] for p in paths}
    out = []
    for k, card in enumerate(view.get("line") or [None] * 5, start=1):
        value = values[k - 1] if k - 1 < len(values) else 0
        entry = {"slot": k, "value": value, "key": f"line:{k}", "playable": f"line:{k}" in playable}
        entry.update(card_info(card) if card else {"card": None})
        out.append(entry)
    return out


def hand(view: dict, paths: list[dict]) -> list[dict]:
    playable = {p["path"][0] for p in paths}
    return [card_info(c, key=f"hand:{c}", playable=f"hand:{c}" in playable) for c in view.get("hand") or []]


def present(detail: dict, names: list[str]) -> dict:
    """Everything the Topoum board template and script need, from the seat's view only."""
    view = detail.get("view") or {}
    me = detail.get("my_seat")
    legal = detail.get("legal_actions") or []
    current = view.get("current")
    my_turn = me is not None and current == me and bool(legal)
    paths = click_paths(view, legal, me) if my_turn else []
    buttons = {t: json.dumps({"type": t}) for t in ("end_turn", "undo") if any(a["type"] == t for a in legal)}
    if "undo" in buttons and not detail.get("undoable"):
        del buttons["undo"]
    ransoms = [{"json": json.dumps(a), "name": names[a["captor"]] if a["captor"] < len(names) else a["captor"]}
               for a in legal if a.get("type") == "ransom"]
    pending = (view.get("turn") or {}).get("pending") or {}
    firsts = {p["path"][0] for p in paths}
    direction_buttons = [{"key": f"dir:{d}", "arrow": ARROWS[d], "dir": d}  # drawn turned by .tm-arrow.dir-d
                         for d in range(6) if f"dir:{d}" in firsts]
    seats = players(view, names, me)
    farmer = view.get("farmer")
    new_lines = view.get("new_lines") or []
    colours = view.get("colours") or []
    return {
        "view": view,
        "me": me,
        "my_colour": colours[me] if me is not None and me < len(colours) else None,
        "my_turn": my_turn,
        "over": view.get("phase") == "over",
        "setup": view.get("phase") == "setup",
        "prompt": _prompt(view, legal, my_turn),
        "current_name": names[current] if isinstance(current, int) and current < len(names) else None,
        "current_colour": colours[current] if isinstance(current, int) and current < len(colours) else None,
        "board": battlefield(view, paths),
        "paths": paths,
        "has_paths": bool(paths),
        "buttons": buttons,
        "ransoms": ransoms,
        "direction_buttons": direction_buttons,
        "change_tile": "change_tile" in firsts,
        "beside": "beside" in firsts,
        "no_crate": "none" in firsts,
        "pending_card": card_info(pending["card"]) if pending.get("card") else None,
        "hand": hand(view, paths),
        "own_pile": [card_info(c) for c in reversed(view.get("pile") or [])],
        "line": line_of_operations(view, paths),
        "players": seats,
        "deck_size": view.get("deck_size", 0),
        "peace": view.get("peace", False),
        "trash": [card_info(c) for c in view.get("trash") or []],
        "farmer": _(FARMER_TITLES[farmer]) if farmer in FARMER_TITLES else None,
        "farmer_beside": view.get("farmer_tiles_beside", 0),
        "obstacles": (view.get("options") or {}).get("obstacles", False),
        "obstacle_tiles_left": view.get("obstacle_tiles_left") or {},
        "dynamite_pending": view.get("dynamite_pending", False),
        "crates_known": view.get("crates_known") or {},
        "new_lines": new_lines,
        "new_lines_total": sum(ln["medals"] for ln in new_lines),
        "press_holder": next((p for p in seats if p["press"]), None),
        "turns": view.get("turns", 0),
    }
