"""The Topoum game object registered with the site."""

from __future__ import annotations

from engine.core import Game, register

from .hidden import determinize, plant_secrets
from .scoring import TIE_BREAKS
from .setup import OPTIONS, check_options, new_state
from .state import TopoumState


@register
class TopoumGame(Game):
    """Topoum (Looping Games, 2016): moles at war score lines of sight."""

    name = "topoum"
    title = "Topoum"
    min_players = 2
    max_players = 4
    options = OPTIONS
    state_class = TopoumState
    tie_breaks = TIE_BREAKS  # ruling T20

    def check_options(self, players: int, options: dict) -> dict:
        return check_options(players, options)

    def new_state(self, players: int, options: dict | None, seed) -> TopoumState:
        opts = self.validate_options(players, options)
        return new_state(TopoumState, players, opts, seed)

    def determinize(self, view: dict, seat: int, rng) -> TopoumState:
        return determinize(view, seat, rng)

    def plant_secrets(self, state: TopoumState) -> dict:
        return plant_secrets(state)
