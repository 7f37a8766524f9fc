"""Random bot: any legal action, each equally likely (never undo; waits where the game's hints say so)."""

from __future__ import annotations

import random

from engine.core import Action, Game

from .base import Bot, Budget, options_for, register_bot, waits


@register_bot
class RandomBot(Bot):
    """Uniform over the seat's legal actions in a state sampled from its view."""

    name = "random"
    label = "Random"

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action | None:
        state, actions = options_for(game, view, seat, rng)
        if waits(game, state, seat, actions):
            return None
        return rng.choice(actions)
