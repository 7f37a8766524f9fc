"""Bots on every registered game: legal actions only, from the seat's view only (ruling S2).

Budgets are tiny so that the whole file runs in well under a minute; strength is measured by
bench/bench_bots.py, not here.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.bots import Budget, choose, choose_action, hints_for, levels
from engine.bots.base import utilities
from engine.core import all_games, canonical, get_game

LEVELS = ("random", "greedy", "strong", "expert")
TINY = {
    "random": Budget(),
    "greedy": Budget(max_candidates=24, refine=2),
    "strong": Budget(iterations=6, plans=3, horizon=1, rollout_greedy=0.5, max_candidates=24),
    "expert": Budget(iterations=8, plans=4, horizon=1, rollout_greedy=0.5, max_candidates=24),
}
CONFIGS = {
    "topology": [{}, {"advanced": True}],
    "topoum": [{}, {"deck": "preset", "preset": "duel"}],
    "toppo": [{"pace": "live"}, {"pace": "correspondence"}],
}


def configurations():
    for name in sorted(all_games()):
        for options in CONFIGS.get(name, [{}]):
            yield pytest.param(name, options, id=f"{name}-{json.dumps(options, sort_keys=True)}")


class GameSpy:
    """The real game, except that the bot may only sample states from the view it was given."""

    def __init__(self, game):
        self._game = game
        self.views = []

    def __getattr__(self, name):
        return getattr(self._game, name)

    def determinize(self, view, seat, rng):
        self.views.append(view)
        return self._game.determinize(view, seat, rng)

    def new_state(self, *a, **k):
        raise AssertionError("a bot must not start a game of its own")

    def load(self, data):
        raise AssertionError("a bot must not load a full state")


def advance(state, rng, steps):
    """Random legal play (no undo) for a number of decisions."""
    for _ in range(steps):
        seats = state.to_act()
        if not seats:
            return
        seat = rng.choice(seats)
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"]))


@pytest.mark.parametrize("name,options", list(configurations()))
def test_bots_play_legal_actions_from_the_view_alone(name, options):
    game = get_game(name)
    rng = random.Random(7)
    state = game.new_state(2, options, f"bots-{name}")
    advance(state, rng, 5)
    spy = GameSpy(game)
    decisions = 0
    for step in range(45):
        seats = state.to_act()
        if not seats:
            break
        seat = rng.choice(seats)
        level = LEVELS[step % len(LEVELS)]
        view = state.view(seat)
        kept = copy.deepcopy(view)
        spy.views.clear()
        action = choose(level, spy, view, seat, random.Random(step), budget=TINY[level])
        assert view == kept, "a bot must not change the view it was given"
        assert spy.views and all(v is view for v in spy.views), "states are sampled from the given view only"
        if action is None:  # the seat waits (a live Toppo seat that could only propose)
            continue
        assert action["type"] != "undo", "bots never take back (ruling S3)"
        legal = {canonical(a) for a in state.legal_actions(seat)}
        assert canonical(action) in legal, f"{level} chose an illegal action {action}"
        state.apply(seat, json.loads(json.dumps(action)))  # actions travel as JSON
        decisions += 1
    assert decisions >= 20


@pytest.mark.parametrize("name,options", list(configurations()))
def test_same_view_same_choice_whatever_is_hidden(name, options):
    """Two full states that look the same to the seat (hidden parts differ) get the same decision."""
    game = get_game(name)
    state = game.new_state(2, options, f"hidden-{name}")
    advance(state, random.Random(3), 12)
    seat = state.to_act()[0]
    other = game.determinize(state.view(seat), seat, random.Random(99))  # same view, other secrets
    assert other.view(seat) == state.view(seat)
    for level in LEVELS:
        a = choose(level, game, state.view(seat), seat, random.Random(1), budget=TINY[level])
        b = choose(level, game, other.view(seat), seat, random.Random(1), budget=TINY[level])
        assert a == b


@pytest.mark.parametrize("name", sorted(all_games()))
def test_choose_action_by_game_name_and_seed(name):
    game = get_game(name)
    state = game.new_state(2, CONFIGS.get(name, [{}])[0], "api")
    seat = state.to_act()[0]
    for level in LEVELS:
        action = choose_action(level, name, state.view(seat), seat, "game-1:v0:s0", budget=TINY[level])
        assert action is None or canonical(action) in {canonical(a) for a in state.legal_actions(seat)}
        assert action == choose_action(level, name, state.view(seat), seat, "game-1:v0:s0", budget=TINY[level])


@pytest.mark.parametrize("name,options", list(configurations()))
def test_expert_with_its_own_settings_plays_legally_from_its_view(name, options):
    """Expert's budget as each game's hints tune it (decision 30, point 2), its playouts cut so the test stays
    short: a legal action, taken from the seat's view only (ruling S2)."""
    from engine.bots import budget_for

    game = get_game(name)
    state = game.new_state(2, options, f"expert-{name}")
    advance(state, random.Random(5), 10)
    spy = GameSpy(game)
    for _ in range(6):
        seats = state.to_act()
        if not seats:
            break
        seat = seats[0]
        view = state.view(seat)
        action = choose("expert", spy, view, seat, random.Random(2), budget=budget_for("expert", name, iterations=12))
        assert spy.views and all(v is view for v in spy.views)
        spy.views.clear()
        if action is None:  # a live Toppo seat that could only propose waits
            break
        assert canonical(action) in {canonical(a) for a in state.legal_actions(seat)}
        state.apply(seat, action)


def test_levels_are_plain_json():
    data = levels()
    assert json.loads(json.dumps(data))  # the site may store or send them as they are
    for game in all_games().values():
        assert isinstance(
            json.loads(json.dumps(hints_for(game).budgets)), dict
        )  # a game's own budgets are plain data too


# --- Toppo: penalties, ruling P6, live waiting ------------------------------------------------

toppo = pytest.mark.skipif("toppo" not in all_games(), reason="Toppo is not installed")


@toppo
def test_toppo_penalties_count_as_negative_utility():
    game = get_game("toppo")
    state = game.new_state(2, {"pace": "correspondence"}, 5)
    assert getattr(game, "higher_is_better", True) is False
    assert utilities(game, state) == [-s for s in state.scores()]


@toppo
@pytest.mark.parametrize("level", ["greedy", "strong", "expert"])
def test_toppo_bots_agree_at_once_to_a_new_display(level):
    # Ruling P6: "when all players agree (bots agree at once)".
    game = get_game("toppo")
    state = game.new_state(2, {"pace": "correspondence"}, 8)
    state.apply(0, {"type": "propose_replace"})
    action = choose(level, game, state.view(1), 1, random.Random(0), budget=TINY[level])
    assert action == {"type": "agree_replace"}


@toppo
def test_toppo_live_seat_with_only_a_proposal_waits():
    game = get_game("toppo")
    state = game.new_state(2, {"pace": "live"}, 4)
    waiting = [s for s in range(2) if s != state.restarter]  # locked until the start player reveals (P3)
    seat = waiting[0]
    assert [a["type"] for a in state.legal_actions(seat)] == ["propose_replace"]
    for level in LEVELS:
        assert choose(level, game, state.view(seat), seat, random.Random(0), budget=TINY[level]) is None


@toppo
def test_toppo_greedy_gets_rid_of_the_most_cards():
    game = get_game("toppo")
    rng = random.Random(11)
    seen = 0
    for seed in range(200):
        state = game.new_state(2, {"pace": "correspondence"}, seed)
        advance(state, rng, rng.randrange(0, 40))
        if state.is_over() or state.phase != "play":
            continue
        seat = rng.choice(state.to_act())
        legal = state.legal_actions(seat)
        kinds = {a["type"] for a in legal}
        if "top" not in kinds or kinds & {"toppo", "agree_replace"}:
            continue  # toppo is even better, and agreeing comes first (P6)
        action = choose("greedy", game, state.view(seat), seat, random.Random(0), budget=TINY["greedy"])
        size = state.size
        assert action["type"] == "top" or (action["type"] == "match" and len(action["pairs"]) == size)
        seen += 1
        if seen >= 5:
            break
    assert seen >= 3


@pytest.mark.skipif("topoum" not in all_games(), reason="Topoum is not installed")
def test_topoum_outlook_adds_end_of_game_bonuses_only_to_the_search():
    game = get_game("topoum")
    state = game.new_state(2, {}, 3)
    advance(state, random.Random(5), 60)
    hints = hints_for(game)
    assert hints.utilities(state) == state.scores()  # greedy plays by the medals as they stand
    assert len(hints.outlook(state)) == 2
    assert all(o >= u for o, u in zip(hints.outlook(state), hints.utilities(state)))


@pytest.mark.skipif("topoum" not in all_games(), reason="Topoum is not installed")
def test_strong_beats_random_at_topoum():
    # Six games, seats alternated, a tiny search budget.  Against a fair coin, six wins out of
    # six has a chance of 1/64, so losing even one game would point at a real fault.
    game = get_game("topoum")
    budgets = {"strong": Budget(iterations=6, plans=2, horizon=1, max_candidates=16, refine=2), "random": Budget()}
    wins = 0
    for i in range(6):
        state = game.new_state(2, {}, f"strong-random-{i}")
        strong_seat = i % 2
        rng = random.Random(i)
        while not state.is_over():
            seat = state.to_act()[0]
            level = "strong" if seat == strong_seat else "random"
            state.apply(seat, choose(level, game, state.view(seat), seat, rng, budget=budgets[level]))
        ranks = {r.seat: r.rank for r in state.results()}
        wins += ranks[strong_seat] < ranks[1 - strong_seat]
    assert wins == 6


@pytest.mark.parametrize("name", sorted(all_games()))
def test_play_turn_finishes_a_missed_turn(name):
    # Ruling S1: the site's bot plays the turn of a player who missed her deadline.
    from engine.bots import play_turn

    game = get_game(name)
    state = game.new_state(2, CONFIGS.get(name, [{}])[0], "missed")
    advance(state, random.Random(2), 8)
    seat = state.to_act()[0]
    before = state.clone()
    actions = play_turn("greedy", game, state, seat, "missed-1", budget=TINY["greedy"])
    assert actions and all(a["type"] != "undo" for a in actions)
    for a in actions:  # the same decisions are legal from the start, one after the other
        before.apply(seat, a)
    assert before.to_json() == state.to_json()
    if len(state.to_act()) <= 1 and not state.is_over():
        assert actions[-1]["type"] == "end_turn" or seat not in state.to_act()
