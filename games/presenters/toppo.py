"""Toppo at the table: the display, every line face up, decks, totals, claims, the round's priority order
and the last round.

Built only from the seat's view (ruling G0.3).  Calls are never taken from the legal actions: at
live pace `legal_actions` lists only the calls that are right, and a page that offered exactly
those would give the answer away (ruling P3 penalises wrong calls).  So the page lets the player
lay her line cards onto display cards and shout top / match / renew / toppo with whatever she
built; the server judges.  Only the actions that reveal nothing about rightness are read from
the legal list: reveal, the display size and the replacement votes (ruling P6).
"""
from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

COLOUR_LABELS = {"red": gettext_noop("red"), "yellow": gettext_noop("yellow"), "white": gettext_noop("white"),
                 "green": gettext_noop("green"), "blue": gettext_noop("blue")}
SYMBOL_LABELS = {"waves": gettext_noop("waves"), "circle": gettext_noop("circle"), "square": gettext_noop("square"),
                 "bar": gettext_noop("bar"), "plus": gettext_noop("plus")}


def card(data: dict | None) -> dict | None:
    """A card as the templates draw it: colour, symbol and its name in words."""
    if not isinstance(data, dict):
        return None
    colour, symbol = data.get("colour"), data.get("symbol")
    return {"colour": colour, "symbol": symbol,
            "label": _("%(colour)s %(symbol)s") % {"colour": _(COLOUR_LABELS.get(colour, str(colour))),
                                                    "symbol": _(SYMBOL_LABELS.get(symbol, str(symbol)))}}


def _name(names: list[str], seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else "?"}


def _positions(values) -> str:
    """Line positions 0-based in a claim, shown 1-based (tolerant of anything else)."""
    return ", ".join(str(v + 1) if isinstance(v, int) else str(v) for v in values or [])


def deck_memory(seen: list | None) -> list[dict]:
    """A deck top first as the table saw it: runs of unseen cards as counts, seen cards face up."""
    out: list[dict] = []
    for c in seen or []:
        if c is None:
            if out and "unseen" in out[-1]:
                out[-1]["unseen"] += 1
            else:
                out.append({"unseen": 1})
        else:
            out.append({"card": card(c)})
    return out


def claim_text(claim: dict | None) -> str:
    """A claim in words, e.g. "top (line cards 2, 1, 3 onto display cards 1, 2, 3)"."""
    if not claim:
        return ""
    kind = claim.get("type")
    if kind == "top":
        return _("top: line cards %(order)s onto display cards 1, 2, … in that order") % {
            "order": _positions(claim.get("order"))}
    if kind == "match":
        pairs = claim.get("pairs") or []
        parts = []
        for pair in pairs:
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) for v in pair):
                parts.append(_("line card %(j)s onto display card %(d)s") % {"j": pair[0] + 1, "d": pair[1] + 1})
        return _("match: %(pairs)s") % {"pairs": "; ".join(parts)}
    if kind == "renew":
        return _("renew")
    if kind == "toppo":
        return _("toppo")
    return str(kind)


def _short_claim(claim: dict) -> str:
    kind = claim.get("type")
    if kind == "match":
        n = len(claim.get("pairs") or [])
        return ngettext("a match of %(n)s card", "a match of %(n)s cards", n) % {"n": n}
    return {"top": _("a top"), "renew": _("a renew"), "toppo": _("toppo")}.get(kind, str(kind))


def priority_order(view: dict, names: list[str], me) -> list[dict]:
    """The current round's priority order at correspondence pace, first seat first (ruling P4 amended)."""
    order = view.get("priority") if view.get("pace") != "live" else None
    if not isinstance(order, list):
        return []
    return [{"seat": s, "name": _name(names, s), "me": s == me, "first": i == 0} for i, s in enumerate(order)]


def last_round_words(last: dict | None, names: list[str]) -> list[str]:
    """The previous round's resolution, one sentence per claim in the priority order it was resolved in (P4)."""
    if not last:
        return []
    out = []
    for item in last.get("claims") or []:
        who, claim, outcome = _name(names, item.get("seat")), item.get("claim") or {}, item.get("outcome")
        what = _short_claim(claim)
        if outcome == "applied":
            out.append(_("%(who)s: %(what)s, carried out.") % {"who": who, "what": what})
        elif outcome == "void":
            out.append(_("%(who)s: %(what)s, void (a claim before it in the priority order changed the display "
                         "or ended the round).") % {"who": who, "what": what})
        elif outcome == "renew":
            out.append(_("%(who)s renewed.") % {"who": who})
        elif outcome == "toppo":
            out.append(_("%(who)s called toppo and ended the hand.") % {"who": who})
    return out


def present(detail: dict, names: list[str]) -> dict:
    """Everything the Toppo board template and script need, from the seat's view only."""
    view = detail.get("view") or {}
    legal = detail.get("legal_actions") or []
    me = detail.get("my_seat")
    n = view.get("players", 0)
    live = view.get("pace") == "live"
    phase = view.get("phase")
    size = view.get("display_size") or 0
    lines = view.get("lines") or [[] for _ in range(n)]
    claimed = view.get("claimed") or [False] * n
    results = {r["seat"]: r for r in view.get("results") or []}
    restarter = view.get("restarter")
    held = view.get("held") or [0] * n
    deck_sizes = view.get("deck_sizes") or [0] * n
    decks_seen = view.get("decks_seen") or [[] for _ in range(n)]
    totals = view.get("totals") or [0] * n
    hand_points = view.get("hand_points") or []
    bots = {s["index"]: s.get("is_bot") for s in detail.get("seats") or []}

    players = []
    for s in range(n):
        memory = deck_memory(decks_seen[s] if s < len(decks_seen) else [])
        players.append({
            "seat": s, "name": _name(names, s), "me": s == me, "line": [card(c) for c in lines[s]],
            "deck": deck_sizes[s], "held": held[s], "total": totals[s],
            "memory": memory, "seen": sum(1 for m in memory if "card" in m),
            "hands": [p[s] for p in hand_points if s < len(p)],
            "claimed": bool(claimed[s]) if s < len(claimed) else False,
            "restarter": restarter == s, "rank": results[s]["rank"] if s in results else None,
        })

    mine = me is not None and phase == "play"
    my_line = [card(c) for c in lines[me]] if me is not None and me < len(lines) else []
    my_claim = view.get("my_claim")
    types = {a.get("type") for a in legal}
    can_call = mine and (live or not (claimed[me] if me < len(claimed) else False))
    full = len(my_line) == size and size > 0
    proposal = view.get("proposal")
    return {
        "view": view,
        "me": me,
        "live": live,
        "phase": phase,
        "over": phase == "over",
        "hand": view.get("hand"),
        "hands": view.get("hands"),
        "round": view.get("round"),
        "priority": priority_order(view, names, me) if phase == "play" else [],
        "display": [{"index": i, "card": card(p.get("top")), "height": p.get("height", 1)}
                    for i, p in enumerate(view.get("display") or [])],
        "size": size,
        "players": players,
        "others": [p for p in players if not p["me"]],
        "my_line": [{"index": j, "card": c} for j, c in enumerate(my_line)],
        "my_line_full": full,
        "my_deck": deck_sizes[me] if me is not None and me < len(deck_sizes) else 0,
        "my_held": held[me] if me is not None and me < len(held) else 0,
        "my_claim": claim_text(my_claim),
        "can_call": can_call,
        "renew": json.dumps({"type": "renew"}),
        "toppo": json.dumps({"type": "toppo"}),
        "reveal": json.dumps({"type": "reveal"}) if "reveal" in types else None,
        "show_reveal": live and mine and len(my_line) < size,
        "locked_by": _name(names, restarter) if live and restarter is not None and restarter != me else None,
        "i_restart": live and restarter is not None and restarter == me,
        "display_choices": [{"size": a["size"], "json": json.dumps(a)} for a in legal if a.get("type") == "choose_display"],
        "chooser": _name(names, view.get("chooser")) if view.get("chooser") is not None else None,
        "propose": json.dumps({"type": "propose_replace"}) if "propose_replace" in types else None,
        "agree": json.dumps({"type": "agree_replace"}) if "agree_replace" in types else None,
        "proposal_by": _name(names, proposal["by"]) if proposal else None,
        "proposal_agreed": [_name(names, s) for s in proposal["agreed"]] if proposal else [],
        "stack": view.get("stack_size", 0),
        "covered": view.get("covered", 0),
        "last_round": last_round_words(view.get("last_round"), names),
        "last_round_number": (view.get("last_round") or {}).get("round"),
        # Rounds resolved before ruling P4 was amended went by arrival order and say no priority.
        "last_round_by_priority": bool((view.get("last_round") or {}).get("priority")),
        "waiting_for": [p["name"] for p in players if not p["claimed"]] if not live and phase == "play" else [],
        # Only bots still to claim: the page says they are thinking, not that it waits for players (issue 13).
        "waiting_for_bots": not live and phase == "play" and all(
            bots.get(p["seat"]) for p in players if not p["claimed"]),
        "hand_numbers": list(range(1, len(hand_points) + 1)),
    }
