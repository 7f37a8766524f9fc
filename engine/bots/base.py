"""What every bot shares: the budget, the bot registry, and helpers that read only a seat's view.

A bot is called as `bot.choose(game, view, seat, rng, budget=...)`.  It gets the seat's
view (ruling S2: bots see only their own view), never the full state; when it needs a
state to try moves on, it asks `game.determinize(view, seat, rng)` for one in which
every hidden part is sampled.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import Action, Game, IllegalAction, NotYourDecision, State, canonical

# Decisions a bot never takes: taking back is for people who misclicked (ruling S3).
NEVER = frozenset({"undo"})
END_TURN = "end_turn"


@dataclass(frozen=True)
class Budget:
    """How much thinking a bot may do for one decision; None means no limit of that kind."""

    iterations: int | None = None  # playouts of a search bot
    seconds: float | None = None  # cap of a whole decision, sampling and ranking included (non-deterministic)
    samples: int = 1  # determinisations a greedy bot averages over
    max_candidates: int = 48  # actions examined per decision when there are more (huge branching)
    refine: int = 6  # ranking (greedy, and strong's shortlist): best open-turn candidates followed to the turn's end
    tree_turns: int = 2  # ismcts: turns the tree spans before playouts take over
    search: str = "halving"  # strong bot's algorithm: "halving" or "ismcts" (engine.bots.search)
    plans: int = 8  # halving: the greedy ranking's best first actions that compete
    margin: float = 0.0  # halving: mean reward a challenger must gain over greedy's choice to replace it
    horizon: int | None = 2  # search: turns from the root after which a playout is scored (None: game end)
    rollout_greedy: float = 0.0  # chance that a rival's playout step is greedy rather than random
    rollout_candidates: int = 8  # actions a greedy playout step compares
    widening: float = 2.0  # progressive widening: children allowed = widening * visits ** 0.5
    exploration: float = 0.7  # UCB constant
    score_scale: float | None = None  # score differential worth about one "win" (None: the game's)
    result_weight: float = 0.9  # share of the result (vs the lead) in a finished playout's reward
    # A game's own plan (Hints.plan), where it has one: its own choices followed in full and the samples it follows
    # them on (None: the game's defaults), and whether it plans while cards nobody has seen are still to come.
    plan_depth: int | None = None
    plan_samples: int | None = None
    plan_unseen: bool = False
    plan_rival: bool = False  # ... and whether it guesses a rival's hidden choice with her own plan, not the policy's
    plan_votes: bool = False  # ... and whether it weighs a game's votes (Toppo's new display, P6) as it weighs a claim
    # What `seconds` are read from; tests give a fake clock (never set from the levels' data).
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False, repr=False)

    def start(self) -> "Deadline":
        """The time limit of one decision, running from now: taken first, before anything is tried."""
        return Deadline(self.seconds, self.clock)

    def with_(self, **changes: Any) -> "Budget":
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Budget":
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"Unknown bot budget setting(s): {', '.join(unknown)}.")
        return cls(**data)


class Deadline:
    """When one decision must be settled: every phase of it (sampling, ranking, search) asks `passed()`.

    Without a time cap it never passes, and the decision is bound by counts alone (reproducible).
    """

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.perf_counter):
        self.clock = clock
        self.at = clock() + seconds if seconds else math.inf

    def passed(self) -> bool:
        return self.at != math.inf and self.clock() >= self.at


class Bot:
    """A named playing strength; subclasses implement `choose`."""

    name: str = ""
    label: str = ""

    def choose(self, game: Game, view: dict, seat: int, rng: random.Random, *, budget: Budget) -> Action | None:
        """The action to take, or None when the seat should wait (nothing worth doing yet)."""
        raise NotImplementedError


_BOTS: dict[str, Bot] = {}


def register_bot(bot_class: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot level available by its name."""
    _BOTS[bot_class.name] = bot_class()
    return bot_class


def get_bot(name: str) -> Bot:
    try:
        return _BOTS[name]
    except KeyError:
        raise ValueError(f"There is no bot level called '{name}'; try one of: {', '.join(sorted(_BOTS))}.") from None


def bot_names() -> list[str]:
    return list(_BOTS)


# --- positions the bot may look at ---------------------------------------------------------


def sample_state(game: Game, view: dict, seat: int, rng: random.Random) -> State:
    """A full state consistent with `view`, hidden parts drawn from `rng` (never the real state)."""
    return game.determinize(view, seat, rng)


def playable(state: State, seat: int) -> list[Action]:
    """Legal actions of `seat` that a bot may take (everything but undo)."""
    return [a for a in state.legal_actions(seat) if a.get("type") not in NEVER]


def options_for(game: Game, view: dict, seat: int, rng: random.Random) -> tuple[State, list[Action]]:
    """A determinised state and the seat's playable actions in it; refuses when the seat has none."""
    state = sample_state(game, view, seat, rng)
    if seat not in state.to_act():
        raise NotYourDecision("bot.not_to_act", seat=seat)  # not this seat's decision: nothing to choose
    actions = playable(state, seat)
    if not actions:
        raise NotYourDecision("bot.no_action", seat=seat)  # no action the seat could take now
    return state, actions


def waits(game: Game, state: State, seat: int, actions: list[Action]) -> bool:
    """True when the bot should not act now (see Hints.idle); choose() then returns None."""
    from .hints import hints_for

    return hints_for(game).idle(state, seat, actions)


def considered(
    game: Game, state: State, seat: int, actions: list[Action], rng: random.Random, budget: Budget | None = None
) -> list[Action]:
    """The actions a thinking bot weighs: just one when the game's hints force it (ruling P6)."""
    from .hints import hints_for

    forced = hints_for(game).forced_action(state, seat, actions, rng, budget)
    return [forced] if forced is not None else actions


# --- how good a position is ------------------------------------------------------------------


def higher_is_better(game: Game) -> bool:
    """The game's score direction: Toppo counts penalties, so lower is better there."""
    return bool(game.higher_is_better)


def utilities(game: Game, state: State) -> list[float]:
    """Scores turned so that more is always better for the seat (provisional ones when offered)."""
    from .hints import hints_for

    return hints_for(game).utilities(state)


def differential(utils: list[float], seat: int) -> float:
    """Own utility minus the best rival's: what a greedy player maximises."""
    rivals = [u for i, u in enumerate(utils) if i != seat]
    return utils[seat] - (max(rivals) if rivals else 0.0)


def score_scale(game: Game, budget: Budget) -> float:
    """The score lead that counts as a near-certain win when a playout is cut short."""
    if budget.score_scale:
        return budget.score_scale
    return float(game.bot_score_scale)


def squash(x: float) -> float:
    """Map a score lead to (0, 1) like a win chance."""
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def rank_rewards(state: State) -> list[float]:
    """Per seat, the share of rivals it finished ahead of (ties count half): 1 win, 0 loss."""
    results = state.results()
    rank = {r.seat: r.rank for r in results}
    n = len(results)
    if n < 2:
        return [1.0] * n
    out = [0.0] * n
    for i in range(n):
        beaten = sum(1 for j in range(n) if j != i and rank[j] > rank[i])
        tied = sum(1 for j in range(n) if j != i and rank[j] == rank[i])
        out[i] = (beaten + 0.5 * tied) / (n - 1)
    return out


def evaluate(game: Game, state: State, scale: float, result_weight: float = 0.9) -> list[float]:
    """Reward per seat in [0, 1]: the squashed score lead, and when the game is over mostly the result.

    `result_weight` is the share of the final result (win 1, draw 0.5, loss 0) in a finished
    game's reward; the rest is the lead, which breaks ties between equally won games.  A game
    whose result is the lead itself (Toppo's penalty totals) does best with 0: then ending a
    lost match early never looks worse than dragging it on.
    """
    from .hints import hints_for

    over = state.is_over()
    utils = utilities(game, state) if over else hints_for(game).outlook(state)
    leads = [squash(differential(utils, i) / scale) for i in range(len(utils))]
    if over:
        # The result decides; the margin only breaks ties between equally won positions.
        return [result_weight * r + (1 - result_weight) * m for r, m in zip(rank_rewards(state), leads)]
    return leads


# --- turns ---------------------------------------------------------------------------------


def turn_done(state: State, seat: int, action: Action) -> bool:
    """True when `action` by `seat` closed her turn: she confirmed, or the decision passed on.

    With several seats deciding at once (Toppo) every decision counts as a turn of its own.
    """
    if action.get("type") == END_TURN:
        return True
    actors = state.to_act()
    return seat not in actors or len(actors) > 1


def end_if_possible(state: State, seat: int) -> bool:
    """Confirm the turn when that is legal now, so that its scoring shows; True if it was done.

    Trying is cheaper than listing every legal action, and a refused action changes nothing
    (ruling G0.4).
    """
    if seat not in state.to_act():
        return False
    try:
        state.apply(seat, {"type": END_TURN})
    except IllegalAction:
        return False
    return True


def key_of(action: Action) -> str:
    return canonical(action)
