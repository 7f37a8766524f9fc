"""What the games remember between decisions (tables, lines and displays met in playouts) never changes a
decision: a strong bot decides the same with it forgotten, and after another decision filled it."""

from __future__ import annotations

import random

import pytest

from engine.bots import budget_for
from engine.bots.search import decide
from engine.core import canonical, get_game
from engine.topology import hints as topology_hints
from engine.topology import lines as topology_lines
from engine.topology import rules as topology_rules
from engine.toppo import cards as toppo_cards


def forget() -> None:
    for memo in (topology_lines._RINGS, topology_lines._LINES, topology_hints._CHOICES, topology_rules._SCORED):
        memo.clear()
    toppo_cards._top_orders.cache_clear()
    toppo_cards._match_choices.cache_clear()


def midgame(name: str, seed: int):
    """A position some random decisions into a 2-player game, the seat to act having a choice."""
    game = get_game(name)
    state = game.new_state(2, game.validate_options(2, {}), f"memos:{seed}")
    rng = random.Random(seed)
    for _ in range(rng.randrange(10, 30)):
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"]))
    return game, state, state.to_act()[0]


# Positions where strong searches (not a forced or single choice).
SEARCHED = [("topology", 0), ("topology", 1), ("toppo", 0), ("toppo", 1), ("topoum", 0), ("topoum", 3)]


@pytest.mark.parametrize("name, seed", SEARCHED)
def test_a_decision_is_the_same_with_memos_forgotten_or_filled(name, seed):
    game, state, seat = midgame(name, seed)
    budget = budget_for("strong", name, iterations=48, seconds=None)

    def decided(bot_seed: int):
        run = decide(game, state.view(seat), seat, random.Random(bot_seed), budget)
        return canonical(run.action) if run.action is not None else None, run.playouts

    forget()
    cold = decided(1)
    assert cold[1] > 0  # it searched
    decided(2)  # another decision on the same position fills the memos differently
    assert decided(1) == cold
