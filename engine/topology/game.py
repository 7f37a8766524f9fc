"""Topology as a game of the site: its metadata and option, the setup, and what bots and tests may ask.

Where the rules are silent, the site plays so: the start tile is the top tile of the shuffled stack,
laid on (0, 0)-(1, 0), orientation 0.  The rules are in rules.py (with the other decisions of the
site), the position in state.py, what each seat sees in view.py.
"""

from __future__ import annotations

import random

from engine.core import Game, InvalidOptions, Option, make_rng, register

from .board import Board
from .rules import TIE_BREAKS, start_turn
from .state import TopologyState
from .tiles import TILE_COUNT

START_CELL = (0, 0)  # the first tile lies on (0, 0) and (1, 0), orientation 0


@register
class TopologyGame(Game):
    """Topology by Markus Hagenauer and Gerd Breitenbach: close rings with double-hex tiles."""

    name = "topology"
    title = "Topology"
    min_players = 2
    max_players = 4
    options = (
        Option(
            "advanced",
            "bool",
            False,
            label="Advanced variant",
            help="Two players only: reveal two tiles, then reveal a third or turn a placed tile half a turn.",
        ),
    )
    state_class = TopologyState
    tie_breaks = TIE_BREAKS  # ruling L7
    bot_score_scale = 8.0  # a ring or two: a lead of this size is a comfortable one

    def check_options(self, players: int, options: dict) -> dict:
        if options["advanced"] and players != 2:
            raise InvalidOptions("topology.options.advanced_players", {"game": "topology", "players": players})
        return options

    def new_state(self, players: int, options: dict | None, seed) -> TopologyState:
        options = self.validate_options(players, options)
        stack = list(range(TILE_COUNT))
        make_rng(seed, 0).shuffle(stack)  # ruling G0.2: the only shuffle, from the seeded generator
        start_player = make_rng(seed, 1).randrange(players)  # ruling G0.1
        board = Board()
        board.place(stack.pop(), START_CELL, 0)  # setup: one tile face up in the middle
        state = TopologyState(
            players=players,
            advanced=options["advanced"],
            seed=seed,
            stack=stack,
            start_player=start_player,
            board=board,
            current=start_player,
            turn=0,
            revealed=[],
            steps=[],
            scores=[0] * players,
            last_turn=[None] * players,
            history=[],
        )
        start_turn(state)
        return state

    def determinize(self, view: dict, seat: int, rng: random.Random) -> TopologyState:
        """The seat's view with the face-down tiles (all tiles not yet seen) shuffled by `rng`."""
        seen = {placed["tile"] for placed in view["board"]} | set(view["revealed"])
        stack = [tile for tile in range(TILE_COUNT) if tile not in seen]
        rng.shuffle(stack)
        if len(stack) != view["stack_size"]:
            raise ValueError("The view does not add up: the unseen tiles differ from the stack size.")
        state = TopologyState.from_json(
            {
                "players": view["players"],
                "advanced": view["advanced"],
                "seed": None,
                "stack": stack,
                "start_player": view["start_player"],
                "board": [
                    [placed["tile"], placed["anchor"][0], placed["anchor"][1], placed["orientation"]]
                    for placed in view["board"]
                ],
                "current": view["current"],
                "turn": view["turn"],
                "revealed": view["revealed"],
                "steps": view["steps"],
                "scores": view["scores"],
                "last_turn": view["last_turn"],
                "history": view["history"],
            }
        )
        state.board.prepare()  # a bot lists placements on it and on its copies: built once, shared by the copies
        return state

    def plant_secrets(self, state: TopologyState) -> dict[int | None, list[str]]:
        """Mark the seed and every face-down tile; nobody may see them (the stack size stays)."""
        hidden = [f"topology-secret-seed-{id(state)}"]
        state.seed = hidden[0]
        state.stack = [f"topology-secret-stack-{index}-{id(state)}" for index in range(len(state.stack))]
        hidden += state.stack
        return {None: hidden}
