"""Per-game knowledge the bots may use, with defaults that need only the game protocol.

Every hint works on a determinised state, so it knows no more than the seat's view.
A game gets its hints from `hints_for(game)`: the class its own package names `HINTS` in
`engine/<game>/hints.py` (each game's knowledge stays in its package), else the defaults.

What the bots read from the game protocol besides the rules: Game.higher_is_better (False when
scores are penalties, Toppo) and Game.bot_score_scale (a score lead that is about a sure win).
A game whose scores do not count the turn in progress until it is confirmed says so in its hints
(`raw_scores`, `provisional`), as Topology's do.
"""

from __future__ import annotations

import importlib
import random
import sys

from engine.core import Action, Game, State, get_game

END_TURN = "end_turn"


class Hints:
    """Defaults: scores as the game counts them, candidates sampled without bias."""

    # True when raw_scores count what the turn in progress has earned (then a peek need not confirm).
    provisional = False
    # True when the seat's legal actions follow from its view alone, so every determinisation lists the very
    # same ones and a search may play a candidate on any sample unchecked (no per-sample lookup).
    same_actions_in_every_sample = False
    # Per bot level, the Budget fields this game's bots use over the level's own (engine.bots.levels.budget_for),
    # tuned with bench/bench_bots.py.
    budgets: dict[str, dict] = {}

    def __init__(self, game: Game):
        self.game = game
        self.sign = 1.0 if game.higher_is_better else -1.0

    # --- how good a position is -----------------------------------------------------------
    def raw_scores(self, state: State) -> list[float]:
        """The game's scores (a game's hints may count what the turn in progress has earned)."""
        return list(state.scores())

    def utilities(self, state: State) -> list[float]:
        """Scores turned so that more is always better."""
        return [self.sign * float(s) for s in self.raw_scores(state)]

    def outlook(self, state: State) -> list[float]:
        """What a search scores a cut-off playout by: by default the utilities; a game may add what
        the position promises (end-of-game bonuses).  Greedy never uses it: it plays by the score now."""
        return self.utilities(state)

    # --- which actions to look at ---------------------------------------------------------
    def candidates(
        self, state: State, seat: int, actions: list[Action], limit: int, rng: random.Random
    ) -> list[Action]:
        """At most `limit` actions worth examining, the most promising first (default: a fair sample)."""
        if len(actions) <= limit:
            out = list(actions)
            rng.shuffle(out)
            return out
        ends = [a for a in actions if a.get("type") == END_TURN]
        rest = [a for a in actions if a.get("type") != END_TURN]
        return ends + rng.sample(rest, max(0, limit - len(ends)))

    def shortlist(self, state: State, seat: int, ranked: list[tuple[float, Action]], count: int) -> list[Action]:
        """The first actions a search lets compete, best first (default: greedy's best `count`)."""
        return [a for _, a in ranked[:count]]

    def plan(
        self, state: State, seat: int, actions: list[Action], rng: random.Random, deadline, budget=None
    ) -> Action | None:
        """A searching bot's choice where the game knows a better way than sampled playouts (e.g. an exact plan
        once nothing hidden can change the outcome); None: the generic search decides.  `state` is a sample of
        the seat's view (never changed here), `deadline` the decision's time limit (engine.bots.base.Deadline),
        `budget` the level's (its plan_* settings)."""
        return None

    def plan_turn(
        self, state: State, seat: int, actions: list[Action], rng: random.Random, deadline, budget
    ) -> Action | None:
        """The choice of a game's own turn planner, for a level whose budget names the "plan" search
        (engine.bots.search.PlanSearch); None: that search falls back to Sequential Halving.  Same terms as `plan`."""
        return None

    def known_values(self, state: State, seat: int, actions: list[Action], base: float) -> list[float | None]:
        """Per action, its peek value when the hints know it without trying (`base`: the lead now);
        None where the bot must try the action on a copy."""
        return [None] * len(actions)

    def cannot_end_turn(self, state: State, seat: int) -> bool:
        """True when the game knows at a glance that `seat` may not confirm her turn now, so a peek need
        not try it (a refused try costs a game its reason); False: try it."""
        return False

    def forced_action(
        self, state: State, seat: int, actions: list[Action], rng: random.Random, budget=None
    ) -> Action | None:
        """An action greedy and strong bots take without weighing others (e.g. P6: bots agree at once); `budget`: the
        deciding level's, where a level may weigh what others are forced to (None: a playout's step)."""
        return None

    def idle(self, state: State, seat: int, actions: list[Action]) -> bool:
        """True when the seat, though allowed to act, has nothing worth doing now and should wait
        (only meaningful where several seats may act at once, as at a live Toppo table)."""
        return False

    def active(self, state: State, rng: random.Random) -> int | None:
        """The seat that acts next in a playout: one of those deciding that is not idle, at random."""
        actors = state.to_act()
        if len(actors) == 1:
            return actors[0]
        busy = [s for s in actors if not self.idle_now(state, s)]
        return rng.choice(busy) if busy else None

    def idle_now(self, state: State, seat: int) -> bool:
        """`idle` for the seat's actions as they are now; a game may read it off the state more cheaply."""
        return self.idle(state, seat, state.legal_actions(seat))

    def tie_rank(self, action: Action) -> int:
        """Among equally good actions the lowest rank wins: confirm the turn first (ruling S3)."""
        return 0 if action.get("type") == END_TURN else 1

    # --- playing on ------------------------------------------------------------------------
    def rollout_action(self, state: State, seat: int, rng: random.Random) -> Action | None:
        """A cheap, sensible action for playouts; None: the search picks one itself."""
        return None

    # True when rollout_action offers only actions legal in the state it was given (taken from its legal list,
    # or built to be), so playouts apply them unchecked (State.apply_legal) as they do actions from the list.
    rollout_actions_legal = False

    def playout_copy(self, state: State) -> State:
        """The copy of a sampled state that one playout plays on (a game may leave out what playouts never read)."""
        return state.clone()

    def settle(self, state: State, seat: int, others: list[int]) -> None:
        """After a sealed simultaneous decision, let the seats still deciding take their default
        (the game's timeout action, e.g. Toppo's renew) so the decision's effect shows."""
        for other in others:
            if other == seat or other not in state.to_act():
                continue
            action = self.game.timeout_action(state, other)
            if action is None:
                return
            state.apply(other, action)


_CACHE: dict[int, Hints] = {}


def _hints_class(game: Game) -> type[Hints]:
    """`HINTS` of the `hints` module beside the game's own module (which must name it), else the defaults."""
    module_name = type(get_game(game.name)).__module__  # the registered game's (tests may wrap it)
    package = module_name if hasattr(sys.modules[module_name], "__path__") else module_name.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.hints")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.hints":
            raise  # a hints module that fails to import is a bug, not a game without hints
        return Hints
    return module.HINTS


def hints_for(game: Game) -> Hints:
    """The hints for `game` (one instance per game object)."""
    h = _CACHE.get(id(game))
    if h is None or h.game is not game:
        h = _hints_class(game)(game)
        _CACHE[id(game)] = h
    return h
