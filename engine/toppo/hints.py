"""Toppo hints: penalties count as negative utility, sensible ties, and a closed-form playout policy.

Scores are penalty points (Game.higher_is_better is False), so the generic sign convention
already turns them round.  What the hints add:
  - ruling P6: "bots agree at once" to a proposed new display, so agreeing is forced;
  - a bot proposes a new display only when it can do nothing but renew and the display seems
    stuck (see `stuck`); otherwise proposing ranks last among equal choices.  A level whose plan weighs
    votes (expert by correspondence, once the decks are known: planner.Plan) decides that itself;
  - playouts use the obvious policy (toppo, else top, else the biggest match, else reveal or
    renew) instead of trying every claim on a copy.
"""

from __future__ import annotations

import random

from engine.bots.hints import Hints
from engine.core import Action

from . import live, planner
from .rules import CORRESPONDENCE, LIVE

STUCK_ODDS = 6
ORDER = {
    "toppo": 0,
    "top": 1,
    "match": 2,
    "agree_replace": 3,
    "reveal": 4,
    "renew": 5,
    "choose_display": 6,
    "propose_replace": 9,
}


class ToppoHints(Hints):
    """Ruling P6 for bots, and a cheap playout policy."""

    # Strong: most claims are obvious; what greedy cannot see is where the lines that went under the decks (public,
    # decks_seen) come back: a match or a renew regroups the next lines, a top decides which known line meets the
    # new display.  Look eight rounds ahead (two seats: sixteen decisions).  A finished match is scored by the
    # penalty lead alone (result_weight 0), like a running one.
    # 512 (decision 16, the same 20 games) won 11/20 as 256 did: 256 stays.
    # Expert (decision 30, point 2): four times the playouts over strong's eight first claims, and by correspondence,
    # once the decks are known, it weighs proposing a new display as it weighs its claim (planner.Plan, plan_votes)
    # where strong proposes only when the display looks stuck; docs/bots.md has what it won against strong.
    budgets = {
        "strong": {"horizon": 16, "iterations": 256, "margin": 0.0, "result_weight": 0.0},
        "expert": {
            "horizon": 16,
            "iterations": 1024,
            "margin": 0.0,
            "result_weight": 0.0,
            "plans": 8,
            "plan_votes": True,
        },
    }
    rollout_actions_legal = True  # rollout_action picks from the state's own legal list

    @staticmethod
    def preference(action: Action) -> tuple:
        """The playout policy's order of claims, lowest first: toppo, top, the biggest match, renew."""
        return (ORDER.get(action.get("type"), 8), -len(action.get("pairs", ())))

    def tie_rank(self, action: Action) -> int:
        return 2 if action.get("type") == "propose_replace" else 1

    def forced_action(self, state, seat: int, actions: list[Action], rng: random.Random, budget=None) -> Action | None:
        kinds = {a.get("type"): a for a in actions}
        if "agree_replace" in kinds:
            return kinds["agree_replace"]  # ruling P6: bots agree at once
        if budget is not None and planner.weighs_votes(state, budget):
            return None  # the level's plan weighs a proposal as it weighs a claim (planner.Plan.choose)
        if (
            "propose_replace" in kinds
            and "renew" in kinds
            and not kinds.keys() & {"top", "match", "toppo"}
            and self.stuck(state, rng)
        ):
            return kinds["propose_replace"]
        return None

    def plan(self, state, seat: int, actions: list[Action], rng: random.Random, deadline, budget=None) -> Action | None:
        """By correspondence, once every deck is known, the claim whose hand ends best when the claims resolve in
        priority order (ruling P4, decision 30, point 1; engine.toppo.planner); else the search decides (None).
        The budget's plan_* settings (expert's) may plan deeper and from the deal on."""
        return planner.plan(self, state, seat, actions, rng, deadline, budget)

    def shortlist(self, state, seat: int, ranked, count: int) -> list[Action]:
        """At correspondence pace a new display comes only after the round, when every line has
        gone back and new ones are dealt, so proposing one helps nobody: the search skips it."""
        out, effects = [], set()
        for _, a in ranked:
            effect = self.effect(a)
            if effect not in effects:
                effects.add(effect)
                out.append(a)
            if len(out) == count:
                break
        if state.pace == CORRESPONDENCE:
            kept = [a for a in out if a.get("type") != "propose_replace"]
            out = kept or out
        return out

    @staticmethod
    def effect(action: Action) -> tuple:
        """What an action changes for the rest of the hand: every order of a top lays the same cards
        (a line may be laid in any order, so the next display is topped by the same lines), and a
        match is told by which line cards go (identical cards on any pile are the same card)."""
        kind = action.get("type")
        if kind == "top":
            return ("top",)
        if kind == "match":
            return ("match", tuple(sorted(j for j, _ in action["pairs"])))
        return (kind, action.get("size"))

    def idle(self, state, seat: int, actions: list[Action]) -> bool:
        """A live seat whose only move is to propose a new display waits (its line went back on an
        interruption and someone else must restart, ruling P3); proposing then would be noise."""
        return all(a.get("type") == "propose_replace" for a in actions)

    def idle_now(self, state, seat: int) -> bool:
        """At live pace read off the state (live.only_proposes): playouts ask it at every step, and listing every top
        order only to find none was most of their cost."""
        if state.pace == LIVE:
            return live.only_proposes(state, seat)
        return super().idle_now(state, seat)

    def stuck(self, state, rng: random.Random) -> bool:
        """Has the display stood unchanged a while (rules: a rare combination nobody can top)?

        At correspondence pace the last round tells: nobody topped or matched in it.  At live
        pace nothing in the view says how long the display has stood, so a bot that can only
        renew proposes now and then (one time in STUCK_ODDS), which frees a blocked table soon
        and rarely replaces a good display.
        """
        if state.pace == CORRESPONDENCE:
            last = state.last_round
            return bool(last) and not any(c.get("outcome") in ("applied", "toppo") for c in last["claims"])
        return rng.random() < 1 / STUCK_ODDS

    def rollout_action(self, state, seat: int, rng: random.Random) -> Action | None:
        actions = state.legal_actions(seat)
        if not actions or self.idle(state, seat, actions):
            return None
        forced = self.forced_action(state, seat, actions, rng)
        if forced is not None:
            return forced
        best = min(ORDER.get(a.get("type"), 8) for a in actions)
        options = [a for a in actions if ORDER.get(a.get("type"), 8) == best]
        if best == ORDER["match"]:
            most = max(len(a["pairs"]) for a in options)
            options = [a for a in options if len(a["pairs"]) == most]
        return rng.choice(options)


HINTS = ToppoHints  # what engine.bots.hints.hints_for gives this game's bots
