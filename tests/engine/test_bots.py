"""Bots (ruling S2): they play legal moves, see only their own seat's view, and get stronger by level.

The toy games in tests/engine/bots/toy_games.py exercise the protocol (hidden parts, end_turn
and undo, simultaneous seats, lower-is-better scores); the registered games get the same
legality checks in tests/engine/bots/test_bots_games.py.
"""
from __future__ import annotations

import copy
import inspect
import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "bots"))

from toy_games import CoinsGame, CoinsState, GrabGame, LowCoinsGame, play  # noqa: E402

from engine.bots import Budget, bot_names, budget_for, choose, choose_action, get_bot, levels, reaction_delay  # noqa: E402
from engine.bots.base import rank_rewards, utilities  # noqa: E402
from engine.core import NotYourDecision, canonical  # noqa: E402

LEVEL_NAMES = ["random", "greedy", "strong"]
QUICK = {"random": Budget(), "greedy": Budget(), "strong": Budget(iterations=60)}


def legal_keys(state, seat):
    return {canonical(a) for a in state.legal_actions(seat)}


# --- the site's API --------------------------------------------------------------------------


def test_levels_are_data_the_site_can_show():
    data = levels()
    assert set(LEVEL_NAMES) <= set(data)
    assert set(LEVEL_NAMES) <= set(bot_names())
    for name, settings in data.items():
        assert settings["label"]
        lo, hi = settings["delay_seconds"]
        assert 0 < lo <= hi, f"{name}: a live bot needs a positive reaction delay range"
        budget_for(name, "topology")  # every level's budget builds
    # Stronger bots react faster at a live table, as stronger players do (ruling P3).
    assert data["strong"]["delay_seconds"] < data["greedy"]["delay_seconds"] < data["random"]["delay_seconds"]


def test_levels_returns_a_copy():
    levels()["random"]["label"] = "changed"
    assert levels()["random"]["label"] != "changed"


def test_reaction_delay_stays_in_range_and_is_reproducible():
    for level, settings in levels().items():
        lo, hi = settings["delay_seconds"]
        delays = [reaction_delay(level, i) for i in range(50)]
        assert all(lo <= d <= hi for d in delays)
        assert reaction_delay(level, 7) == reaction_delay(level, 7)
        assert len(set(delays)) > 1


def test_unknown_level_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="greedy"):
        get_bot("grandmaster")
    with pytest.raises(ValueError, match="strong"):
        budget_for("grandmaster")


def test_choose_action_is_reproducible_from_its_seed():
    game = CoinsGame()
    state = game.new_state(2, {"length": 10}, 3)
    view = state.view(0)
    for level in LEVEL_NAMES:
        first = choose_action(level, game, view, 0, "g1:v5:s0", budget=QUICK[level])
        again = choose_action(level, game, view, 0, "g1:v5:s0", budget=QUICK[level])
        assert first == again


def test_choose_action_takes_a_budget_as_a_dict():
    game = CoinsGame()
    view = game.new_state(2, {}, 1).view(0)
    action = choose_action("strong", game, view, 0, 1, budget={"iterations": 10})
    assert action["type"] == "take"


# --- bots see only their own view ----------------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_choose_takes_a_view_not_a_state(level):
    params = list(inspect.signature(get_bot(level).choose).parameters)
    assert params[:4] == ["game", "view", "seat", "rng"]
    assert inspect.signature(get_bot(level).choose).parameters["budget"].kind is inspect.Parameter.KEYWORD_ONLY


class SpyCoins(CoinsGame):
    """Records what the bot asks of the game; refuses every way to a real state but determinize."""

    def __init__(self):
        self.views = []

    def determinize(self, view, seat, rng):
        self.views.append(view)
        assert "bonus" not in view, "the bot must hand on the seat's view, not a state"
        return super().determinize(view, seat, rng)

    def new_state(self, *a, **k):
        raise AssertionError("a bot must not start a game of its own")

    def load(self, data):
        raise AssertionError("a bot must not load a full state")


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bot_only_samples_states_from_the_view_it_was_given(level):
    game = SpyCoins()
    # The rival's hidden bonus is a planted marker: a bot that reached the real state would
    # crash on it (scores add it to numbers); the view it gets does not carry it.
    state = CoinsState([5, 1, 7, 2, 8], [3, 4], bonus=["SECRET-0", 1], turn=1, phase="take")
    view = state.view(1)
    assert "SECRET-0" not in repr(view)
    view_before = copy.deepcopy(view)
    action = choose(level, game, view, 1, random.Random(0), budget=QUICK[level])
    assert game.views and all(v is view for v in game.views)
    assert view == view_before, "a bot must not change the view it was given"
    assert action["type"] == "take"


def test_hidden_parts_do_not_change_the_choice():
    """Two states that differ only where seat 0 cannot see give seat 0's bot the same choice."""
    game = CoinsGame()
    a = CoinsState([4, 9, 1, 6, 3, 8], [0, 0], bonus=[1, 0], turn=0, phase="take")
    b = CoinsState([4, 9, 1, 6, 3, 8], [0, 0], bonus=[1, 3], turn=0, phase="take")
    assert a.view(0) == b.view(0)
    for level in LEVEL_NAMES:
        ca = choose(level, game, a.view(0), 0, random.Random(5), budget=QUICK[level])
        cb = choose(level, game, b.view(0), 0, random.Random(5), budget=QUICK[level])
        assert ca == cb


def test_bot_refuses_when_it_is_not_the_seats_decision():
    game = CoinsGame()
    view = game.new_state(2, {}, 1).view(1)  # seat 0 starts
    for level in LEVEL_NAMES:
        with pytest.raises(NotYourDecision):
            choose(level, game, view, 1, random.Random(0), budget=QUICK[level])


# --- legal play -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bots_play_only_legal_actions_and_confirm_turns(level):
    game = CoinsGame()
    seen = []
    for seed in range(4):
        state = game.new_state(2, {"length": 9}, seed)
        rng = random.Random(seed)

        def chooser(view, seat, state=state):
            action = choose(level, game, view, seat, rng, budget=QUICK[level])
            assert canonical(action) in legal_keys(state, seat)
            assert action["type"] != "undo", "bots never take back (ruling S3)"
            seen.append(action["type"])
            return action

        final = play(game, state, {0: chooser, 1: chooser}, rng)
        assert final.is_over()
    assert "end_turn" in seen, "bots confirm their turns like anyone else (ruling S3)"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bots_act_for_their_seat_when_several_seats_decide_at_once(level):
    game = GrabGame()
    state = game.new_state(2, {}, 11)
    rng = random.Random(2)
    while not state.is_over():
        assert state.to_act() == [0, 1]
        seat = rng.choice(state.to_act())
        action = choose(level, game, state.view(seat), seat, rng, budget=QUICK[level])
        assert canonical(action) in legal_keys(state, seat)
        state.apply(seat, action)


# --- greedy -----------------------------------------------------------------------------------


def test_greedy_takes_the_bigger_end():
    game = CoinsGame()
    state = CoinsState([2, 5, 5, 5, 9], [0, 0], bonus=[0, 0], turn=0, phase="take")
    assert choose("greedy", game, state.view(0), 0, random.Random(0), budget=Budget()) == \
        {"type": "take", "end": "right"}
    state = CoinsState([8, 5, 5, 5, 1], [0, 0], bonus=[0, 0], turn=0, phase="take")
    assert choose("greedy", game, state.view(0), 0, random.Random(0), budget=Budget()) == \
        {"type": "take", "end": "left"}


def test_greedy_reads_lower_is_better_scores_the_right_way_round():
    game = LowCoinsGame()
    state = CoinsState([2, 5, 5, 5, 9], [0, 0], bonus=[0, 0], turn=0, phase="take", lower=True)
    assert utilities(game, state) == [0.0, 0.0]
    state.taken = [4, 1]
    assert utilities(game, state) == [4.0, 1.0], "negated scores turn back into 'more is better'"
    state.taken = [0, 0]
    assert choose("greedy", game, state.view(0), 0, random.Random(0), budget=Budget()) == \
        {"type": "take", "end": "right"}


def test_greedy_grabs_the_biggest_coin_at_a_simultaneous_table():
    game = GrabGame()
    state = game.new_state(2, {}, 4)
    best = max(range(len(state.coins)), key=lambda i: state.coins[i])
    action = choose("greedy", game, state.view(1), 1, random.Random(0), budget=Budget())
    assert state.coins[action["index"]] == state.coins[best]


def test_rank_rewards_count_wins_ties_and_losses():
    state = CoinsState([], [5, 3], bonus=[0, 0], turn=0, phase="take")
    assert rank_rewards(state) == [1.0, 0.0]
    state.taken = [4, 4]
    assert rank_rewards(state) == [0.5, 0.5]


# --- strength ---------------------------------------------------------------------------------


def match(game, level_a, level_b, games, budgets, length=10):
    """Points of level_a over `games` games, seats alternated, a draw half a point."""
    points = 0.0
    for i in range(games):
        state = game.new_state(2, {"length": length}, f"match-{i}")
        a_seat = i % 2
        rng = random.Random(i)
        choosers = {s: (lambda view, seat, lvl=(level_a if s == a_seat else level_b):
                        choose(lvl, game, view, seat, rng, budget=budgets[lvl])) for s in (0, 1)}
        final = play(game, state, choosers, rng)
        ranks = {r.seat: r.rank for r in final.results()}
        points += 1.0 if ranks[a_seat] < ranks[1 - a_seat] else 0.5 if ranks[a_seat] == ranks[1 - a_seat] else 0.0
    return points


def test_strong_beats_random_clearly():
    # 24 games; a fair coin reaches 19 points with chance below 0.5%, so 19 is a clear margin.
    points = match(CoinsGame(), "strong", "random", 24, {"strong": Budget(iterations=80), "random": Budget()})
    assert points >= 19


def test_tree_search_variant_beats_random_clearly():
    # The full information-set tree (budget.search == "ismcts") instead of root halving.
    points = match(CoinsGame(), "strong", "random", 24,
                   {"strong": Budget(search="ismcts", iterations=80, horizon=None), "random": Budget()})
    assert points >= 19


@pytest.mark.parametrize("search", ["halving", "ismcts"])
def test_strong_looks_ahead_where_greedy_does_not(search):
    # Coins 2 9 2 1: taking the left 2 (the bigger end, greedy's move) uncovers the 9 for the
    # rival (4 against 10); taking the right 1 keeps it covered and wins it later (10 against 4).
    game = CoinsGame()
    state = CoinsState([2, 9, 2, 1], [0, 0], bonus=[0, 0], turn=0, phase="take")
    assert choose("greedy", game, state.view(0), 0, random.Random(0), budget=Budget()) == \
        {"type": "take", "end": "left"}
    budget = Budget(search=search, iterations=200, horizon=None, plans=2)
    assert choose("strong", game, state.view(0), 0, random.Random(0), budget=budget) == \
        {"type": "take", "end": "right"}


def test_greedy_beats_random_clearly():
    points = match(CoinsGame(), "greedy", "random", 24, {"greedy": Budget(), "random": Budget()})
    assert points >= 19


def test_budget_settings_are_checked_by_name():
    assert Budget.from_dict({"iterations": 5}).iterations == 5
    with pytest.raises(ValueError, match="iteratons"):
        Budget.from_dict({"iteratons": 5})
