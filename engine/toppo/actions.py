"""The shape of Toppo actions: which fields each type has, checked before any rule is looked at.

Formats (JSON dicts):
    {"type": "choose_display", "size": 3|4|5}    the start player of a later hand (ruling P2)
    {"type": "reveal"}                            live pace: next deck card into the line (ruling P3)
    {"type": "top", "order": [j0, j1, ...]}       line card j_i goes onto display card i
    {"type": "match", "pairs": [[j, d], ...]}     line card j onto display card d; j strictly rising
    {"type": "renew"}                             the line goes to the bottom of the deck
    {"type": "toppo"}                             end the hand with fewer than ten cards (ruling P5)
    {"type": "propose_replace"}                   ask for a new display (ruling P6)
    {"type": "agree_replace"}                     agree to a pending proposal (ruling P6)
"""
from __future__ import annotations

from engine.core import Action, IllegalAction

FIELDS = {
    "choose_display": ("size",), "reveal": (), "top": ("order",), "match": ("pairs",), "renew": (),
    "toppo": (), "propose_replace": (), "agree_replace": (),
}
CLAIMS = ("top", "match", "renew", "toppo")  # what a correspondence round asks of each player
VOTES = ("propose_replace", "agree_replace")


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def kind_of(action: Action) -> str:
    """The action's type after checking its fields; raises IllegalAction for a malformed action."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("An action must be an object with a \"type\" field.", action=action)
    kind = action["type"]
    if kind not in FIELDS:
        raise IllegalAction(f"Toppo has no action called \"{kind}\"; the actions are: "
                            f"{', '.join(FIELDS)}.", action=action)
    extra = sorted(set(action) - {"type", *FIELDS[kind]})
    missing = [f for f in FIELDS[kind] if f not in action]
    if extra or missing:
        wanted = ", ".join(f'"{f}"' for f in FIELDS[kind]) or "no other field"
        raise IllegalAction(f"A \"{kind}\" action takes {wanted}.", action=action)
    return kind


def parse_order(action: Action, size: int) -> list[int]:
    """The order of a top: each line position 0..size-1 exactly once."""
    order = action["order"]
    if not isinstance(order, list) or not all(_int(j) for j in order) or sorted(order) != list(range(size)):
        raise IllegalAction(f"A top names each of your {size} line positions (0 to {size - 1}) exactly once, "
                            "in the order they go onto the display cards.", action=action)
    return list(order)


def parse_pairs(action: Action, size: int) -> list[list[int]]:
    """The pairs of a match: [line position, display position], line positions strictly rising."""
    pairs = action["pairs"]
    ok = isinstance(pairs, list) and pairs and all(
        isinstance(p, list) and len(p) == 2 and all(_int(x) and 0 <= x < size for x in p) for p in pairs)
    if ok:
        ok = all(a[0] < b[0] for a, b in zip(pairs, pairs[1:]))
    if not ok:
        raise IllegalAction(f"A match lists pairs [line position, display position], each from 0 to {size - 1}, "
                            "with each line position at most once and in rising order.", action=action)
    return [list(p) for p in pairs]
