"""Strong bot: single-observer information-set MCTS (SO-ISMCTS) over determinised states.

Every iteration samples a full state from the bot's view (`game.determinize`), walks the
one shared tree with UCB restricted to the actions legal in that sample (availability
counts, Cowling, Powley & Whitehouse 2012), widens a node progressively so that huge
branching (Topoum, Topology) stays searchable, plays a short rollout and scores the
position by the game's own counting.  The root's candidates are expanded in the order of
the greedy bot's turn values, so the search starts from what greedy would play and keeps
it only if the playouts agree.
"""
from __future__ import annotations

import math
import random
import time

from engine.core import Action, Game, State

from .base import (
    Bot, Budget, cap, evaluate, key_of, options_for, playable, register_bot, sample_state,
    score_scale, turn_done,
)
from .greedy import best_of, peek_value, ranked_actions

# Iterations when the budget names neither iterations nor seconds.
DEFAULT_ITERATIONS = 200
# Candidates a greedy rollout step compares; small, because rollouts must be cheap.
ROLLOUT_CANDIDATES = 8


class Node:
    """Statistics of one action in the tree, seen from the seat that took it."""

    __slots__ = ("action", "actor", "children", "visits", "avail", "totals", "order")

    def __init__(self, action: Action | None, actor: int | None, seats: int):
        self.action = action
        self.actor = actor
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * seats
        self.order: list[str] | None = None  # preferred expansion order (root only)

    def ucb(self, c: float) -> float:
        mean = self.totals[self.actor] / self.visits
        return mean + c * math.sqrt(math.log(self.avail) / self.visits)


class Search:
    """One decision's search; holds the tree and the budget."""

    def __init__(self, game: Game, view: dict, seat: int, rng: random.Random, budget: Budget):
        self.game, self.view, self.seat, self.rng, self.budget = game, view, seat, rng, budget
        self.scale = score_scale(game, budget)
        self.iterations_done = 0

    def run(self) -> Action:
        state, actions = options_for(self.game, self.view, self.seat, self.rng)
        if len(actions) == 1:
            return actions[0]
        seats = len(state.scores())
        root = Node(None, None, seats)
        # Expand the root in greedy order: the search then refines greedy's best ideas first.
        ranked = ranked_actions(self.game, state, self.seat, actions, self.rng, self.budget.max_candidates)
        root.order = [key_of(a) for _, a in ranked]
        root_keys = {key_of(a): a for a in actions}
        limit, deadline = self.limits()
        first = state
        while self.iterations_done < limit and time.perf_counter() < deadline:
            sample = first if first is not None else sample_state(self.game, self.view, self.seat, self.rng)
            first = None
            self.iterate(root, sample)
            self.iterations_done += 1
        best = None
        for k, child in root.children.items():
            if k not in root_keys:
                continue
            mean = child.totals[self.seat] / child.visits if child.visits else 0.0
            score = (child.visits, mean)
            if best is None or score > best[0]:
                best = (score, k)
        if best is None:
            return ranked[0][1]
        return root_keys[best[1]]

    def limits(self) -> tuple[int, float]:
        b = self.budget
        iterations = b.iterations if b.iterations is not None else (10**9 if b.seconds else DEFAULT_ITERATIONS)
        deadline = time.perf_counter() + b.seconds if b.seconds else math.inf
        return iterations, deadline

    def iterate(self, root: Node, state: State) -> None:
        """One selection, expansion, rollout and backup on the sampled `state`."""
        node, path = root, [root]
        expanded = False
        while not state.is_over() and not expanded:
            actors = state.to_act()
            actor = self.seat if node is root else (actors[0] if len(actors) == 1 else self.rng.choice(actors))
            legal = playable(state, actor)
            if not legal:
                break
            keyed = {f"{actor}|{key_of(a)}" if node is not root else key_of(a): a for a in legal}
            present = [(k, node.children[k]) for k in keyed if k in node.children]
            allowed = max(1, int(self.budget.widening * math.sqrt(node.visits + 1)))
            if len(present) < min(allowed, len(keyed)):
                k = self.pick_new(node, state, actor, keyed)
                child = Node(keyed[k], actor, len(node.totals))
                node.children[k] = child
                for _, c in present:
                    c.avail += 1
                node = child
                expanded = True
            else:
                for _, c in present:
                    c.avail += 1
                unvisited = [c for _, c in present if c.visits == 0]
                if unvisited:
                    node = unvisited[0]
                else:
                    node = max((c for _, c in present), key=lambda c: c.ucb(self.budget.exploration))
            state.apply(actor, node.action)
            path.append(node)
        rewards = self.rollout(state)
        for n in path:
            n.visits += 1
            for i, r in enumerate(rewards):
                n.totals[i] += r

    def pick_new(self, node: Node, state: State, actor: int, keyed: dict[str, Action]) -> str:
        """The next action to add under `node`: the root follows greedy order, others are random."""
        if node.order is not None:
            for k in node.order:
                if k in keyed and k not in node.children:
                    return k
        fresh = [k for k in keyed if k not in node.children]
        return self.rng.choice(fresh)

    def rollout(self, state: State) -> list[float]:
        """Play on for a few turns (random, or greedy with some chance) and score the result."""
        turns = 0
        steps = 0
        b = self.budget
        while not state.is_over() and turns < b.rollout_turns and steps < 200:
            actors = state.to_act()
            actor = actors[0] if len(actors) == 1 else self.rng.choice(actors)
            actions = playable(state, actor)
            if not actions:
                break
            if b.rollout_greedy and self.rng.random() < b.rollout_greedy:
                options = cap(actions, ROLLOUT_CANDIDATES, self.rng)
                action = best_of(self.game, state, actor, options, self.rng,
                                 lambda a: peek_value(self.game, state, actor, a))
            else:
                action = self.rng.choice(actions)
            state.apply(actor, action)
            steps += 1
            if turn_done(state, actor, action):
                turns += 1
        return evaluate(self.game, state, self.scale)


@register_bot
class StrongBot(Bot):
    """Monte Carlo tree search with determinisation, within a playout and/or time budget."""

    name = "strong"
    label = "Strong"

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action:
        return Search(game, view, seat, rng, budget).run()
