"""Toppo as a registered game: options, capabilities, new matches, bots' sampled states, test secrets (P1-P6).

Options: "hands" (how many hands the match has, default 3, ruling P2) and "pace":
"correspondence" (rounds of sealed claims, ruling P4, the default) or "live" (no turns,
actions in arrival order, ruling P3).  Action formats: actions.py.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.core import Action, Game, Option, copy_json, register

from . import rules
from .cards import card_from_json, full_set, sets_for
from .rules import CORRESPONDENCE, LIVE
from .state import ToppoState


@register
class ToppoGame(Game):
    name = "toppo"
    title = "Toppo"
    min_players = 2
    max_players = 8
    options = (
        Option(
            "hands",
            "int",
            3,
            label="Hands",
            min_value=1,
            max_value=20,
            help="How many hands the match has; the lowest penalty total after the last one wins.",
        ),
        Option(
            "pace",
            "choice",
            CORRESPONDENCE,
            choices=(LIVE, CORRESPONDENCE),
            label="Pace",
            help="Live: everybody online, no turns, the fastest correct call wins. "
            "Correspondence: rounds of sealed claims, resolved in a priority order that moves on one seat "
            "each round.",
        ),
    )
    state_class = ToppoState
    higher_is_better = False  # penalty points (engine.bots.base reads this)
    bot_score_scale = 15.0  # about half a hand's cards: a lead this big is nearly a win
    paces = (CORRESPONDENCE, LIVE)  # rulings P3 (live) and P4 (correspondence)
    pace_option = "pace"

    def new_state(self, players: int, options: dict | None, seed) -> ToppoState:
        opts = self.validate_options(players, options)
        state = ToppoState.empty(players, opts["hands"], opts["pace"], seed)
        rules.begin_match(state)
        return state

    def timeout_action(self, state: ToppoState, seat: int) -> Action | None:
        """A missed round is a renew (P4); a missed display choice takes three cards, as the first hand does."""
        if seat not in state.to_act():
            return None
        if state.phase == "choose_display":
            return {"type": "choose_display", "size": 3}
        if state.pace == CORRESPONDENCE:
            return {"type": "renew"}
        return None

    def determinize(self, view: dict, seat: int, rng: random.Random) -> ToppoState:
        """A full state matching `view`: cards nobody has seen are dealt at random into the decks (where
        nobody saw them), the covered piles and the stack."""
        players = view["players"]
        lines = [[card_from_json(c) for c in line] for line in view["lines"]]
        tops = [card_from_json(p["top"]) for p in view["display"]]
        seen = [[None if c is None else card_from_json(c) for c in deck] for deck in view["decks_seen"]]
        unseen = Counter(full_set(sets_for(players)))
        unseen.subtract(tops)
        for line in lines:
            unseen.subtract(line)
        for deck in seen:
            unseen.subtract(c for c in deck if c is not None)
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        heights = [p["height"] for p in view["display"]]
        wanted = sum(d.count(None) for d in seen) + view["stack_size"] + sum(h - 1 for h in heights)
        if wanted != len(pool) or any(v < 0 for v in unseen.values()):
            raise ValueError("The view does not add up to the cards of the game.")
        # Cards everyone saw go under a deck stay where they are; the rest are drawn.
        decks = [[pool.pop() if c is None else c for c in deck] for deck in seen]
        display = []
        for top, height in zip(tops, heights):
            display.append(pool[: height - 1] + [top])
            del pool[: height - 1]
        # Others' sealed claims are unknown: renew is always a legal one.
        claims = [
            [other, copy_json(view["my_claim"]) if other == seat else {"type": "renew"}]
            for other in view["claim_order"]
        ]
        return ToppoState.from_json(
            {
                "players": players,
                "hands": view["hands"],
                "pace": view["pace"],
                "seed": rng.getrandbits(64),
                "counter": 0,
                "hand": view["hand"] - 1,
                "totals": view["totals"],
                "hand_points": view["hand_points"],
                "phase": view["phase"],
                "chooser": view["chooser"],
                "start": view["start_player"],
                "size": view["display_size"],
                "decks": decks,
                "seen": [[c is not None for c in deck] for deck in seen],
                "lines": lines,
                "stack": pool,
                "display": display,
                "restarter": view["restarter"],
                "bumped": view["bumped"],
                "proposal": view["proposal"],
                "round": view["round"] or 0,
                "claims": claims,
                "last_round": view["last_round"],
                "events": view["events"],
            }
        )

    def plant_secrets(self, state: ToppoState) -> dict[int | None, list[str]]:
        """Markers in the decks, the stack, the covered display cards, the seed and each sealed claim."""
        nobody: list[str] = []

        def mark(name: str) -> str:
            nobody.append(f"SECRET-{name}")
            return nobody[-1]

        # Only what nobody has seen is secret; cards seen going under a deck are public (decks_seen).
        state.decks = [
            [card if known else mark(f"deck{s}-{i}") for i, (card, known) in enumerate(zip(d, k))]
            for s, (d, k) in enumerate(zip(state.decks, state.seen))
        ]
        state.stack = [mark(f"stack-{i}") for i in range(len(state.stack))]
        state.display = [
            [mark(f"under{d}-{i}") for i in range(len(p) - 1)] + p[-1:] for d, p in enumerate(state.display)
        ]
        state.seed = mark("seed")
        planted: dict[int | None, list[str]] = {None: nobody}
        for seat in range(state.players):
            planted[seat] = []
        if state.pace == CORRESPONDENCE and state.phase == "play":
            # Every seat gets a sealed claim only she may see until the round resolves (P4).
            state.claims = [[s, {"type": "top", "order": [f"SECRET-claim-of-{s}"]}] for s in range(state.players)]
            for s in range(state.players):
                planted[s].append(f"SECRET-claim-of-{s}")
        return planted
