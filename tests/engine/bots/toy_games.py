"""Two tiny games that exercise the bot protocol without depending on the real games.

Coins: coins in a line; a turn takes the coin at either end, then confirms with end_turn
(undo allowed before that).  Each seat has a hidden bonus only she sees, so bots must
determinise.  Greedy (bigger end) is known to be beatable by looking ahead.

Grab: both seats decide at once (like Toppo); each grab takes any remaining coin.
Neither game is registered: tests pass the Game objects to the bots directly.
"""
from __future__ import annotations

import random

from engine.core import Game, IllegalAction, NotYourDecision, Result, State, make_rng


class CoinsState(State):
    def __init__(self, coins, taken, bonus, turn, phase, last=None, lower=False):
        self.coins, self.taken, self.bonus = list(coins), list(taken), list(bonus)
        self.turn, self.phase, self.last, self.lower = turn, phase, last, lower

    def to_act(self):
        return [] if (not self.coins and self.phase == "take") else [self.turn]

    def legal_actions(self, seat):
        if seat not in self.to_act():
            return []
        if self.phase == "take":
            ends = ["left", "right"] if len(self.coins) > 1 else ["left"]
            return [{"type": "take", "end": e} for e in ends]
        return [{"type": "end_turn"}, {"type": "undo"}]

    def apply(self, seat, action):
        self.check(seat, action)
        t = action["type"]
        if t == "take":
            coin = self.coins.pop(0 if action["end"] == "left" else -1)
            self.taken[seat] += coin
            self.last = (action["end"], coin)
            self.phase = "confirm"
        elif t == "undo":
            end, coin = self.last
            self.taken[seat] -= coin
            self.coins.insert(0 if end == "left" else len(self.coins), coin)
            self.phase, self.last = "take", None
        else:
            self.phase, self.last = "take", None
            self.turn = 1 - self.turn

    def undoable(self, seat):
        return self.phase == "confirm" and seat == self.turn

    def view(self, seat):
        return {"coins": list(self.coins), "taken": list(self.taken), "turn": self.turn, "phase": self.phase,
                "last": list(self.last) if self.last else None,
                "my_bonus": self.bonus[seat] if seat is not None else None}

    def scores(self):
        sign = -1 if self.lower else 1
        return [sign * (t + b) for t, b in zip(self.taken, self.bonus)]

    def results(self):
        s = [t + b for t, b in zip(self.taken, self.bonus)]
        return [Result(i, 1 + sum(1 for x in s if x > s[i]), s[i]) for i in range(2)]

    def to_json(self):
        return {"coins": self.coins, "taken": self.taken, "bonus": self.bonus, "turn": self.turn,
                "phase": self.phase, "last": list(self.last) if self.last else None, "lower": self.lower}

    @classmethod
    def from_json(cls, d):
        return cls(d["coins"], d["taken"], d["bonus"], d["turn"], d["phase"],
                   tuple(d["last"]) if d["last"] else None, d["lower"])

    def clone(self):
        return CoinsState(self.coins, self.taken, self.bonus, self.turn, self.phase, self.last, self.lower)


class CoinsGame(Game):
    name = "coins"
    title = "Coins"
    min_players = max_players = 2
    state_class = CoinsState
    lower = False  # the "lower is better" twin negates scores and sets higher_is_better False

    def new_state(self, players, options, seed):
        rng = make_rng(seed, 0)
        n = (options or {}).get("length", 12)
        coins = [rng.randint(1, 9) for _ in range(n)]
        return CoinsState(coins, [0, 0], [rng.randint(0, 3), rng.randint(0, 3)], 0, "take", lower=self.lower)

    def determinize(self, view, seat, rng):
        bonus = [rng.randint(0, 3), rng.randint(0, 3)]
        bonus[seat] = view["my_bonus"]
        return CoinsState(view["coins"], view["taken"], bonus, view["turn"], view["phase"],
                          tuple(view["last"]) if view["last"] else None, self.lower)


class LowCoinsGame(CoinsGame):
    """Coins scored as penalties: scores() are negated and lower is better."""

    name = "lowcoins"
    lower = True
    higher_is_better = False

    # results() stays the same: the seat with more coins still wins.


class GrabState(State):
    def __init__(self, coins, taken):
        self.coins, self.taken = list(coins), list(taken)

    def to_act(self):
        return [0, 1] if self.coins else []

    def legal_actions(self, seat):
        if seat not in self.to_act():
            return []
        return [{"type": "grab", "index": i} for i in range(len(self.coins))]

    def apply(self, seat, action):
        if seat not in self.to_act():
            raise NotYourDecision("The game is over.")
        i = action.get("index")
        if action.get("type") != "grab" or not isinstance(i, int) or not 0 <= i < len(self.coins):
            raise IllegalAction("There is no such coin to grab.")
        self.taken[seat] += self.coins.pop(i)

    def view(self, seat):
        return {"coins": list(self.coins), "taken": list(self.taken)}

    def scores(self):
        return list(self.taken)

    def results(self):
        s = self.taken
        return [Result(i, 1 + sum(1 for x in s if x > s[i]), s[i]) for i in range(2)]

    def clone(self):
        return GrabState(self.coins, self.taken)


class GrabGame(Game):
    name = "grab"
    title = "Grab"
    min_players = max_players = 2
    state_class = GrabState

    def new_state(self, players, options, seed):
        rng = make_rng(seed, 0)
        return GrabState([rng.randint(1, 9) for _ in range(8)], [0, 0])

    def determinize(self, view, seat, rng):
        return GrabState(view["coins"], view["taken"])


def play(game: Game, state: State, choosers: dict, rng: random.Random, max_steps: int = 10_000) -> State:
    """Play to the end; `choosers[seat](view, seat)` returns an action; simultaneous seats in random order."""
    for _ in range(max_steps):
        actors = state.to_act()
        if not actors:
            return state
        order = list(actors) if len(actors) == 1 else rng.sample(actors, len(actors))
        for seat in order:
            action = choosers[seat](state.view(seat), seat)
            if action is not None:  # None: this seat waits, another acts
                state.apply(seat, action)
                break
        else:
            raise AssertionError("every seat to act waits")
    raise AssertionError("game did not end")
