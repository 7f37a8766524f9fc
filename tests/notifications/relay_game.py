"""Relay: a tiny game with a hidden hand, for the site's Celery and notification tests.

It keeps those tests apart from the real engines, which change while they are written.
Each seat holds secret cards ("c" + 6 hex digits, worth the number mod 10).
- In turns (the default): the seat to act plays a card, then confirms with end_turn
  (undo allowed before that), like a Topoum or Topology turn of several decisions.
- Together (option "together"): every seat plays or passes each round at once, like a
  Toppo round; a missed deadline passes (`timeout_action`, as Toppo renews, ruling P4).
Not registered on import: tests install it with `install(monkeypatch)`, the worker of the
integration tests through tests/integration/worker_games.py.
"""
from __future__ import annotations

from engine.core import Game, IllegalAction, NotYourDecision, Option, Result, State, make_rng


def card_value(card: str) -> int:
    return int(card[1:], 16) % 10


class RelayState(State):
    def __init__(self, data: dict):
        self.d = data

    # whose decision
    def to_act(self):
        d = self.d
        if d["over"]:
            return []
        if d["together"]:
            return [s for s in range(d["players"]) if s not in d["acted"]]
        return [d["current"]]

    def turn_marker(self):
        return self.d["round"] if self.d["together"] else self.d["turns"]

    def legal_actions(self, seat):
        if seat not in self.to_act():
            return []
        d = self.d
        if d["together"]:
            return [{"type": "play", "card": c} for c in d["hands"][seat]] + [{"type": "pass"}]
        if d["phase"] == "confirm":
            return [{"type": "end_turn"}, {"type": "undo"}]
        return [{"type": "play", "card": c} for c in d["hands"][seat]]

    def undoable(self, seat):
        return not self.d["together"] and self.d["phase"] == "confirm" and seat in self.to_act()

    def apply(self, seat, action):
        if seat not in self.to_act():
            raise NotYourDecision("It is not your turn to decide.")
        if action not in self.legal_actions(seat):
            raise IllegalAction("That is not one of your cards, or not a move you can make now.")
        d = self.d
        kind = action["type"]
        if kind == "play":
            d["hands"][seat].remove(action["card"])
            d["played"][seat].append(action["card"])
            d["scores"][seat] += card_value(action["card"])
        if d["together"]:
            d["acted"].append(seat)
            if len(d["acted"]) == d["players"]:
                d["acted"], d["round"] = [], d["round"] + 1
                d["over"] = d["round"] >= d["rounds"]
            return
        if kind == "play":
            d["phase"] = "confirm"
        elif kind == "undo":
            card = d["played"][seat].pop()
            d["hands"][seat].append(card)
            d["scores"][seat] -= card_value(card)
            d["phase"] = "play"
        else:  # end_turn
            d["phase"], d["turns"] = "play", d["turns"] + 1
            d["current"] = (d["current"] + 1) % d["players"]
            d["over"] = not any(d["hands"])

    # information
    def view(self, seat):
        d = self.d
        return {"hand": list(d["hands"][seat]) if seat is not None else None,
                "hand_sizes": [len(h) for h in d["hands"]], "played": [list(p) for p in d["played"]],
                "scores": list(d["scores"]), "current": d["current"], "phase": d["phase"], "round": d["round"],
                "acted": list(d["acted"]), "turns": d["turns"], "over": d["over"], "players": d["players"],
                "together": d["together"], "rounds": d["rounds"]}

    def scores(self):
        return list(self.d["scores"])

    def results(self):
        s = self.d["scores"]
        return [Result(i, 1 + sum(1 for x in s if x > s[i]), s[i]) for i in range(len(s))]

    def describe(self, seat, action, before=None):
        if action["type"] == "play":
            return f"Seat {seat + 1} played {action['card']} ({card_value(action['card'])} points)."
        return {"pass": f"Seat {seat + 1} passed.", "undo": f"Seat {seat + 1} took back a card.",
                "end_turn": f"Seat {seat + 1} ended the turn."}[action["type"]]

    def to_json(self):
        import copy
        return copy.deepcopy(self.d)

    @classmethod
    def from_json(cls, data):
        import copy
        return cls(copy.deepcopy(data))


class RelayGame(Game):
    name = "relay"
    title = "Relay"
    min_players, max_players = 2, 4
    state_class = RelayState
    options = (Option("rounds", "int", 3, min_value=1, max_value=20), Option("together", "bool", False))

    def new_state(self, players, options, seed):
        options = self.validate_options(players, options)
        rng = make_rng(seed, 0)
        hands = [[f"c{rng.randrange(16 ** 6):06x}" for _ in range(options["rounds"])] for _ in range(players)]
        return RelayState({"players": players, "rounds": options["rounds"], "together": options["together"],
                           "hands": hands, "played": [[] for _ in range(players)], "scores": [0] * players,
                           "current": 0, "phase": "play", "round": 0, "acted": [], "turns": 0, "over": False})

    def determinize(self, view, seat, rng):
        hands = [[f"c{rng.randrange(16 ** 6):06x}" for _ in range(n)] for n in view["hand_sizes"]]
        hands[seat] = list(view["hand"])
        data = {k: view[k] for k in ("players", "rounds", "together", "current", "phase", "round", "turns", "over")}
        data.update(hands=hands, played=[list(p) for p in view["played"]], scores=list(view["scores"]),
                    acted=list(view["acted"]))
        return RelayState(data)

    def timeout_action(self, state, seat):
        return {"type": "pass"} if state.d["together"] else None


def install(monkeypatch) -> RelayGame:
    """Register Relay for one test; the registry is restored afterwards."""
    from engine import core

    core.all_games()  # load the real games first, so the registry is complete when restored
    game = RelayGame()
    monkeypatch.setitem(core._REGISTRY, "relay", game)
    return game
