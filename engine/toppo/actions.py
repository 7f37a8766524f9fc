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

from engine.core import Action, IllegalAction, action_type, is_whole

FIELDS = {
    "choose_display": ("size",),
    "reveal": (),
    "top": ("order",),
    "match": ("pairs",),
    "renew": (),
    "toppo": (),
    "propose_replace": (),
    "agree_replace": (),
}
CLAIMS = ("top", "match", "renew", "toppo")  # what a correspondence round asks of each player
VOTES = ("propose_replace", "agree_replace")


def kind_of(action: Action) -> str:
    """The action's type after checking it has exactly its fields; IllegalAction for a malformed action (G0.4).

    The values are checked by the parsers below (whole numbers are ints, never 2.0 or true): top
    orders and match pairs are too many to list and compare at every call.
    """
    return action_type(action, FIELDS, "Toppo")


def parse_order(action: Action, size: int) -> list[int]:
    """The order of a top: each line position 0..size-1 exactly once."""
    order = action["order"]
    if not isinstance(order, list) or not all(is_whole(j) for j in order) or sorted(order) != list(range(size)):
        raise IllegalAction("toppo.bad_order", {"size": size}, action=action)
    return list(order)


def parse_pairs(action: Action, size: int) -> list[list[int]]:
    """The pairs of a match: [line position, display position], line positions strictly rising."""
    pairs = action["pairs"]
    ok = (
        isinstance(pairs, list)
        and pairs
        and all(isinstance(p, list) and len(p) == 2 and all(is_whole(x) and 0 <= x < size for x in p) for p in pairs)
    )
    if ok:
        ok = all(a[0] < b[0] for a, b in zip(pairs, pairs[1:]))
    if not ok:
        raise IllegalAction("toppo.bad_pairs", {"size": size}, action=action)
    return [list(p) for p in pairs]
