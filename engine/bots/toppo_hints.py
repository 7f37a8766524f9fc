"""Toppo hints: penalties count as negative utility, sensible ties, and a closed-form playout policy.

Scores are penalty points (Game.higher_is_better is False), so the generic sign convention
already turns them round.  What the hints add:
  - ruling P6: "bots agree at once" to a proposed new display, so agreeing is forced;
  - a bot never proposes a new display when it has anything else to do (proposing costs a
    decision and rarely helps), so proposing ranks last among equal choices;
  - playouts use the obvious policy (toppo, else top, else the biggest match, else reveal or
    renew) instead of trying every claim on a copy.
"""
from __future__ import annotations

import random

from engine.core import Action

from .hints import Hints, register_hints

ORDER = {"toppo": 0, "top": 1, "match": 2, "agree_replace": 3, "reveal": 4, "renew": 5, "choose_display": 6,
         "propose_replace": 9}


@register_hints("toppo")
class ToppoHints(Hints):
    """Ruling P6 for bots, and a cheap playout policy."""

    def tie_rank(self, action: Action) -> int:
        return 2 if action.get("type") == "propose_replace" else 1

    def forced_action(self, state, seat: int, actions: list[Action]) -> Action | None:
        for a in actions:
            if a.get("type") == "agree_replace":
                return a  # ruling P6: bots agree at once
        return None

    def rollout_action(self, state, seat: int, rng: random.Random) -> Action | None:
        actions = state.legal_actions(seat)
        if not actions:
            return None
        forced = self.forced_action(state, seat, actions)
        if forced is not None:
            return forced
        best = min(ORDER.get(a.get("type"), 8) for a in actions)
        options = [a for a in actions if ORDER.get(a.get("type"), 8) == best]
        if best == ORDER["match"]:
            most = max(len(a["pairs"]) for a in options)
            options = [a for a in options if len(a["pairs"]) == most]
        return rng.choice(options)
