"""Topology hints: what the turn in progress has earned, and which placements can close a ring.

A ring can close only through a tile placed now (ruling L4), and one tile closes a ring only
if some open line has both of its open ends facing the cells that tile covers; such
placements are "hot" (engine/topology/lines.py finds them).  Every other placement scores nothing at
once, so greedy need not try them all, and playouts can stay cheap.  Reads the board through the
Topology package's public helpers; nothing here looks beyond the determinised state.
"""

from __future__ import annotations

import random

from engine.bots.hints import END_TURN, Hints
from engine.core import Action, State, canonical
from engine.topology.geometry import second_cell
from engine.topology.tiles import design_of, symmetric

from . import planner
from .lines import (
    MEMO_LIMIT,
    LineIndex,
    Trial,
    board_key,
    is_hot,
    line_index,
    place_action,
    random_spot,
    remember_rings,
    turn_points,
)

ROLLOUT_EXACT = 3  # playouts score exactly only the placements that close the most curves
OUTLOOK_SHARE = 0.5  # share of the closable open lines a search credits to the seat to move

# (table, hand, placed this turn) -> the playout policy's ring-closing placement and the rings after it, or None
# when no placement closes a ring (TopologyHints.rollout_action).
_CHOICES: dict[tuple, tuple | None] = {}


class TopologyHints(Hints):
    """Provisional turn scores, hot placements first, a greedy-on-hot-spots playout policy."""

    # Strong: most of a turn's points come from rings its own three tiles build together, so 96 candidate
    # placements are each followed to the end of the turn (greedy follows its best 6 of 48); the best plans then
    # meet the rival's ring-seeking reply, and one replaces the best-planned turn only on clear evidence (margin):
    # the reply is so noisy that the best of several challengers often looks better than it is.
    # 576 (decision 16, the same 20 games): 18/20 against 288's 20/20, at twice the CPU: 288 stays.
    # Expert (decision 30, point 2): strong's search with four times the playouts won 12 of 24 against strong, so it
    # plans each turn's three tiles together against sampled replies of the rival instead (search "plan":
    # engine.topology.planner); the halving settings below serve where the planner declines (three or four players,
    # the advanced variant).  docs/bots.md has what it won against strong.
    budgets = {
        "strong": {"horizon": 2, "plans": 12, "iterations": 288, "refine": 96, "max_candidates": 96, "margin": 0.15},
        "expert": {
            "search": "plan",
            "horizon": 2,
            "plans": 16,
            "iterations": 1152,
            "refine": 96,
            "max_candidates": 96,
            "margin": 0.15,
        },
    }

    provisional = True  # raw_scores already count the turn in progress: no need to confirm to see it
    # rollout_action places only on empty cells touching the table, folded for symmetric designs as listed.
    rollout_actions_legal = True
    # Only the stack's order is hidden, and no legal action depends on it (the hand is face up).
    same_actions_in_every_sample = True

    def raw_scores(self, state: State) -> list[float]:
        scores = [float(s) for s in state.scores()]
        if state.current is not None:
            placed = state.placed_now()
            if placed:
                scores[state.current] += turn_points(state.board, placed)
        return scores

    def candidates(self, state, seat, actions, limit, rng):
        singles, pairs = line_index(state.board).hot()
        other, hot, cold = [], [], []
        for a in actions:
            if a.get("type") != "place":
                other.append(a)
            elif is_hot(a, singles, pairs):
                hot.append(a)
            else:
                cold.append(a)
        rng.shuffle(hot)
        other.sort(key=self.tie_rank)  # end_turn first
        room = max(0, limit - len(other) - len(hot))
        return other + hot + (rng.sample(cold, room) if len(cold) > room else rng.sample(cold, len(cold)))

    def outlook(self, state) -> list[float]:
        """The scores, plus what the seat to move can likely close next: about half the value of
        the three best rings one tile could close (her tiles may not fit)."""
        utils = self.utilities(state)
        if state.current is not None and not state.placed_now():
            utils[state.current] += OUTLOOK_SHARE * self.open_value(state.board)
        return utils

    def open_value(self, board, index: LineIndex | None = None) -> int:
        """Curves of the three best open lines that one tile could close (`index`: the board's open lines)."""
        by_cell, by_pair = (index or line_index(board)).near()
        values = sorted(
            (count + 1 for near in (by_cell, by_pair) for lines in near.values() for _, _, count in lines), reverse=True
        )
        return sum(values[:3])

    def shortlist(self, state, seat, ranked, count):
        """Greedy's best, the best-scoring others, then the quiet placements that leave the rival
        the fewest and smallest rings to close (the search then weighs them by playouts)."""
        if not ranked:
            return []
        floor = ranked[-1][0]
        chosen = [ranked[0][1]] + [a for v, a in ranked[1:] if v > floor][: count // 2]
        keys = {canonical(a) for a in chosen}
        rest = [a for _, a in ranked[1:] if canonical(a) not in keys]
        rest.sort(key=lambda a: self.threat(state, seat, a))
        return chosen + rest[: count - len(chosen)]

    def threat(self, state, seat, action) -> int:
        """Curves of the open lines one tile could close after `action`: what the rival could take."""
        if action.get("type") != "place":
            return 0
        # The open lines after it, derived from today's by that tile alone (no copy of the state is played).
        (q, r), _ = action["cells"]
        return self.open_value(
            state.board, line_index(state.board).with_tile(action["tile"], (q, r), action["orientation"])
        )

    def plan_turn(self, state, seat, actions, rng, deadline, budget):
        """The turn's tiles planned together against the rival's reply (engine.topology.planner); where it declines
        (three or four players, the advanced variant) the level's halving search decides."""
        return planner.plan(self, state, seat, rng, deadline)

    def known_values(self, state, seat, actions, base):
        # Every placement's gain is computed without placing it; other actions are tried.
        trial = Trial(state)
        out = []
        for a in actions:
            if a.get("type") == "place":
                (q, r), _ = a["cells"]
                out.append(base + trial.gain(a["tile"], (q, r), a["orientation"])[0])
            else:
                out.append(None)
        return out

    def playout_copy(self, state: State) -> State:
        """Playouts never list placements (rollout_action reads the open lines), so their copies keep no
        frontier up to date."""
        copy = state.clone()
        copy.board.forget_fits()
        return copy

    def rollout_action(self, state, seat, rng: random.Random) -> Action | None:
        if not state.decided():
            return {"type": "reveal"} if state.stack else {"type": "decline"}
        hand = state.hand()
        if not hand:
            return {"type": END_TURN}
        board = state.board
        table = board_key(board)
        # The ring-closing choice depends on the table, the hand and the turn's placed tiles alone, and playouts
        # meet the same ones again (each candidate's own turn, on every sample): it is remembered.
        key = (table, tuple(hand), tuple(state.placed_now()))
        known = _CHOICES.get(key, False)
        if known:
            tile, anchor, orientation, rings = known
            remember_rings(table | {(tile, (anchor, orientation))}, rings)
            return place_action(tile, anchor, orientation)
        trial = Trial(state)
        quick = []
        sym = symmetric()
        for anchor, orientation, link in trial.lines.hot_links(state.board):
            for tile in hand:
                if orientation >= 3 and sym[design_of(tile)]:
                    continue  # the same placement is listed as (other cell, orientation - 3)
                value = trial.lines.closed_value(tile, anchor, orientation, link)
                if value:
                    quick.append((value, tile, anchor, orientation))
        # The exact gain (inner rings included) only for the few that close the most curves.
        quick.sort(key=lambda q: -q[0])
        best, best_gain, best_rings = None, 0, None
        for _, tile, anchor, orientation in quick[:ROLLOUT_EXACT]:
            gain, after = trial.gain(tile, anchor, orientation)
            if gain > best_gain:
                best, best_gain, best_rings = (tile, anchor, orientation), gain, after
        if known is False:
            if len(_CHOICES) >= MEMO_LIMIT:
                _CHOICES.clear()
            _CHOICES[key] = None if best is None else (*best, best_rings)
        if best is None:
            anchor, orientation = random_spot(state.board, rng)
            tile = rng.choice(hand)
            if orientation >= 3 and symmetric()[design_of(tile)]:
                anchor, orientation = second_cell(anchor, orientation), orientation - 3
            best = (tile, anchor, orientation)
            best_rings = trial.gain(tile, anchor, orientation)[1] or trial.rings
        tile, anchor, orientation = best
        # Seed the ring memory with the table this placement leads to: the next decision reads it.
        remember_rings(table | {(tile, (anchor, orientation))}, best_rings)
        return place_action(tile, anchor, orientation)


HINTS = TopologyHints  # what engine.bots.hints.hints_for gives this game's bots
