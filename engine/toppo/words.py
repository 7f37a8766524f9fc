"""Plain-words log lines for Toppo, built only from the public events of the last action."""
from __future__ import annotations

from engine.core import Action


def _seat(seat: int) -> str:
    return f"Seat {seat + 1}"


def _card(card: dict) -> str:
    return f"{card['colour']} {card['symbol']}"


def _cards(cards: list[dict]) -> str:
    return ", ".join(_card(c) for c in cards)


def _claim(claim: dict) -> str:
    kind = claim["type"]
    if kind == "match":
        n = len(claim["pairs"])
        return f"match ({n} card{'s' if n != 1 else ''})"
    return kind


def _round(event: dict) -> str:
    parts = []
    for item in event["claims"]:
        who, claim, outcome = _seat(item["seat"]), _claim(item["claim"]), item["outcome"]
        if outcome == "applied":
            parts.append(f"{who}'s {claim} is carried out")
        elif outcome == "void":
            parts.append(f"{who}'s {claim} is void")
        elif outcome == "renew":
            parts.append(f"{who} renews")
        else:
            parts.append(f"{who} calls toppo")
    order = event.get("priority")  # absent from rounds resolved before ruling P4 was amended
    how = f" in priority order, {_seat(order[0])} first" if order else ""
    return f"Round {event['round']} resolves{how}: " + "; ".join(parts) + "."


def sentence(event: dict) -> str:
    """One event in words."""
    kind = event["kind"]
    if kind == "deal":
        return f"Hand {event['hand']} is dealt: 33 cards to each player; {_seat(event['start'])} starts."
    if kind == "choose":
        return f"{_seat(event['seat'])} chooses a display of {event['size']} cards."
    if kind == "display":
        return f"{_seat(event['seat'])} lays out the display: {_cards(event['cards'])}."
    if kind == "reveal":
        return f"{_seat(event['seat'])} reveals a {_card(event['card'])}."
    if kind == "top":
        return f"{_seat(event['seat'])} tops the display with {_cards(event['cards'])}."
    if kind == "match":
        placed = "; ".join(f"{_card(p['card'])} onto display card {p['display'] + 1}" for p in event["pairs"])
        return (f"{_seat(event['seat'])} matches {placed}; {event['back']} card"
                f"{'s' if event['back'] != 1 else ''} of her line go back under her deck.")
    if kind == "wrong":
        line = f"her line ({_cards(event['line'])})" if event["line"] else "her line (empty)"
        return (f"{_seat(event['seat'])} called {event['call']} wrongly: {line} and {event['penalty']} "
                "penalty cards from the stack go under her deck.")
    if kind == "interrupt":
        return (f"Play is interrupted: every line goes back under its deck, and nobody reveals before "
                f"{_seat(event['restarter'])} does.")
    if kind == "renew":
        return f"{_seat(event['seat'])} renews: her line goes back under her deck."
    if kind == "toppo":
        points = ", ".join(f"{_seat(s)} {p}" for s, p in enumerate(event["points"]))
        return (f"{_seat(event['seat'])} calls toppo with {event['held']} cards left and ends hand {event['hand']}. "
                f"Penalty points: {points}.")
    if kind == "over":
        totals = ", ".join(f"{_seat(s)} {t}" for s, t in enumerate(event["totals"]))
        return f"The match is over. Totals: {totals}."
    if kind == "restock":
        return f"The stack ran out: {event['cards']} covered display cards are shuffled into a new stack."
    if kind == "propose":
        return f"{_seat(event['seat'])} proposes replacing the display."
    if kind == "agree":
        return f"{_seat(event['seat'])} agrees to replace the display."
    if kind == "proposal_lapsed":
        return "The display changed, so the proposal to replace it lapses."
    if kind == "replaced":
        return f"Everyone agreed: the display is replaced with {_cards(event['cards'])}."
    if kind == "replace_failed":
        return "Everyone agreed, but there are not enough cards left to replace the display."
    if kind == "claimed":
        return f"{_seat(event['seat'])} has made her claim for this round."
    if kind == "round":
        return _round(event)
    return ""


def describe_events(events: list[dict], seat: int, action: Action) -> str:
    """The last action's events as one log line."""
    text = " ".join(s for s in (sentence(e) for e in events) if s)
    return text or f"{_seat(seat)}: {action.get('type', 'action')}."
