"""Topoum at the table: the hex battlefield as inline SVG, cards, reserves and the current decision.

Built only from the seat's view and legal actions (ruling G0.3).  Every legal action becomes a
"click path" of one or two keys: a hex ("q,r"), a card ("hand:<name>", "line:<slot>") or a
button ("dir:<d>", "beside", "none", "change_tile").  The page highlights exactly the first keys
of the paths; a key that starts two-step paths (a mole to move, a farmer tile to take) selects it
and highlights the second keys.  The script (boards/topoum/board.js) only follows these paths and
posts the action they end in; the server stays the authority.
"""

from __future__ import annotations

import json
import math

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.hexgrid import hexagon

from .. import hex_svg
from ..hex_svg import fmt, hex_points
from .labels import (
    ARROWS,
    CARD_EFFECTS,
    CATEGORY_LABELS,
    COLOUR_NAMES,
    FARMER_TITLES,
    FEATURE_LABELS,
    OBSTACLE_LABELS,
    card_title,
    colour_label,
)
from .words import prompt_words

SIZE = 26.0  # hex circumradius in SVG units
APOTHEM = SIZE * math.sqrt(3) / 2
MIN_SCALE = 0.85  # px per SVG unit at least: a space stays about 38 px wide, tappable on a phone


# Colours of the four armies (the view's "colours" names them by seat; tiles carry a colour index).
def key(h) -> str:
    return f"{h[0]},{h[1]}"


def centre(h) -> tuple[float, float]:
    return hex_svg.centre(h, SIZE)


def card_info(card, categories: dict, **extra) -> dict:
    """A card as the templates draw it: name, category (from the view's card_categories) and its effect."""
    category = categories.get(card)  # Peace has none
    return {
        "card": card,
        "title": card_title(card),
        "category": category,
        "category_label": _(CATEGORY_LABELS[category]) if category else "",
        "effect": _(CARD_EFFECTS[card]) if card in CARD_EFFECTS else "",
        **extra,
    }


# --- the decision: every legal action as a click path ---------------------------------------------
def prompt(view: dict) -> str:
    """What the seat to act is asked (the view's decision, engine.topoum.describe.prompt), in words."""
    if view["decision"] is None:
        return _("The war is over.")
    return prompt_words(view["decision"]["prompt"])


def _move_label(outcome: dict) -> str:
    """Where a moving mole ends, as the engine will play the move, with what it costs (ruling T12)."""
    kind, penalty = outcome["outcome"], outcome["penalty"]
    if kind == "lost":
        if outcome.get("feature"):
            return _("Move onto the %(thing)s: the mole is eliminated (−%(medals)s medals)") % {
                "thing": _(FEATURE_LABELS[outcome["feature"]]),
                "medals": penalty,
            }
        return _("Move there: no square, the mole is eliminated (−%(medals)s medals)") % {"medals": penalty}
    if kind == "collide_own":
        return _("Move onto your own mole: both are eliminated (−%(medals)s medals)") % {"medals": penalty}
    if kind == "collide_rival":
        return _("Attack the rival mole there: both are eliminated")
    if kind == "slide":
        return _("Move onto the ice: the mole slides on")
    return _("Move the mole there")


def _target_label(pending: dict | None, action: dict) -> str:
    card = pending.get("card") if pending else None
    if pending and pending["k"] == "dynamite":
        return _("Put the dynamite back here")
    if action.get("hex") is None:
        return _("Move no crate")
    if "from" in action:
        return _("Move the farmer's tile here")
    if card == "farmer":
        return _("Call the farmer here")
    return _("Aim %(card)s here") % {"card": card_title(card)}


def _play_choice(action: dict, line_values: list) -> tuple[list[str], str]:
    """Playing a card: from the hand, or from a Line slot for its medals."""
    if action["source"] == "hand":
        return [f"hand:{action['card']}"], _("Play %(card)s from your hand") % {"card": card_title(action["card"])}
    slot = action["slot"]
    label = _("Play %(card)s from Line slot %(slot)s (%(medals)+d medals)") % {
        "card": card_title(action["card"]),
        "slot": slot,
        "medals": line_values[slot - 1],
    }
    return [f"line:{slot}"], label


def _target_choice(action: dict, pending) -> tuple[list[str], str]:
    """Aiming the pending card: at no crate, at a space, or from a tile (or beside the board) to a space."""
    label = _target_label(pending, action)
    if action.get("hex") is None:
        return ["none"], label
    if "from" in action:
        return ["beside" if action["from"] is None else key(action["from"]), key(action["hex"])], label
    return [key(action["hex"])], label


def _choice(action: dict, view: dict, outcomes: dict) -> tuple[list[str] | None, str | None]:
    """The keys a player clicks to choose `action`, and the words of the choice (None for an action not clicked)."""
    kind = action["type"]
    setup_step = view["step"] if view["phase"] == "setup" else None
    if kind == "place":
        label = {"centre": _("Lay the centre tile here"), "ring": _("Place a barracks here")}.get(
            setup_step, _("Place a barracks with a mole here")
        )
        return [key(action["hex"])], label
    if kind == "obstacle":
        return [key(action["hex"])], _(OBSTACLE_LABELS[action["kind"]])
    if kind == "enter":
        return [key(action["hex"])], _("Enter into combat here with a new barracks and mole")
    if kind == "move":
        path = [key(action["from"]), key(action["to"])]
        return path, _move_label(outcomes[tuple(path)])
    if kind == "play":
        return _play_choice(action, view["options"]["line_values"])
    if kind == "change_tile":
        return ["change_tile"], _("Change the tile under the mole")
    if kind == "target":
        return _target_choice(action, view["turn"]["pending"])
    if kind == "direction":
        return [f"dir:{action['dir']}"], _("Push the moles %(arrow)s") % {"arrow": ARROWS[action["dir"]]}
    if kind == "keep":
        return [key(action["hex"])], _("Keep the part of the battlefield with this square")
    if kind == "take_back":
        return [key(action["hex"])], _("Take this barracks back to your reserve")
    return None, None


def click_paths(view: dict, legal: list[dict], me: int | None) -> list[dict]:
    """Each legal action with the keys a player clicks to choose it and the words of the choice."""
    out = []
    if me is None:
        return out
    outcomes = {(key(o["from"]), key(o["to"])): o for o in view.get("move_outcomes", [])}
    places = place_words(view)
    for action in legal:
        path, label = _choice(action, view, outcomes)
        if path:
            # Decision 26: the place in words (what lies there), not coordinates, in the choice bar and the list.
            where = " → ".join(places.get(k) or _("an empty space") for k in path if "," in k)
            out.append({"path": path, "label": label, "where": where, "action": action, "json": json.dumps(action)})
    return out


# --- the battlefield ----------------------------------------------------------------------------------
def _space(h, kind: str, **extra) -> dict:
    cx, cy = centre(h)
    return {
        "key": key(h),
        "q": h[0],
        "r": h[1],
        "x": fmt(cx),
        "y": fmt(cy),
        "points": hex_points(h, SIZE),
        "inner": hex_points(h, SIZE, 0.78),
        "kind": kind,
        **extra,
    }


def place_words(view: dict) -> dict[str, str]:
    """Each occupied space's key and what lies there in words, without coordinates (decision 26)."""
    colours = view.get("colours", [])
    out = {}
    for cell in view.get("board", []):
        colour = COLOUR_NAMES[cell["colour"]] if cell.get("colour") is not None else None
        mole = colours[cell["mole"]] if "mole" in cell and cell["mole"] < len(colours) else None
        words = _tile_words(view, cell, colour, mole)
        if words:
            out[key(cell["hex"])] = ", ".join(words)
    return out


def _tile_label(view: dict, cell: dict, colour: str | None, mole_colour: str | None) -> str:
    """What lies on a space, for a screen reader and a keyboard player, who see no colours (decision 13)."""
    h = cell["hex"]
    return ", ".join([_("space %(q)s,%(r)s") % {"q": h[0], "r": h[1]}] + _tile_words(view, cell, colour, mole_colour))


def _tile_words(view: dict, cell: dict, colour: str | None, mole_colour: str | None) -> list[str]:
    label = []
    if cell.get("tile") in ("barracks", "neutral") and colour:
        label.append(
            (_("%(colour)s barracks") if cell["tile"] == "barracks" else _("%(colour)s neutral tile"))
            % {"colour": colour_label(colour)}
        )
    if "feature" in cell:
        label.append(_(FEATURE_LABELS[cell["feature"]]))
    if cell.get("deadly"):
        label.append(_("deadly"))  # rulings T12, T16, T17: said in words too, not only drawn
    if mole_colour:
        label.append(_("%(colour)s mole") % {"colour": colour_label(mole_colour)})
        if cell["mole"] == view["seat"]:
            label.append(_("yours"))
    if cell.get("red_cross"):
        label.append(_("Red Cross"))
    return label


def _spaces(view: dict) -> list[dict]:
    """Every space of the battlefield, marked where the rules mark it (the X spaces and zones of the setup)."""
    x_spaces = {key(h) for h in view["marks"]["x_spaces"]}
    zones = {key(h) for h in view["marks"]["zones"]}
    spaces = []
    for h in hexagon(view["options"]["radius"]):
        mark = "x" if key(h) in x_spaces else ("zone" if key(h) in zones else "")
        spaces.append(_space(h, "space", mark=mark))
    return spaces


def _tiles(view: dict) -> list[dict]:
    """The tiles on the battlefield with what lies on them (feature, crate, mole) and their words."""
    colours = view["colours"]
    tiles = []
    for cell in view["board"]:
        colour = COLOUR_NAMES[cell["colour"]] if cell.get("colour") is not None else None
        entry = _space(
            cell["hex"],
            cell.get("tile", "bare"),
            colour=colour,
            outpost=cell.get("outpost", False),
            feature=cell.get("feature"),
            deadly=cell.get("deadly", False),
            red_cross=cell.get("red_cross", False),
        )
        if cell.get("feature") == "crate":
            entry["crate_value"] = cell.get("value")  # only present when this seat has looked (ruling T8)
        if "mole" in cell:
            entry["mole"] = colours[cell["mole"]]
            entry["mole_seat"] = cell["mole"]
            entry["movable"] = cell.get("movable", False)
        entry["label"] = _tile_label(view, cell, colour, entry.get("mole"))
        tiles.append(entry)
    return tiles


def _hot_spaces(paths: list[dict], spaces: list[dict], tiles: list[dict]) -> list[dict]:
    """Clickable spaces: every hex key on some click path (off the board too: a move may leave it)."""
    on_board = {s["key"] for s in spaces}
    tile_labels = {t["key"]: t["label"] for t in tiles}
    hot, firsts = {}, {p["path"][0] for p in paths}
    for p in paths:
        for k in p["path"]:
            if "," in k and k not in hot:
                q, r = (int(v) for v in k.split(","))
                # Its name for a screen reader and a keyboard player (decision 13): what lies there.
                hot[k] = _space(
                    (q, r),
                    "hot",
                    first=k in firsts,
                    off=k not in on_board,
                    label=tile_labels.get(k) or _("space %(q)s,%(r)s") % {"q": q, "r": r},
                )
    return list(hot.values())


def _keep_parts(pending: dict) -> list[dict]:
    """The parts of a split battlefield, one colour each, while a player chooses the part to keep."""
    parts = []
    if pending.get("k") == "keep":
        for i, part in enumerate(pending["parts"]):
            parts += [dict(_space(h, "part"), part=i % 4) for h in part]
    return parts


def _sight_lines(view: dict) -> list[dict]:
    """The lines of sight just formed, from end to end, with their medals at the middle."""
    lines = []
    for ln in view.get("new_lines", []):
        (x1, y1), (x2, y2) = centre(ln["from"]), centre(ln["to"])
        lines.append(
            {
                "x1": fmt(x1),
                "y1": fmt(y1),
                "x2": fmt(x2),
                "y2": fmt(y2),
                "mx": fmt((x1 + x2) / 2),
                "my": fmt((y1 + y2) / 2),
                "medals": ln["medals"],
            }
        )
    return lines


def _direction_arrows(pending: dict, firsts: set) -> list[dict]:
    """The arrows round the active mole, one per direction the moles may be pushed."""
    ax, ay = centre(pending["m"])
    arrows = []
    for d in range(6):
        k = f"dir:{d}"
        if k not in firsts:
            continue
        angle = math.radians(-60 * d)
        tx, ty = ax + 1.25 * SIZE * math.cos(angle), ay + 1.25 * SIZE * math.sin(angle)
        arrows.append({"key": k, "x": fmt(tx), "y": fmt(ty), "rotate": fmt(-60 * d)})
    return arrows


def battlefield(view: dict, paths: list[dict]) -> dict:
    """Spaces, tiles, pieces, highlights and lines of sight, in SVG units."""
    radius = view["options"]["radius"]
    spaces, tiles = _spaces(view), _tiles(view)
    pending = view["turn"]["pending"] or {}
    active = _space(pending["m"], "active") if "m" in pending else None
    firsts = {p["path"][0] for p in paths}
    extent = (radius + 1) * SIZE * math.sqrt(3) + APOTHEM
    height = (radius + 1) * 1.5 * SIZE + SIZE
    return {
        "spaces": spaces,
        "tiles": tiles,
        "hot": _hot_spaces(paths, spaces, tiles),
        "active": active,
        "parts": _keep_parts(pending),
        "lines": _sight_lines(view),
        "arrows": _direction_arrows(pending, firsts) if active and pending["k"] == "direction" else [],
        "view_box": f"{fmt(-extent)} {fmt(-height)} {fmt(2 * extent)} {fmt(2 * height)}",
        "min_width": round(2 * extent * MIN_SCALE),
        "size": fmt(SIZE),
        "half": fmt(SIZE / 2),
    }


# --- the rest of the table ---------------------------------------------------------------------------
def players(view: dict, names: list[str], me: int | None) -> list[dict]:
    colours, categories = view["colours"], view["card_categories"]
    prisoners, piles = view["prisoners"], view["piles"]
    results = {r["seat"]: r for r in view.get("results", [])}
    final = view.get("final", [])
    out = []
    for s in range(view["players"]):
        colour = colours[s]
        held = [
            {"colour": colours[o], "colour_label": colour_label(colours[o]), "count": prisoners[s][o]}
            for o in range(view["players"])
            if o != s and prisoners[s][o]
        ]
        top = piles[s]["top"]
        out.append(
            {
                "seat": s,
                "name": names[s] if s < len(names) else str(s + 1),
                "colour": colour,
                "colour_label": colour_label(colour),
                "me": s == me,
                "current": s == view["current"],
                "medals": view["medals"][s],
                "moles": view["reserve"]["moles"][s],
                "barracks": view["reserve"]["tiles"][s],  # seat s plays colour s (engine: colours[s])
                "prisoners": held,
                "hand_size": view["hand_sizes"][s],
                "pile_size": piles[s]["size"],
                "pile_top": card_info(top, categories) if top else None,
                "press": view["press"] == s,
                "rank": results[s]["rank"] if s in results else None,
                "final": final[s] if s < len(final) and final[s] else None,
            }
        )
    return out


def line_of_operations(view: dict, paths: list[dict]) -> list[dict]:
    values = view["options"]["line_values"]
    playable = {p["path"][0] for p in paths}
    out = []
    for slot, card in enumerate(view["line"], start=1):
        entry = {"slot": slot, "value": values[slot - 1], "key": f"line:{slot}", "playable": f"line:{slot}" in playable}
        entry.update(card_info(card, view["card_categories"]) if card else {"card": None})
        out.append(entry)
    return out


def hand(view: dict, paths: list[dict]) -> list[dict]:
    playable = {p["path"][0] for p in paths}
    return [
        card_info(c, view["card_categories"], key=f"hand:{c}", playable=f"hand:{c}" in playable)
        for c in view.get("hand", [])
    ]


SOURCE_LABELS = {
    "lines": gettext_noop("Lines of sight"),
    "line_cards": gettext_noop("Cards from the Line"),
    "losses": gettext_noop("Own moles lost"),
    "press": gettext_noop("Press"),
    "honour": gettext_noop("Medal of Honor"),
    "farmer": gettext_noop("Farmer"),
    "ransoms": gettext_noop("Ransoms"),
    "final": gettext_noop("End-of-game scoring"),
}


def medal_sources(breakdown: dict | None, names: list[str], colours: list[str]) -> dict | None:
    """The table of where each army's medals came from, overall and in the last turn (decision 26), for the page:
    only the sources that gave or took any medal, and the last turn's changes in words."""
    if not breakdown:
        return None
    rows = breakdown["seats"]
    used = [k for k in breakdown["sources"] if any(r["overall"].get(k) for r in rows)]
    out_rows, last = [], []
    for r in rows:
        s = r["seat"]
        name = names[s] if s < len(names) else str(s + 1)
        out_rows.append(
            {
                "name": name,
                "colour": colours[s] if s < len(colours) else "",
                "cells": [r["overall"].get(k, 0) for k in used],
                "total": r["total"],
            }
        )
        parts = [
            "%s %+d" % (_(SOURCE_LABELS.get(k, k)), n) for k in breakdown["sources"] if (n := r["last_turn"].get(k))
        ]
        if parts:
            last.append({"name": name, "total": r["last_turn_total"], "parts": ", ".join(parts)})
    seat = breakdown.get("last_seat")
    return {
        "start": breakdown["start"],
        "columns": [_(SOURCE_LABELS.get(k, k)) for k in used],
        "rows": out_rows,
        "last": last,
        "last_name": names[seat] if isinstance(seat, int) and seat < len(names) else None,
    }


def _buttons(legal: list[dict], detail: dict) -> dict:
    """End turn and Undo, as the JSON their buttons post, when legal (Undo only when the site lets her)."""
    buttons = {t: json.dumps({"type": t}) for t in ("end_turn", "undo") if any(a["type"] == t for a in legal)}
    if "undo" in buttons and not detail.get("undoable"):  # (a rules diagram's detail has no undoable)
        del buttons["undo"]
    return buttons


def _ransoms(legal: list[dict], names: list[str]) -> list[dict]:
    """The ransoms she may pay, each with its captor's name."""
    return [
        {"json": json.dumps(a), "name": names[a["captor"]] if a["captor"] < len(names) else a["captor"]}
        for a in legal
        if a["type"] == "ransom"
    ]


def _direction_buttons(firsts: set) -> list[dict]:
    return [
        {"key": f"dir:{d}", "arrow": ARROWS[d], "dir": d}  # drawn turned by .tm-arrow.dir-d
        for d in range(6)
        if f"dir:{d}" in firsts
    ]


def present(detail: dict, names: list[str]) -> dict:
    """Everything the Topoum board template and script need, from the seat's view only."""
    view = detail["view"]
    me = detail["my_seat"]
    legal = detail["legal_actions"]
    current = view["current"]
    categories = view["card_categories"]
    my_turn = me is not None and current == me and bool(legal)
    paths = click_paths(view, legal, me) if my_turn else []
    pending = view["turn"]["pending"] or {}
    firsts = {p["path"][0] for p in paths}
    seats = players(view, names, me)
    farmer = view["farmer"]
    new_lines = view.get("new_lines", [])
    colours = view["colours"]
    return {
        "view": view,
        "me": me,
        "my_colour": colours[me] if me is not None else None,
        "my_turn": my_turn,
        "over": view["phase"] == "over",
        "setup": view["phase"] == "setup",
        "prompt": prompt(view),
        "current_name": names[current] if current is not None and current < len(names) else None,
        "current_colour": colours[current] if current is not None else None,
        "current_thinking_since": next(
            (s.get("thinking_since") for s in detail.get("seats", []) if s["index"] == current), None
        ),
        "board": battlefield(view, paths),
        "paths": paths,
        "has_paths": bool(paths),
        "buttons": _buttons(legal, detail),
        "ransoms": _ransoms(legal, names),
        "direction_buttons": _direction_buttons(firsts),
        "change_tile": "change_tile" in firsts,
        "beside": "beside" in firsts,
        "no_crate": "none" in firsts,
        "pending_card": card_info(pending["card"], categories) if "card" in pending else None,
        "hand": hand(view, paths),
        "own_pile": [card_info(c, categories) for c in reversed(view.get("pile", []))],
        "line": line_of_operations(view, paths),
        "players": seats,
        "deck_size": view["deck_size"],
        "peace": view["peace"],
        "trash": [card_info(c, categories) for c in view["trash"]],
        "farmer": _(FARMER_TITLES[farmer]) if farmer in FARMER_TITLES else None,
        "farmer_beside": view["farmer_tiles_beside"],
        "obstacles": view["options"]["obstacles"],
        "obstacle_tiles_left": view["obstacle_tiles_left"],
        "dynamite_pending": view["dynamite_pending"],
        "crates_known": view.get("crates_known", {}),
        "new_lines": new_lines,
        "new_lines_total": sum(ln["medals"] for ln in new_lines),
        "press_holder": next((p for p in seats if p["press"]), None),
        "medal_sources": medal_sources(detail.get("score_breakdown"), names, colours),
        "turns": view["turns"],
    }
