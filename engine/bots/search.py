"""Strong bot: Monte Carlo search over determinised states, in two variants.

HalvingSearch (the default, budget.search == "halving"): the greedy ranking proposes a short
list of first actions (greedy's own choice is the incumbent); Sequential Halving shares the
playouts among them, playing every candidate on the same determinisations with the same
playout seeds (common random numbers), and a challenger replaces greedy's choice only when
it did better on those same samples.  It spends the budget where greedy is most likely to be
wrong, which at the budgets a web site can afford beats a full tree.

Search (budget.search == "ismcts"): single-observer information-set MCTS.  Every iteration
samples a full state from the bot's view (`game.determinize`) and walks one shared tree,
choosing by UCB among the children legal in that sample (availability counts, Cowling, Powley
& Whitehouse 2012).  A node offers only the hints' candidates (capped, most promising first)
and widens progressively, so huge branching (Topoum, Topology) stays searchable.  The tree
spans `tree_turns` turns.

In both, playouts finish the bot's own turn greedily, let the rivals answer with the hints'
playout policy (or greedy / random, `rollout_greedy`), and stop at `horizon` turns from the
root or at the end of the game; the position is scored by the game's own counting (the
result itself when the game is over, engine.bots.base.evaluate).
"""

from __future__ import annotations

import math
import random

from engine.core import Action, Game, State

from .base import (
    Bot,
    Budget,
    Deadline,
    considered,
    evaluate,
    key_of,
    options_for,
    playable,
    register_bot,
    sample_state,
    score_scale,
    turn_done,
    waits,
)
from .greedy import greedy_step, ranked_actions
from .hints import hints_for

# Iterations when the budget names neither iterations nor seconds.
DEFAULT_ITERATIONS = 200
# A playout stops after this many decisions whatever the horizon (safety net).
MAX_ROLLOUT_STEPS = 400


class Node:
    """Statistics of one action in the tree, seen from the seat that took it."""

    __slots__ = ("action", "actor", "children", "visits", "avail", "totals", "order", "options", "stable")

    def __init__(self, action: Action | None, actor: int | None, seats: int, stable: bool):
        self.action = action
        self.actor = actor
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * seats
        self.order: list[str] | None = None  # candidate keys in preferred expansion order
        self.options: list[tuple[str, Action]] | None = None  # cached candidates while `stable`
        # Stable: reached from the root by the bot's own decisions only, nothing hidden revealed
        # (ruling S3's undo condition), so every sample offers the same actions here.
        self.stable = stable

    def ucb(self, c: float) -> float:
        mean = self.totals[self.actor] / self.visits
        return mean + c * math.sqrt(math.log(self.avail) / self.visits)


class _RootDecision:
    """What both searches share: the seat's view, the budget and its limits, and the ranked root."""

    def __init__(
        self, game: Game, view: dict, seat: int, rng: random.Random, budget: Budget, deadline: Deadline | None = None
    ):
        self.game, self.view, self.seat, self.rng, self.budget = game, view, seat, rng, budget
        # The decision's one time limit, taken before anything else (the bot's `choose` starts it).
        self.deadline = deadline or budget.start()
        self.hints = hints_for(game)
        self.scale = score_scale(game, budget)
        self.playouts = 0
        self.action: Action | None = None  # the decision, once `run` has taken it

    def ranked(self):
        """(sampled state, the greedy ranking of the actions worth searching), or (None, action)
        when nothing is left to search (None: the seat waits)."""
        state, actions = options_for(self.game, self.view, self.seat, self.rng)
        if waits(self.game, state, self.seat, actions):
            return None, None
        actions = considered(self.game, state, self.seat, actions, self.rng, self.budget)
        if len(actions) == 1:
            return None, actions[0]
        planned = self.planned(state, actions)
        if planned is not None:
            return None, planned
        return state, ranked_actions(
            self.game, state, self.seat, actions, self.rng, self.budget, deadline=self.deadline
        )

    def planned(self, state: State, actions: list[Action]) -> Action | None:
        """The game's plan, when it knows one (Hints.plan); None: search."""
        return self.hints.plan(state, self.seat, actions, self.rng, self.deadline, self.budget)

    def playout_limit(self) -> int:
        """Playouts allowed (as many as the time cap lets in when the budget counts none)."""
        b = self.budget
        return b.iterations if b.iterations is not None else (10**9 if b.seconds else DEFAULT_ITERATIONS)

    def step(self, state: State, actor: int, action: Action, from_legal: bool) -> None:
        """Apply a playout's action: unchecked when it was taken from this state's legal list."""
        if from_legal:
            state.apply_legal(actor, action)
        else:
            state.apply(actor, action)  # the hints built it themselves: the game checks it

    def fallback(self, state: State, actor: int, rng: random.Random) -> Action | None:
        """A playout step where the hints offer none: greedy by chance, else random (from the legal list)."""
        b = self.budget
        if b.rollout_greedy and rng.random() < b.rollout_greedy:
            return greedy_step(self.hints, state, actor, rng, b.rollout_candidates)
        legal = playable(state, actor)
        return rng.choice(legal) if legal else None


class Search(_RootDecision):
    """One decision's search; holds the tree and the budget."""

    def run(self) -> Action | None:
        state, ranked = self.ranked()
        if state is None:
            return ranked
        self.seats = len(state.scores())
        root = Node(None, None, self.seats, stable=True)
        root.options = [(key_of(a), a) for _, a in ranked]
        root.order = [k for k, _ in root.options]
        limit = self.playout_limit()
        sample = state
        while self.playouts < limit and not self.deadline.passed():
            self.iterate(root, sample)
            self.playouts += 1
            sample = sample_state(self.game, self.view, self.seat, self.rng)
        best, best_score = None, None
        for (_, k), child in root.children.items():
            score = (child.visits, child.totals[self.seat] / child.visits if child.visits else 0.0)
            if best_score is None or score > best_score:
                best, best_score = child.action, score
        return best if best is not None else ranked[0][1]

    def options(self, node: Node, state: State, actor: int) -> list[tuple[str, Action]]:
        """The candidates at `node` that are legal in this sample, in the node's preferred order."""
        if node.options is not None:
            return node.options
        legal = playable(state, actor)
        if node.order is None:
            cands = self.hints.candidates(state, actor, legal, self.budget.max_candidates, self.rng)
            keyed = [(key_of(a), a) for a in cands]
            node.order = [k for k, _ in keyed]
        else:
            by_key = {key_of(a): a for a in legal}
            keyed = [(k, by_key[k]) for k in node.order if k in by_key]
            if not keyed and legal:  # this sample allows none of the first sample's candidates
                keyed = [
                    (key_of(a), a)
                    for a in self.hints.candidates(state, actor, legal, self.budget.max_candidates, self.rng)
                ]
        if node.stable:
            node.options = keyed
        return keyed

    def iterate(self, root: Node, state: State) -> None:
        """One selection, expansion, playout and backup on the sampled `state`."""
        node, path, turns = root, [root], 0
        b = self.budget
        while not state.is_over() and turns < b.tree_turns:
            actor = self.seat if node is root else self.hints.active(state, self.rng)
            if actor is None:
                break
            keyed = self.options(node, state, actor)
            if not keyed:
                break
            present = [node.children[(actor, k)] for k, _ in keyed if (actor, k) in node.children]
            allowed = max(1, int(b.widening * math.sqrt(node.visits + 1)))
            for c in present:
                c.avail += 1
            if len(present) < min(allowed, len(keyed)):
                k, action = next((k, a) for k, a in keyed if (actor, k) not in node.children)
                child = Node(action, actor, self.seats, stable=False)
                node.children[(actor, k)] = child
                expanded = True
            else:
                fresh = [c for c in present if c.visits == 0]
                child = fresh[0] if fresh else max(present, key=lambda c: c.ucb(b.exploration))
                expanded = False
            # Checked: a stable node's actions were listed by the first sample, not by this one.
            state.apply(actor, child.action)
            done = turn_done(state, actor, child.action)
            if expanded:
                child.stable = node.stable and actor == self.seat and not done and state.undoable(actor)
            turns += done
            path.append(child)
            node = child
            if expanded:
                break
        rewards = self.rollout(state, turns)
        for n in path:
            n.visits += 1
            totals = n.totals
            for i, r in enumerate(rewards):
                totals[i] += r

    def rollout(self, state: State, turns: int) -> list[float]:
        """Play on to the horizon with the hints' policy (else greedy by chance, else random); score it."""
        b = self.budget
        horizon = b.horizon if b.horizon is not None else math.inf
        steps = 0
        while not state.is_over() and turns < horizon and steps < MAX_ROLLOUT_STEPS:
            actor = self.hints.active(state, self.rng)
            if actor is None:
                break
            action = self.hints.rollout_action(state, actor, self.rng)
            from_legal = action is None or self.hints.rollout_actions_legal
            if action is None:
                action = self.fallback(state, actor, self.rng)
            if action is None:
                break
            self.step(state, actor, action, from_legal)
            steps += 1
            turns += turn_done(state, actor, action)
        return evaluate(self.game, state, self.scale, self.budget.result_weight)


class HalvingSearch(_RootDecision):
    """Sequential Halving at the root (Karnin, Koren & Somekh 2013; Cazenave's SHOT) over
    determinised playouts with common random numbers.

    The greedy ranking proposes `plans` first actions.  Each round plays every surviving
    candidate on the same fresh determinisations with the same playout seeds, so the
    candidates are compared on identical hidden facts and identical luck, and the worse half
    is dropped.  A playout finishes the bot's own turn greedily, lets the rivals answer with
    the playout policy, and is scored at `horizon` turns like the tree search's playouts.
    """

    def run(self) -> Action | None:
        state, ranked = self.ranked()
        if state is None:
            return ranked
        # Greedy's choice is the incumbent: it plays every sample, and a challenger replaces it
        # only if it did better on the same samples by more than `budget.margin`.
        shortlist = self.hints.shortlist(state, self.seat, ranked, max(2, self.budget.plans))
        incumbent, alive = shortlist[0], shortlist[1:]
        if not alive:
            return incumbent
        total = self.playout_limit()
        rounds = max(1, math.ceil(math.log2(len(alive) + 1)))
        lead = {key_of(a): 0.0 for a in alive}  # summed advantage over the incumbent, sample by sample
        counts = {key_of(a): 0 for a in alive}
        first = True
        while self.playouts < total and not self.deadline.passed():
            per = max(1, (total // rounds) // (len(alive) + 1))
            for _ in range(per):
                sample = state if first else sample_state(self.game, self.view, self.seat, self.rng)
                # The candidates as this sample lists them (the first sample listed them itself).
                same = first or self.hints.same_actions_in_every_sample
                own = None if same else {key_of(a): a for a in playable(sample, self.seat)}
                first = False
                seed = self.rng.getrandbits(64)
                base = self.playout(sample, incumbent, seed, own)
                for a in alive:
                    k = key_of(a)
                    lead[k] += self.playout(sample, a, seed, own) - base
                    counts[k] += 1
                self.playouts += len(alive) + 1
                if self.deadline.passed():
                    break
            alive.sort(key=lambda a: -lead[key_of(a)] / max(1, counts[key_of(a)]))  # stable: greedy order breaks ties
            if len(alive) == 1:
                break
            alive = alive[: max(1, len(alive) // 2)]
        best = alive[0]
        k = key_of(best)
        if counts[k] and lead[k] / counts[k] > self.budget.margin:
            return best
        return incumbent

    def playout(self, sample: State, action: Action, seed: int, own: dict[str, Action] | None) -> float:
        """The bot's reward after `action` on a copy of `sample`, its turn finished greedily and play
        continued to the horizon.  `own` maps keys to the sample's legal actions (None: the sample
        listed `action` itself)."""
        rng = random.Random(seed)
        b = self.budget
        horizon = b.horizon if b.horizon is not None else math.inf
        state = self.hints.playout_copy(sample)
        mine = action if own is None else own.get(key_of(action))
        # An action the sample does not list cannot happen when legality follows the view: the game refuses it.
        self.step(state, self.seat, mine or action, mine is not None)
        turns = int(turn_done(state, self.seat, action))
        steps = 0
        while not state.is_over() and turns < horizon and steps < MAX_ROLLOUT_STEPS:
            actor = self.hints.active(state, rng)
            if actor is None:
                break
            action = self.hints.rollout_action(state, actor, rng)
            from_legal = action is None or self.hints.rollout_actions_legal
            if action is None and turns == 0 and actor == self.seat:
                # The bot's own turn is finished as its greedy self would finish it.
                action = greedy_step(self.hints, state, actor, rng, b.max_candidates)
            elif action is None:
                action = self.fallback(state, actor, rng)
            if action is None:
                break
            self.step(state, actor, action, from_legal)
            steps += 1
            turns += turn_done(state, actor, action)
        return evaluate(self.game, state, self.scale, self.budget.result_weight)[self.seat]


class PlanSearch(HalvingSearch):
    """A game's own turn planner (Hints.plan_turn, e.g. Topology's, engine.topology.planner), Sequential Halving
    where it declines.  Named by a level's budget (search "plan"), so other levels keep their search."""

    def planned(self, state: State, actions: list[Action]) -> Action | None:
        planned = super().planned(state, actions)
        if planned is None and not self.deadline.passed():
            planned = self.hints.plan_turn(state, self.seat, actions, self.rng, self.deadline, self.budget)
        return planned


SEARCHES = {"ismcts": Search, "halving": HalvingSearch, "plan": PlanSearch}


@register_bot
class StrongBot(Bot):
    """Monte Carlo search with determinisation, within a playout and/or time budget.

    `budget.search` picks the algorithm: "halving" (root Sequential Halving with common
    random numbers, the default) or "ismcts" (the full information-set tree).
    """

    name = "strong"
    label = "Strong"

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action | None:
        return decide(game, view, seat, rng, budget).action


@register_bot
class ExpertBot(StrongBot):
    """Strong's searches with more to spend (decision 30, point 2): its level's budget differs, not the code; a game's
    budget may name its own turn planner (search "plan": Topology's)."""

    name = "expert"
    label = "Expert"


def decide(game: Game, view: dict, seat: int, rng: random.Random, budget: Budget) -> _RootDecision:
    """One strong decision, run: its `action` (None: wait) and the `playouts` it took (the benchmark reads them).

    The time limit starts here, before the position is sampled and the candidates ranked: a
    decision's `seconds` cap its whole thinking.
    """
    deadline = budget.start()
    search = SEARCHES[budget.search](game, view, seat, rng, budget, deadline)
    search.action = search.run()
    return search
