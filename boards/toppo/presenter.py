"""Toppo at the table: the display, every line face up, decks, totals, claims, the round's priority order
and the last round.

Built only from the seat's view (ruling G0.3).  The player may lay her line cards onto display cards
herself and shout top / match / renew / toppo with whatever she built; the server judges (ruling P3
penalises wrong calls at live pace).  Since decision 26 the page also offers the claims her line makes
right now, each as one tap (`found`): laying a top by hand took a person four clicks and 7-9 s, while a
bot shouts about two seconds after its line fills, so a person could hardly win a top.  The claims are
read from her own legal actions, which at live pace list only right calls and depend only on her line
and the display, both in her view.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from ..wording import name_of

COLOUR_LABELS = {
    "red": gettext_noop("red"),
    "yellow": gettext_noop("yellow"),
    "white": gettext_noop("white"),
    "green": gettext_noop("green"),
    "blue": gettext_noop("blue"),
}
SYMBOL_LABELS = {
    "waves": gettext_noop("waves"),
    "circle": gettext_noop("circle"),
    "square": gettext_noop("square"),
    "bar": gettext_noop("bar"),
    "plus": gettext_noop("plus"),
}


def card(data: dict) -> dict:
    """A card as the templates draw it: colour, symbol and its name in words."""
    colour, symbol = data["colour"], data["symbol"]
    return {
        "colour": colour,
        "symbol": symbol,
        "label": _("%(colour)s %(symbol)s") % {"colour": _(COLOUR_LABELS[colour]), "symbol": _(SYMBOL_LABELS[symbol])},
    }


def _name(names: list[str], seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else "?"}


def _positions(values: list) -> str:
    """Line positions 0-based in a claim, shown 1-based (the conformance tests plant text markers in a sealed
    claim to check that only its author sees them: shown as they are)."""
    return ", ".join(str(v + 1) if isinstance(v, int) else str(v) for v in values)


def deck_memory(seen: list) -> list[dict]:
    """A deck top first as the table saw it: runs of unseen cards as counts, seen cards face up."""
    out: list[dict] = []
    for c in seen:
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
    kind = claim["type"]
    if kind == "top":
        return _("top: line cards %(order)s onto display cards 1, 2, … in that order") % {
            "order": _positions(claim["order"])
        }
    if kind == "match":
        parts = [
            _("line card %(j)s onto display card %(d)s") % {"j": line + 1, "d": display + 1}
            for line, display in claim["pairs"]
        ]
        return _("match: %(pairs)s") % {"pairs": "; ".join(parts)}
    if kind == "renew":
        return _("renew")
    if kind == "toppo":
        return _("toppo")
    return str(kind)


def _short_claim(claim: dict) -> str:
    kind = claim.get("type")  # (toppo_words also names claims of log entries stored long ago)
    if kind == "match":
        n = len(claim.get("pairs") or [])
        return ngettext("a match of %(n)s card", "a match of %(n)s cards", n) % {"n": n}
    return {"top": _("a top"), "renew": _("a renew"), "toppo": _("toppo")}.get(kind, str(kind))


def priority_order(view: dict, names: list[str], me) -> list[dict]:
    """The current round's priority order at correspondence pace, first seat first (ruling P4 amended)."""
    order = view["priority"] if view["pace"] != "live" else None
    if order is None:
        return []
    return [{"seat": s, "name": _name(names, s), "me": s == me, "first": i == 0} for i, s in enumerate(order)]


def last_round_words(last: dict | None, names: list[str]) -> list[str]:
    """The previous round's resolution, one sentence per claim in the priority order it was resolved in (P4)."""
    if not last:
        return []
    out = []
    for item in last["claims"]:
        who, claim, outcome = _name(names, item["seat"]), item["claim"], item["outcome"]
        what = _short_claim(claim)
        if outcome == "applied":
            out.append(_("%(who)s: %(what)s, carried out.") % {"who": who, "what": what})
        elif outcome == "void":
            out.append(
                _(
                    "%(who)s: %(what)s, void (a claim before it in the priority order changed the display "
                    "or ended the round)."
                )
                % {"who": who, "what": what}
            )
        elif outcome == "renew":
            out.append(_("%(who)s renewed.") % {"who": who})
        elif outcome == "toppo":
            out.append(_("%(who)s called toppo and ended the hand.") % {"who": who})
    return out


MATCHES_OFFERED = 2  # at most this many matches (the biggest, one per set of line cards) as one tap each


def found_claims(legal: list[dict], view: dict, me) -> list[dict]:
    """The tops and matches her line makes now, each one tap (decision 26): one top (every order lays the same
    cards), then the match that lays the most cards."""
    if me is None:
        return []
    line = view["lines"][me]
    out = []
    top = next((a for a in legal if a["type"] == "top"), None)
    if top is not None:
        out.append(
            {
                "kind": "top",
                "json": json.dumps(top),
                "pairs": [{"line": card(line[j]), "display": i + 1} for i, j in enumerate(top["order"])],
            }
        )
    matches, seen = [], set()
    for a in sorted((a for a in legal if a["type"] == "match"), key=lambda a: -len(a["pairs"])):
        key = tuple(j for j, _ in a["pairs"])
        if key in seen:
            continue
        seen.add(key)
        matches.append(
            {
                "kind": "match",
                "json": json.dumps(a),
                "pairs": [{"line": card(line[j]), "display": d + 1} for j, d in a["pairs"]],
            }
        )
    # Laying more cards is always better (the rest of the line goes under her deck either way): the biggest only.
    return out + [m for m in matches if len(m["pairs"]) == len(matches[0]["pairs"])][:MATCHES_OFFERED]


def bumped_words(bumped: dict, names) -> str:
    """Whose call sent a seat's line back under her deck (live pace, decision 26), said to her."""
    who, n = name_of(names, bumped.get("by")), bumped.get("cards") or 0
    if bumped.get("call") == "top":
        if not n:
            return _("%(who)s topped the display first; your line went back under your deck.") % {"who": who}
        return ngettext(
            "%(who)s topped the display first; your %(n)s line card went back under your deck.",
            "%(who)s topped the display first; your %(n)s line cards went back under your deck.",
            n,
        ) % {"who": who, "n": n}
    call = _call(str(bumped.get("call", "")).removeprefix("wrong_"))
    if not n:
        return _("%(who)s called %(call)s wrongly and interrupted play; your line went back under your deck.") % {
            "who": who,
            "call": call,
        }
    return ngettext(
        "%(who)s called %(call)s wrongly and interrupted play; your %(n)s line card went back under your deck.",
        "%(who)s called %(call)s wrongly and interrupted play; your %(n)s line cards went back under your deck.",
        n,
    ) % {"who": who, "call": call, "n": n}


def _call(call) -> str:
    return {"top": _("top"), "match": _("match"), "renew": _("renew"), "toppo": _("toppo")}.get(call, str(call))


def bumped_notice(view: dict, names: list[str], me) -> str:
    """Whose call just sent her line back under her deck, until she acts again (live, decision 26)."""
    bumped = (view.get("bumped") or [])[me] if me is not None and view.get("bumped") else None
    return bumped_words(bumped, dict(enumerate(names))) if bumped else ""


def _players(view: dict, names: list[str], me) -> list[dict]:
    """Each seat: its line, deck, held cards and totals, what she remembers of its deck, its claim and rank."""
    lines, claimed, held = view["lines"], view["claimed"], view["held"]
    results = {r["seat"]: r for r in view["results"] or []}
    players = []
    for s in range(view["players"]):
        memory = deck_memory(view["decks_seen"][s])
        players.append(
            {
                "seat": s,
                "name": _name(names, s),
                "me": s == me,
                "line": [card(c) for c in lines[s]],
                "deck": view["deck_sizes"][s],
                "held": held[s],
                "total": view["totals"][s],
                "memory": memory,
                "seen": sum(1 for m in memory if "card" in m),
                "hands": [p[s] for p in view["hand_points"]],
                "claimed": claimed[s],
                "restarter": view["restarter"] == s,
                "rank": results[s]["rank"] if s in results else None,
            }
        )
    return players


def _waiting(view: dict, detail: dict, players: list[dict]) -> dict:
    """Whom a correspondence round still waits for, and whether they are all bots (the page says they think)."""
    if view["pace"] == "live" or view["phase"] != "play":
        return {"waiting_for": [], "waiting_for_bots": False}
    bots = {s["index"]: s.get("is_bot") for s in detail.get("seats", [])}  # (a rules diagram's detail has none)
    return {
        "waiting_for": [p["name"] for p in players if not p["claimed"]],
        # Only bots still to claim: the page says they are thinking, not that it waits for players (decision 13).
        "waiting_for_bots": all(bots.get(p["seat"]) for p in players if not p["claimed"]),
    }


def _replacing(view: dict, legal_types: set, names: list[str]) -> dict:
    """Choosing the display's size, and proposing or agreeing to replace it."""
    proposal = view["proposal"]
    return {
        "chooser": _name(names, view["chooser"]) if view["chooser"] is not None else None,
        "propose": json.dumps({"type": "propose_replace"}) if "propose_replace" in legal_types else None,
        "agree": json.dumps({"type": "agree_replace"}) if "agree_replace" in legal_types else None,
        "proposal_by": _name(names, proposal["by"]) if proposal else None,
        "proposal_agreed": [_name(names, s) for s in proposal["agreed"]] if proposal else [],
    }


def _last_round(view: dict, names: list[str]) -> dict:
    last_round = view["last_round"]
    return {
        "last_round": last_round_words(last_round, names),
        "last_round_number": last_round["round"] if last_round else None,
        # Rounds resolved before ruling P4 was amended went by arrival order and say no priority.
        "last_round_by_priority": bool(last_round and last_round.get("priority")),
    }


def present(detail: dict, names: list[str]) -> dict:
    """Everything the Toppo board template and script need, from the seat's view only."""
    view = detail["view"]
    legal = detail["legal_actions"]
    me = detail["my_seat"]
    live = view["pace"] == "live"
    phase = view["phase"]
    size = view["display_size"] or 0
    claimed, held = view["claimed"], view["held"]
    restarter = view["restarter"]
    players = _players(view, names, me)

    mine = me is not None and phase == "play"
    my_line = [card(c) for c in view["lines"][me]] if me is not None else []
    types = {a["type"] for a in legal}
    can_call = mine and (live or not claimed[me])
    full = len(my_line) == size and size > 0
    return {
        "view": view,
        "me": me,
        "live": live,
        "phase": phase,
        "over": phase == "over",
        "hand": view["hand"],
        "hands": view["hands"],
        "round": view["round"],
        "priority": priority_order(view, names, me) if phase == "play" else [],
        "display": [{"index": i, "card": card(p["top"]), "height": p["height"]} for i, p in enumerate(view["display"])],
        "size": size,
        "players": players,
        "others": [p for p in players if not p["me"]],
        "my_line": [{"index": j, "card": c} for j, c in enumerate(my_line)],
        "my_line_full": full,
        "my_deck": view["deck_sizes"][me] if me is not None else 0,
        "my_held": held[me] if me is not None else 0,
        "my_claim": claim_text(view["my_claim"]),
        "can_call": can_call,
        "found": found_claims(legal, view, me) if can_call and full else [],
        "bumped": bumped_notice(view, names, me) if live and phase == "play" else "",
        "renew": json.dumps({"type": "renew"}),
        "toppo": json.dumps({"type": "toppo"}),
        "reveal": json.dumps({"type": "reveal"}) if "reveal" in types else None,
        "show_reveal": live and mine and len(my_line) < size,
        "locked_by": _name(names, restarter) if live and restarter is not None and restarter != me else None,
        "i_restart": live and restarter is not None and restarter == me,
        "display_choices": [{"size": a["size"], "json": json.dumps(a)} for a in legal if a["type"] == "choose_display"],
        **_replacing(view, types, names),
        "stack": view["stack_size"],
        "covered": view["covered"],
        **_last_round(view, names),
        **_waiting(view, detail, players),
        "hand_numbers": list(range(1, len(view["hand_points"]) + 1)),
    }
