"""Topoum hints: a cut-off playout also counts what the game's end would add (ruling T20).

Category majorities and sets of four categories are scored only when the war is over, so a
search that stops a few turns ahead would not see them; counting them as they would stand if
the game ended now lets it value the cards it discards.  Crates count for the moles standing
on them (their values in a determinised state are the seat's own knowledge or a sample).
"""

from __future__ import annotations

from engine.bots.hints import Hints
from engine.topoum.board import CRATE
from engine.topoum.scoring import final_scores


class TopoumHints(Hints):
    """Medals now plus the end-of-game bonuses the discard piles and crates would bring."""

    # Strong: cheap to simulate, so look one turn further: moles placed now are valued by the lines they make next
    # turn, and end-of-game bonuses count (outlook). 320 playouts would take the CPU time 256 took before decision 16's
    # cheaper peeks, but did not play better against greedy (bench_bots.py, 10 games each): 256 stays.
    # 512 (decision 16, the same 20 games): 15/20 against 256's 18/20, so 256 stays.
    # Expert (decision 30, point 2): four times strong's playouts; docs/bots.md has what it won against strong.
    budgets = {"strong": {"horizon": 3, "iterations": 256}, "expert": {"horizon": 3, "iterations": 1024}}

    def cannot_end_turn(self, state, seat: int) -> bool:
        """A decision still pending (a card, its target, a barracks to take back) is answered before the
        turn can end (turn.turn_actions)."""
        return state.pending is not None

    def outlook(self, state) -> list[float]:
        utils = self.utilities(state)
        if state.phase != "play":
            return utils
        bonus = final_scores(state.piles)
        for s in range(len(utils)):
            utils[s] += bonus[s]["categories"] + bonus[s]["sets"]
        values = state.crate_values
        for x, owner in enumerate(state.mole):
            f = state.feat[x]
            if owner >= 0 and f >= CRATE and f - CRATE < len(values):
                value = values[f - CRATE]
                if isinstance(value, (int, float)):
                    utils[owner] += value
        return utils


HINTS = TopoumHints  # what engine.bots.hints.hints_for gives this game's bots
