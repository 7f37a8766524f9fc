"""A strong decision's time limit covers all of it, and its playouts neither re-check nor build views (decision 16).

Time is a fake clock handed to the Budget, so nothing here depends on how fast the machine is
(house rule: tests never assert timings); what is checked is which phase stops when the limit
has passed.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import Budget, choose
from engine.bots.base import Deadline, playable
from engine.bots.greedy import ranked_actions
from engine.bots.search import decide
from engine.core import all_games, canonical, get_game

SMALL = Budget(iterations=6, plans=3, horizon=1, max_candidates=12, refine=2)


class FakeClock:
    """Seconds that pass only when told (`now`), or by `tick` at every reading."""

    def __init__(self, tick: float = 0.0):
        self.now, self.tick, self.readings = 0.0, tick, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.tick
        return self.now


class SlowSampling:
    """The real game, except that sampling a position from the view takes `seconds` of the fake clock."""

    def __init__(self, game, clock: FakeClock, seconds: float):
        self._game, self.clock, self.seconds = game, clock, seconds

    def __getattr__(self, name):
        return getattr(self._game, name)

    def determinize(self, view, seat, rng):
        self.clock.now += self.seconds
        return self._game.determinize(view, seat, rng)


def searching_position(name: str):
    """A position a few decisions into a game where the seat to act has several actions to weigh."""
    game = get_game(name)
    for k in range(20):
        state = game.new_state(2, {}, f"deadline-{name}-{k}")
        rng = random.Random(k)
        for _ in range(rng.randrange(3, 12)):
            seat = rng.choice(state.to_act())
            state.apply(seat, rng.choice(playable(state, seat)))
            if state.is_over():
                break
        if state.is_over():
            continue
        seat = state.to_act()[0]
        run = decide(game, state.view(seat), seat, random.Random(0), SMALL)
        if run.playouts:  # a real search, not a forced or waiting decision
            return game, state, seat
    pytest.skip(f"no searching position found in {name}")


GAMES = sorted(all_games())


def test_a_deadline_without_seconds_never_passes():
    clock = FakeClock(tick=1e9)
    assert not Deadline(None, clock).passed()
    assert Deadline(5.0, clock).passed()  # a billion seconds later


@pytest.mark.parametrize("name", GAMES)
def test_ranking_stops_when_the_deadline_passes(name):
    game, state, seat = searching_position(name)
    actions = playable(state, seat)
    budget = SMALL.with_(max_candidates=48)
    full = ranked_actions(game, state, seat, actions, random.Random(1), budget)
    if len(full) < 4:
        pytest.skip("too few candidates to cut the ranking short")
    # Every reading of the clock is one second later: the ranking may value three candidates.
    deadline = Deadline(3.5, FakeClock(tick=1.0))
    cut = ranked_actions(game, state, seat, actions, random.Random(1), budget, deadline=deadline)
    assert len(cut) == 3
    gone = Deadline(1.0, FakeClock())
    gone.at = -1.0  # passed before the ranking began
    only = ranked_actions(game, state, seat, actions, random.Random(1), budget, deadline=gone)
    assert len(only) == 1 and canonical(only[0][1]) in {canonical(a) for a in actions}


@pytest.mark.parametrize("name", GAMES)
def test_time_spent_sampling_counts_against_the_decision(name):
    """The limit is taken when the bot is asked: a decision whose sampling used it up searches no
    further, and still answers with a legal action (greedy's choice among what it could value)."""
    game, state, seat = searching_position(name)
    clock = FakeClock()
    slow = SlowSampling(game, clock, seconds=10.0)
    budget = SMALL.with_(iterations=None, seconds=5.0, clock=clock)
    run = decide(slow, state.view(seat), seat, random.Random(0), budget)
    assert run.deadline.at == 5.0  # started before the 10 s of sampling, not after them
    assert run.playouts == 0
    assert canonical(run.action) in {canonical(a) for a in state.legal_actions(seat)}
    # The same through the bots' entry point, for both searches.
    for search in ("halving", "ismcts"):
        clock.now = 0.0
        action = choose("strong", slow, state.view(seat), seat, random.Random(0), budget=budget.with_(search=search))
        assert canonical(action) in {canonical(a) for a in state.legal_actions(seat)}


@pytest.mark.parametrize("name", GAMES)
def test_a_time_capped_search_stops_at_its_deadline(name):
    """Without a playout count, the fake clock alone ends the search: each reading is a second."""
    game, state, seat = searching_position(name)
    clock = FakeClock(tick=1.0)
    budget = SMALL.with_(iterations=None, seconds=200.0, clock=clock)
    run = decide(game, state.view(seat), seat, random.Random(0), budget)
    assert run.playouts > 0
    assert run.deadline.at <= clock.now <= run.deadline.at + 2  # no phase went on reading past it


@pytest.mark.parametrize("name", GAMES)
def test_a_strong_decision_builds_no_view(name, monkeypatch):
    """The view is read once, by the caller; playouts and the rollout policy never build one."""
    game, state, seat = searching_position(name)
    view = state.view(seat)

    def no_view(self, seat):
        raise AssertionError("a view was built inside a bot's decision")

    monkeypatch.setattr(type(state), "view", no_view)
    for search in ("halving", "ismcts"):
        run = decide(game, view, seat, random.Random(0), SMALL.with_(search=search))
        assert run.playouts > 0


def test_each_level_has_a_time_limit_per_pace():
    """Decision 26: a few seconds a decision live, more for a whole turn by correspondence; random thinks no time."""
    from engine.bots import LEVELS, thinking_seconds

    for level in LEVELS:
        assert set(LEVELS[level]["thinking_seconds"]) == {"live", "correspondence"}
    assert 0 < thinking_seconds("strong", "live") < thinking_seconds("strong", "correspondence")
    assert thinking_seconds("greedy", "correspondence") <= thinking_seconds("strong", "correspondence")
    # Expert may think longer than strong (decision 30, point 2), still within a live pace and a correspondence turn.
    assert (
        thinking_seconds("strong", "live")
        <= thinking_seconds("expert", "live")
        < thinking_seconds("expert", "correspondence")
    )
    assert thinking_seconds("random", "live") is None
    with pytest.raises(ValueError):
        thinking_seconds("grandmaster", "live")


@pytest.mark.parametrize("seed", range(3))
def test_a_strong_turn_ends_near_its_time_limit_and_is_whole(seed):
    """Decision 26: play_turn shares the turn's limit among its decisions and finishes the turn as greedy would once
    it is spent; every reading of the fake clock is a twentieth of a second, however the machine is loaded."""
    from engine.bots import LAST_SECONDS, play_turn

    game = get_game("topoum")
    state = game.new_state(3, game.validate_options(3, {}), f"turn-limit-{seed}")
    rng = random.Random(seed)
    while state.phase != "play" or state.stage != "start" or state.turns < 3 * (seed + 1):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(playable(state, seat)))
    seat = state.to_act()[0]
    clock = FakeClock(tick=0.05)
    done = play_turn("strong", game, state, seat, f"t{seed}", turn_seconds=3.0, clock=clock)
    assert done and done[-1]["type"] == "end_turn"  # the whole turn, confirmed
    assert seat not in state.to_act()
    # Past the limit only the finishing decisions' own short allowance, one per decision at most.
    assert clock.now <= 3.0 + LAST_SECONDS * len(done) + 0.5
