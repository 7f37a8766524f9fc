"""The strong bot's plan by correspondence once every deck is known (rulings P4, P5, S2; decision 30, point 1).

By correspondence both lines are public when the claims are made, and every card that goes back under a deck is
seen by everyone (decks_seen).  After the first pass through the decks (about eleven rounds) the sample of the
seat's view hides only the stack and the covered display cards, so the rest of the hand follows from the claims and
those cards alone.  Sampled playouts cut at a horizon then spend their budget on
noise and miss what decides the hand: who calls toppo first and with how many cards left to the other (P5).

The plan follows the hand to its end on many samples: the rivals claim as the playout policy does (toppo, else top,
else the biggest match), and so does the seat after its claim; every claim of a different effect is followed on the
same samples with the same rival ties (common numbers), and the claim whose hands end with the best summed lead is
taken.  The claims resolve in the round's priority order (P4), so a top of ours is void in the plan when the rival has
priority and tops, a top of ours with priority voids the rival's, and a top that hands the rival a display its next
line tops with priority shows as the loss it is.  The rivals' sealed claims of this round are unknown (the sample
says renew, S2): each is guessed with the same policy from the rival's public line.

What is still hidden once the decks are known is the stack and the covered display cards, and it matters: a
replaced display (P6) and a refilled stack come from them.  Planned on one deal, a deeper search fits that deal's
luck: over the same 200 hands from the moment the decks were known (both seats of 100 positions against greedy,
bench/bench_toppo_plan.py),
following the seat's own next five choices in full on one deal lost 0.8 cards a hand to greedy, three choices on six
deals (this module before) won 1.9, two on sixteen 3.8, and one (the claim alone, then the policy) on 48 deals 4.1.
So the budget goes to deals, not depth: the claim alone on as many deals as the time limit allows, up to SAMPLES.

While a deck still holds cards nobody has seen the plan declines (None) and the generic search decides: planned on
sampled cards, the choice fits the sample's luck (such a plan won 6 to 10 of 30 matches against greedy's policy), and
the claim alone followed on 64 deals of every unseen card (decks too) did no better than greedy's own claims there
(4.1 against 5.1 cards a hand, 80 hands from the deal, within the noise): in the first pass the next lines of both
seats are unseen, so no claim can be told better than the obvious one.  Against strong itself (bench/bench_toppo_
ceiling.py --sees view, 2026-11-29): the claim alone on 48 samples from the deal on won 20 of 40 matches, four own
choices on 8 samples 5 of 20, and four own choices on 8 samples once the decks are known (strong's search before)
17 of 40; the same search given the true state won 95 of 100.  A level's budget may still ask for such a plan
(plan_depth, plan_samples, plan_unseen) or for a rival's sealed claim guessed by her own plan (plan_rival).

What did beat strong is the display (P6), not a better claim.  A display is replaced about every fourth round, from
cards nobody has seen, and the bots propose one only when it looks stuck (hints.stuck).  Once the decks are known both
seats' next lines are known too, so whether the display will be topped next round, and by whom, follows from the
claims.  A budget with plan_votes (expert's) weighs each claim also after a proposal, the new display dealt from the
hidden cards in every sample: it proposes a display the rival's next line would top and keeps a stuck one its own
next line tops.  It won 82 of 100 matches against strong (docs/bots.md).
"""

from __future__ import annotations

import random

from engine.bots.base import differential
from engine.core import Action

from . import rounds
from .rules import CORRESPONDENCE

# Own choices tried in full, this one included: one, on many deals (module docstring).  Deeper plans on fewer deals
# fit the deals' luck.
MAX_DEPTH = 1
# Deals of the cards still hidden (stack, covered display cards) each claim is followed on, as many as the time
# limit allows up to this (48 took up to 0.45 s a decision at the 95th percentile without a limit, on a loaded machine).
SAMPLES = 48
# Two players by correspondence: the display the chooser asks for (P2).  With four cards a deck goes round in about
# eight rounds instead of eleven, so more of the hand is planned on known decks: the plan won 66 % of 40 matches
# against greedy's policy whose later hands had four cards, 54 % with three.
DISPLAY_SIZE = 4
# A match won is worth this many cards of lead (the game's bot_score_scale: about half a hand's cards), so in the last
# hand the plan plays for the result rather than for the margin alone.
WIN = 15.0
MAX_STEPS = 800  # decisions one line of play follows before its lead is read (a safety net: hands end sooner)
VOTES = ("propose_replace", "agree_replace")


class _Expired(Exception):
    """The decision's time limit passed while a plan was being followed."""


def claims(hints, state, seat: int, actions: list[Action]) -> list[Action]:
    """One claim per effect (hints.effect), the playout policy's own choice first: toppo, top, the biggest match,
    renew.  Votes are left out: they do not use up the claim."""
    by_effect: dict[tuple, Action] = {}
    for a in actions:
        if a.get("type") not in VOTES:
            by_effect.setdefault(hints.effect(a), a)
    return sorted(by_effect.values(), key=hints.preference)


def weighs_votes(state, budget) -> bool:
    """Does the level's plan weigh proposing a new display (P6) itself, here (budget.plan_votes: where it plans)?"""
    return (
        budget.plan_votes
        and state.pace == CORRESPONDENCE
        and state.phase == "play"
        and (budget.plan_unseen or known(state))
    )


def known(state) -> bool:
    """No card of any deck is unseen: nothing hidden is left that a claim could change (the stack aside)."""
    return all(all(seen) for seen in state.seen)


def guess_claims(hints, state, seat: int, planned: dict | None = None) -> None:
    """Replace the other seats' sealed claims in the sample (renew, as determinize leaves them) by the claim the
    playout policy makes from their public lines.  `planned` (plan_rival): the claim each rival's own plan makes,
    taken instead, and made for a rival who has not claimed yet too."""
    planned = planned or {}
    for i, (other, _) in enumerate(list(state.claims)):
        if other == seat:
            continue
        state.claims = [c for c in state.claims if c[0] != other]
        options = claims(hints, state, other, state.legal_actions(other))
        claim = planned.get(other) or (options[0] if options else {"type": "renew"})
        state.claims.insert(i, [other, rounds.plan_of_legal(claim["type"], claim)[1]])
    for other, claim in planned.items():
        if other != seat and not rounds.claimed(state, other) and state.phase == "play":
            state.claims.append([other, rounds.plan_of_legal(claim["type"], claim)[1]])


class Plan:
    """One decision's plan on one sample: `choose` gives the claim, or None to let the generic search decide."""

    def __init__(
        self,
        hints,
        state,
        seat: int,
        rng: random.Random,
        deadline,
        *,
        depth=None,
        samples=None,
        unseen: bool = False,
        rival: bool = False,
        votes: bool = False,
    ):
        self.hints, self.state, self.seat, self.deadline = hints, state, seat, deadline
        self.base = random.Random(rng.getrandbits(64))
        self.rng = self.base
        self.hand = state.hand
        # Read when the plan is made (a benchmark may set the module's values); a level's budget may set its own.
        self.depth = MAX_DEPTH if depth is None else depth
        self.samples = SAMPLES if samples is None else samples
        # Plan while deck cards are unseen too, dealing them again in every sample (strong declines then).
        self.unseen = unseen
        # Guess a rival's sealed claim with her own plan (strong's, where it plans) rather than with the policy.
        self.rival = rival
        # Weigh proposing a new display (P6) before the claim, rather than proposing only when stuck (hints).
        self.votes = votes
        self.planned: dict[int, Action] = {}

    def choose(self, actions: list[Action]) -> Action | None:
        state = self.state
        if state.pace != CORRESPONDENCE:
            return None
        if state.phase == "choose_display":
            wanted = {"type": "choose_display", "size": DISPLAY_SIZE}
            return wanted if state.players == 2 and wanted in actions else None
        if state.phase != "play" or not (self.unseen or known(state)):
            return None
        options = [(a,) for a in claims(self.hints, state, self.seat, actions)]
        propose = [a for a in actions if a.get("type") == "propose_replace"]
        if self.votes and propose:
            # A proposal is made before the claim and does not use it up: each claim is weighed after it too.  The
            # rivals agree at once (P6), so the display is replaced when the round ends unless a top takes it first.
            options += [(propose[0], *claim) for claim in options]
        if len(options) < 2:
            return None
        if self.rival:
            self.planned = self.rival_claims()
        return self.weigh(options, self.depth)[0]

    def rival_claims(self) -> dict[int, Action]:
        """The claim each rival's own plan makes this round, on this sample, where she plans as strong does (every
        deck known); the policy guesses the others (guess_claims)."""
        out = {}
        for other in range(self.state.players):
            if other == self.seat:
                continue
            s = self.state.clone()
            s.claims = [c for c in s.claims if c[0] != other]  # her sealed claim is what is guessed
            if s.phase != "play" or not known(s):
                continue
            claim = Plan(self.hints, s, other, self.base, self.deadline).choose(s.legal_actions(other))
            if claim is not None and claim.get("type") not in VOTES:
                out[other] = claim
        return out

    def weigh(self, options: list[tuple], depth: int) -> tuple:
        """The option (a claim, or a proposal and then a claim) whose hands end best summed over the samples, each
        followed on the same sample with the same rival ties (common numbers), its own next `depth - 1` choices tried
        in full.  Sample after sample until SAMPLES or the time limit: a sample the limit cuts short is left out, so
        every option is judged on the same ones; with none finished, the policy's claim (no proposal)."""
        values = [0.0] * len(options)
        for k in range(self.samples):
            root, seed = self.sample(k)
            try:
                row = []
                for a in options:
                    self.rng = random.Random(seed)
                    row.append(self.after(root, a, depth - 1))
            except _Expired:
                break
            values = [v + r for v, r in zip(values, row)]
        # Ties go to the policy's order: toppo, top, the biggest match, renew; each without a proposal first.
        return options[max(range(len(options)), key=lambda i: (values[i], -i))]

    def sample(self, k: int):
        """The k-th sample: the given one, then the same with the cards nobody has seen (the stack, the covered
        display cards, and the deck cards nobody has seen yet: all that is hidden once the decks are known) dealt
        again, and the sealed claims guessed."""
        s = self.state.clone()
        if k:
            unseen = [(d, i) for d, seen in enumerate(s.seen) for i, known_card in enumerate(seen) if not known_card]
            pool = s.stack + [c for pile in s.display for c in pile[:-1]] + [s.decks[d][i] for d, i in unseen]
            self.base.shuffle(pool)
            for pile in s.display:
                n = len(pile) - 1
                pile[:-1] = pool[:n]
                del pool[:n]
            for d, i in unseen:
                s.decks[d][i] = pool.pop()
            s.stack = pool
            s.seed = self.base.getrandbits(64)
        guess_claims(self.hints, s, self.seat, self.planned)
        return s, self.base.getrandbits(64)

    def after(self, state, actions: tuple, depth: int) -> float:
        """Follow the hand after the seat's `actions` (a claim, or a proposal and then a claim)."""
        s = state.clone()
        for action in actions:
            s.apply_legal(self.seat, action)
        return self.follow(s, depth)

    def follow(self, s, depth: int) -> float:
        """The seat's lead when the hand ends (or after MAX_STEPS), its own next `depth` choices tried in full."""
        seat, hints = self.seat, self.hints
        for _ in range(MAX_STEPS):
            if s.hand != self.hand or s.phase != "play":
                break
            if self.deadline is not None and self.deadline.passed():
                raise _Expired
            actors = s.to_act()
            others = [o for o in actors if o != seat]
            if others:
                action = hints.rollout_action(s, others[0], self.rng)
                s.apply_legal(others[0], action if action is not None else {"type": "renew"})
                continue
            if seat not in actors:
                break
            legal = s.legal_actions(seat)
            forced = hints.forced_action(s, seat, legal, self.rng)
            options = [forced] if forced is not None else claims(hints, s, seat, legal)
            if len(options) > 1 and depth > 0:
                return max(self.after(s, (a,), depth - 1) for a in options)
            s.apply_legal(seat, options[0])
        lead = differential(hints.utilities(s), seat)
        if s.is_over():
            # The match's last hand: its result is what counts, the margin only tells equal results apart.
            lead += WIN if lead > 0 else WIN / 2 if lead == 0 else 0.0
        return lead


def plan(hints, state, seat: int, actions: list[Action], rng: random.Random, deadline, budget=None) -> Action | None:
    """The planned claim (module docstring), or None when the generic search should decide.  At live pace it
    returns at once, drawing nothing from the bot's generator, so the live bot plays exactly as before.  A level's
    budget may set the plan's depth, its samples, whether it plans while deck cards are unseen and whether it guesses
    a rival's sealed claim with her own plan (plan_depth, plan_samples, plan_unseen, plan_rival; no level sets them
    today, bench_bots --budget screens them); without them, the plan above (strong's and expert's)."""
    if state.pace != CORRESPONDENCE:
        return None
    settings = {}
    if budget is not None:
        settings = {
            "depth": budget.plan_depth,
            "samples": budget.plan_samples,
            "unseen": budget.plan_unseen,
            "rival": budget.plan_rival,
            "votes": budget.plan_votes,
        }
    return Plan(hints, state, seat, rng, deadline, **settings).choose(actions)
