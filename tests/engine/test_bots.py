"""Bots (ruling S2) on the project's own games: they play legal moves, see only their own seat's
view, and get stronger by level.

Covered here: the levels as data the site shows; choose_action's seed and budget; bots work
from a view, never a state (a spying ToppoGame with secrets planted in a real state); hidden
parts never change a choice; bots refuse when it is not their decision; legal play that never
undoes and confirms turns (Topoum, Topology); simultaneous claims (Toppo at correspondence
pace); greedy's immediate gain and Toppo's penalty points read the right way round; rank
rewards; strength against random; and a Toppo position where looking ahead beats greedy.

Every registered game also gets the generic legality and view checks of
tests/engine/bots/test_bots_games.py; Topology's greedy ring test is in test_bots_topology.py.
"""

from __future__ import annotations

import copy
import inspect
import json
import os
import random
import sys
from collections import Counter

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "toppo"))

from toppo_table import filler, table, total_cards  # noqa: E402

import engine.topology  # noqa: E402,F401  (importing registers the games)
import engine.topoum  # noqa: E402,F401
import engine.toppo  # noqa: E402,F401
from engine.bots import (  # noqa: E402
    Budget,
    bot_names,
    bot_rng,
    budget_for,
    choose,
    choose_action,
    get_bot,
    levels,
    reaction_delay,
)
from engine.bots.base import rank_rewards, utilities  # noqa: E402
from engine.core import NotYourDecision, canonical, get_game  # noqa: E402
from engine.toppo.actions import CLAIMS  # noqa: E402
from engine.toppo.cards import full_set  # noqa: E402
from engine.toppo.game import ToppoGame  # noqa: E402

TOPOLOGY, TOPPO = get_game("topology"), get_game("toppo")
CORRESPONDENCE = {"pace": "correspondence"}
LEVEL_NAMES = ["random", "greedy", "strong", "expert"]
QUICK = {"random": Budget(), "greedy": Budget(), "strong": Budget(iterations=20), "expert": Budget(iterations=30)}


def legal_keys(state, seat):
    return {canonical(a) for a in state.legal_actions(seat)}


def claim_rounds(state, rng, rounds):
    """Random claims (no votes, no toppo) by both seats for a number of correspondence rounds (P4)."""
    for _ in range(rounds):
        for seat in rng.sample(state.to_act(), len(state.to_act())):
            claims = [a for a in state.legal_actions(seat) if a["type"] in CLAIMS and a["type"] != "toppo"]
            state.apply(seat, rng.choice(claims))


def laid_out(display, lines, decks, *, hands=1, seen=False):
    """A two-seat Toppo table at correspondence pace with exactly these cards.

    Every other card of the set goes to the stack, so that a state sampled from a view adds up
    to the 150 cards (Game.determinize checks it).  `seen`: every deck card was seen going under.
    """
    s = table(2, "correspondence", display=display, lines=lines, decks=decks, hands=hands)
    if seen:
        s.seen = [[True] * len(d) for d in s.decks]
    rest = Counter(full_set(1))
    for part in [*s.decks, *s.lines, *s.display]:
        rest.subtract(part)
    assert min(rest.values()) >= 0, "a card used more often than the set has it"
    s.stack = sorted(rest.elements())
    random.Random(0).shuffle(s.stack)
    assert total_cards(s) == 150
    return s


# --- the site's API --------------------------------------------------------------------------


def test_levels_are_data_the_site_can_show():
    data = levels()
    assert set(LEVEL_NAMES) <= set(data)
    assert set(LEVEL_NAMES) <= set(bot_names())
    for name, settings in data.items():
        assert settings["label"]
        lo, hi = settings["delay_seconds"]
        assert 0 < lo <= hi, f"{name}: a live bot needs a positive reaction delay range"
        for game in ("topology", "topoum", "toppo"):
            budget_for(name, game)  # every level's budget builds for every game
    # Stronger bots react faster at a live table, as stronger players do (ruling P3).
    assert data["strong"]["delay_seconds"] < data["greedy"]["delay_seconds"] < data["random"]["delay_seconds"]
    assert data["expert"]["delay_seconds"] < data["strong"]["delay_seconds"]  # decision 30, point 2
    # Decision 26, against a person on the page who clicks every 1-2 s: beginner slower, greedy about as fast,
    # strong faster (bench/bench_live_toppo.py measures the claims).
    mean = {name: sum(data[name]["delay_seconds"]) / 2 for name in ("beginner", "greedy", "strong")}
    assert mean["strong"] < 1.0 <= mean["greedy"] <= 2.0 < mean["beginner"]
    assert "beginner" in bot_names()


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


def test_budget_settings_are_checked_by_name():
    assert Budget.from_dict({"iterations": 5}).iterations == 5
    with pytest.raises(ValueError, match="iteratons"):
        Budget.from_dict({"iteratons": 5})


def test_choose_action_is_reproducible_from_its_seed():
    # The first placement of a Topology turn: dozens of legal placements to choose from.
    state = TOPOLOGY.new_state(2, {}, "reproducible")
    seat = state.to_act()[0]
    view = state.view(seat)
    for level in LEVEL_NAMES:
        first = choose_action(level, TOPOLOGY, view, seat, "g1:v5:s0", budget=QUICK[level])
        assert canonical(first) in legal_keys(state, seat)
        assert choose_action(level, TOPOLOGY, view, seat, "g1:v5:s0", budget=QUICK[level]) == first
    # It is the seed that fixes the choice: other seeds let the random bot choose otherwise.
    others = {canonical(choose_action("random", TOPOLOGY, view, seat, f"g1:v5:s{i}")) for i in range(8)}
    assert len(others) > 1


def test_choose_action_takes_a_budget_as_a_dict():
    state = TOPOLOGY.new_state(2, {}, "dict")
    seat = state.to_act()[0]
    view = state.view(seat)
    action = choose_action("strong", "topology", view, seat, 1, budget={"iterations": 10})
    assert canonical(action) in legal_keys(state, seat)
    # The dict overrides the level's budget for this game, as budget_for builds it.
    same = choose("strong", TOPOLOGY, view, seat, bot_rng(1), budget=budget_for("strong", "topology", iterations=10))
    assert action == same
    with pytest.raises(ValueError, match="iteratons"):
        choose_action("strong", TOPOLOGY, view, seat, 1, budget={"iteratons": 10})


# --- bots see only their own view (ruling S2) --------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_choose_takes_a_view_not_a_state(level):
    params = list(inspect.signature(get_bot(level).choose).parameters)
    assert params[:4] == ["game", "view", "seat", "rng"]
    assert inspect.signature(get_bot(level).choose).parameters["budget"].kind is inspect.Parameter.KEYWORD_ONLY


class SpyToppo(ToppoGame):
    """The real Toppo that records what the bot asks of it and refuses every way to a state but determinize."""

    def __init__(self):
        self.views = []

    def determinize(self, view, seat, rng):
        self.views.append(view)
        assert "SECRET" not in json.dumps(view), "the bot must hand on the seat's view, not a state"
        return super().determinize(view, seat, rng)

    def new_state(self, *a, **k):
        raise AssertionError("a bot must not start a game of its own")

    def load(self, data):
        raise AssertionError("a bot must not load a full state")


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bot_only_samples_states_from_the_view_it_was_given(level):
    state = TOPPO.new_state(2, CORRESPONDENCE, "spy")
    claim_rounds(state, random.Random(1), 3)  # lines went back under the decks: those cards are seen
    state.apply(1, {"type": "renew"})  # the rival's claim is in, sealed (P4); seat 0 is to decide
    legal = legal_keys(state, 0)
    planted = TOPPO.plant_secrets(state)
    # plant_secrets seals a marked claim for every seat; seat 0 has not claimed yet, the rival has.
    state.claims = [c for c in state.claims if c[0] == 1]
    hidden = planted[None] + planted[1]  # unseen deck cards, stack, covered display cards, seed, rival's claim
    assert "SECRET-claim-of-1" in hidden and any(m.startswith("SECRET-deck") for m in hidden)
    view = state.view(0)
    text = json.dumps(view)
    assert not [m for m in hidden if m in text]
    assert any(c is not None for d in view["decks_seen"] for c in d), "seen deck cards are public"
    kept = copy.deepcopy(view)
    game = SpyToppo()
    action = choose(level, game, view, 0, random.Random(0), budget=QUICK[level])
    assert game.views and all(v is view for v in game.views), "states are sampled from the given view only"
    assert view == kept, "a bot must not change the view it was given"
    assert canonical(action) in legal


def hide_otherwise(name, state):
    """A copy of `state` whose hidden parts are shuffled: unseen deck cards and stack (Toppo), face-down tiles
    (Topology)."""
    other = state.clone()
    rng = random.Random(42)
    rng.shuffle(other.stack)
    if name == "toppo":
        for deck, seen in zip(other.decks, other.seen):
            unseen = [i for i, known in enumerate(seen) if not known]
            cards = [deck[i] for i in unseen]
            rng.shuffle(cards)
            for i, card in zip(unseen, cards):
                deck[i] = card
    return other


@pytest.mark.parametrize("name,options", [("toppo", CORRESPONDENCE), ("topology", {})])
def test_hidden_parts_do_not_change_the_choice(name, options):
    """Two states that differ only where the seat cannot see give the seat's bot the same choice."""
    game = get_game(name)
    state = game.new_state(2, options, f"hidden-{name}")
    if name == "toppo":
        claim_rounds(state, random.Random(3), 4)  # both seats to claim, some deck cards seen, most not
    seat = state.to_act()[0]
    other = hide_otherwise(name, state)
    assert other.view(seat) == state.view(seat)
    assert other.to_json() != state.to_json()
    for level in LEVEL_NAMES:
        a = choose(level, game, state.view(seat), seat, random.Random(5), budget=QUICK[level])
        b = choose(level, game, other.view(seat), seat, random.Random(5), budget=QUICK[level])
        assert a == b


def test_bot_refuses_when_it_is_not_the_seats_decision():
    topology = TOPOLOGY.new_state(2, {}, 1)
    waiting = 1 - topology.to_act()[0]
    toppo = TOPPO.new_state(2, CORRESPONDENCE, 1)
    toppo.apply(1, {"type": "renew"})  # seat 1 has claimed; the round waits for seat 0 (P4)
    for game, state, seat in [(TOPOLOGY, topology, waiting), (TOPPO, toppo, 1)]:
        for level in LEVEL_NAMES:
            with pytest.raises(NotYourDecision):
                choose(level, game, state.view(seat), seat, random.Random(0), budget=QUICK[level])


# --- legal play ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name,decisions", [("topoum", 30), ("topology", 12)])
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bots_play_only_legal_actions_and_confirm_turns(level, name, decisions):
    game = get_game(name)
    kinds, undo_offered = [], 0
    for seed in range(2):
        state = game.new_state(2, {}, f"legal-{seed}")
        rng = random.Random(seed)
        for _ in range(decisions):
            seat = state.to_act()[0]
            legal = legal_keys(state, seat)
            undo_offered += canonical({"type": "undo"}) in legal
            action = choose(level, game, state.view(seat), seat, rng, budget=QUICK[level])
            assert canonical(action) in legal
            assert action["type"] != "undo", "bots never take back (ruling S3)"
            kinds.append(action["type"])
            state.apply(seat, action)
    assert undo_offered, "undo was there to take"
    assert "end_turn" in kinds, "bots confirm their turns like anyone else (ruling S3)"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bots_act_for_their_seat_when_several_seats_decide_at_once(level):
    # Correspondence pace (P4): every round both seats claim, in either order.
    state = TOPPO.new_state(2, CORRESPONDENCE, "together")
    rng = random.Random(2)
    both = 0
    for _ in range(30):
        actors = state.to_act()
        both += actors == [0, 1]
        seat = rng.choice(actors)
        action = choose(level, TOPPO, state.view(seat), seat, rng, budget=QUICK[level])
        assert action is not None, "renew is always there to claim"
        assert canonical(action) in legal_keys(state, seat)
        before = state.round
        state.apply(seat, action)
        if action["type"] in CLAIMS and state.round == before:  # the round waits for the other seat
            assert state.view(seat)["my_claim"] == action and state.to_act() == [1 - seat]
    assert both >= 10 and state.round > 10


# --- greedy and the scores ----------------------------------------------------------------------

DISPLAY = "red waves, yellow circle, white square"


@pytest.mark.parametrize("rival_claimed", [False, True])
def test_greedy_claims_what_sheds_the_most_cards(rival_claimed):
    # Seat 0's blue bar fits no display card, so no top; it may match the red waves, the yellow
    # circle or both.  Seat 1's green plus fits none either; both white squares match the white
    # square, one onto the other.  Renewing keeps every card.  Toppo counts penalty points
    # (higher_is_better False), so the best immediate gain is the claim that sheds the most.
    s = laid_out(
        DISPLAY,
        ["red waves, yellow circle, blue bar", "white square, green plus, white square"],
        [filler(20), filler(20, 5)],
    )
    assert not [a for a in s.legal_actions(0) + s.legal_actions(1) if a["type"] == "top"]
    best = {0: {"type": "match", "pairs": [[0, 0], [1, 1]]}, 1: {"type": "match", "pairs": [[0, 2], [2, 2]]}}
    for seat in (0, 1):
        if rival_claimed:  # the rival's claim is sealed: the bot sees only that it came in
            s.apply(1 - seat, {"type": "renew"})
        assert choose("greedy", TOPPO, s.view(seat), seat, random.Random(0), budget=Budget()) == best[seat]
        s.claims = []


def test_penalties_read_the_right_way_round():
    # Toppo's scores are penalty points: seat 0 holds 13 cards, seat 1 holds 23, so seat 0 is ahead.
    s = laid_out(
        DISPLAY,
        ["red waves, yellow circle, blue bar", "green plus, blue circle, green bar"],
        [filler(10), filler(20, 7)],
    )
    assert TOPPO.higher_is_better is False
    assert s.scores() == [13.0, 23.0]
    assert utilities(TOPPO, s) == [-13.0, -23.0], "negated penalties turn into 'more is better'"


def test_rank_rewards_count_wins_ties_and_losses():
    # A real finish: seat 0 holds nine cards, fewer than ten, and calls toppo (P5): she scores
    # nothing, seat 1 a point per card she holds; the one-hand match is over.
    s = laid_out(
        DISPLAY,
        ["red waves, yellow circle, blue bar", "green plus, blue circle, green bar"],
        [filler(6), filler(20, 7)],
    )
    s.apply(0, {"type": "toppo"})
    s.apply(1, {"type": "renew"})
    assert s.is_over() and s.totals == [0, 23]
    assert rank_rewards(s) == [1.0, 0.0]
    s.totals = [4, 4]
    assert rank_rewards(s) == [0.5, 0.5]
    three = TOPPO.new_state(3, CORRESPONDENCE, "ranks")
    three.totals = [2, 9, 2]  # two seats tie for the lowest total, one loses to both
    assert rank_rewards(three) == [0.75, 0.0, 0.75]


# --- strength -------------------------------------------------------------------------------------
# Toppo at correspondence pace, one-hand matches: the cheapest real game to play out (about 80
# decisions, each claim cheap to try).  24 matches, seats alternated; a bot no better than its
# rival scores 19 or more with chance 55455 / 2**24 < 0.4% (binomial tail, p = 1/2), so 19 is a
# clear margin.

STRENGTH = {"pace": "correspondence", "hands": 1}


def match(level_a, level_b, budgets, games=24):
    """Points of level_a over `games` one-hand matches, seats alternated, a draw half a point."""
    points = 0.0
    for i in range(games):
        state = TOPPO.new_state(2, STRENGTH, f"match-{i}")
        a_seat = i % 2
        rng = random.Random(i)
        while not state.is_over():
            actors = state.to_act()
            # Simultaneous claims arrive in a random order, as at a table of equally quick bots; the
            # round resolves in its priority order whatever the arrival (ruling P4 amended).
            for seat in rng.sample(actors, len(actors)):
                level = level_a if seat == a_seat else level_b
                action = choose(level, TOPPO, state.view(seat), seat, rng, budget=budgets[level])
                if action is not None:
                    state.apply(seat, action)
                    break
            else:
                raise AssertionError("every seat to act waits")
        ranks = {r.seat: r.rank for r in state.results()}
        points += 1.0 if ranks[a_seat] < ranks[1 - a_seat] else 0.5 if ranks[a_seat] == ranks[1 - a_seat] else 0.0
    return points


def test_greedy_beats_random_clearly():
    assert match("greedy", "random", {"greedy": Budget(), "random": Budget()}) >= 19


@pytest.mark.parametrize("search", ["halving", "ismcts"])
def test_strong_beats_random_clearly(search):
    # Both algorithms of the strong level: root halving (the default) and the full ISMCTS tree.
    strong = Budget(search=search, iterations=16, plans=3, horizon=2)
    assert match("strong", "random", {"strong": strong, "random": Budget()}) >= 19


# --- looking ahead --------------------------------------------------------------------------------


def known_future():
    """A one-hand Toppo match at correspondence pace in which every deck card was seen going under.

    Display: red waves, yellow circle, white square.
    Seat 0 (13 cards): line red waves, yellow circle, green square, which tops the display;
      deck red bar, yellow bar, white plus | blue circle, blue square, white circle | 4 more.
    Seat 1 (12 cards): line blue bar, blue plus, green plus, which fits nothing;
      deck red plus, yellow plus, green bar | green circle, green waves, blue square | 3 more.
    Both decks are public (decks_seen), so only the stack is hidden, and none of the claims
    below draws from it: the future is known.  The first to hold fewer than ten cards calls
    toppo (P5) and wins.
    """
    return laid_out(
        DISPLAY,
        ["red waves, yellow circle, green square", "blue bar, blue plus, green plus"],
        [
            "red bar, yellow bar, white plus, blue circle, blue square, white circle, "
            "blue circle, white waves, blue waves, white circle",
            "red plus, yellow plus, green bar, green circle, green waves, blue square, "
            "green circle, blue square, green waves",
        ],
        seen=True,
    )


def obvious(state, seat):
    """The obvious claim: toppo, else a top, else the biggest match, else renew."""
    legal = state.legal_actions(seat)
    for kind in ("toppo", "top"):
        found = [a for a in legal if a["type"] == kind]
        if found:
            return found[0]
    matches = [a for a in legal if a["type"] == "match"]
    return max(matches, key=lambda a: len(a["pairs"])) if matches else {"type": "renew"}


def seat0_wins(claim, first):
    """Seat 0 claims `claim` now, then both seats claim the obvious; `first` claims first every round."""
    s = known_future()
    stack = list(s.stack)
    for _ in range(10):
        for seat in (first, 1 - first):
            if seat in s.to_act():
                s.apply(seat, claim if (seat == 0 and claim) else obvious(s, seat))
        claim = None
        assert s.stack == stack, "the hidden stack plays no part: the future was known"
        if s.is_over():
            ranks = {r.seat: r.rank for r in s.results()}
            return ranks[0] < ranks[1]
    raise AssertionError("the hand should be over within a few rounds")


@pytest.mark.parametrize("search", ["halving", "ismcts"])
def test_strong_looks_ahead_where_greedy_does_not(search):
    # Greedy tops (sheds three, down to 10): the display becomes red waves, yellow circle, green
    # square, which seat 1's next line (red plus, yellow plus, green bar) tops: seat 1 is down to
    # 9 and calls toppo the round after, while seat 0 still holds 10 and cannot (white plus fits
    # no card of the first display, and blue circle, blue square, white circle none of the second).
    # Matching the red waves and the yellow circle sheds only two (down to 11) but keeps the
    # white square, which seat 1's next line cannot top (green bar fits no display card) and
    # seat 0's next line can (red bar, yellow bar, white plus): down to 8, and seat 0 calls
    # toppo first (seat 1's line after that, green circle, green waves, blue square, tops nothing).
    s = known_future()
    greedy = choose("greedy", TOPPO, s.view(0), 0, random.Random(0), budget=Budget())
    assert greedy["type"] == "top"
    budget = Budget(search=search, iterations=200, horizon=None, plans=4)
    strong = choose("strong", TOPPO, s.view(0), 0, random.Random(0), budget=budget)
    assert strong["type"] == "match"
    for first in (0, 1):  # whichever claim comes in first each round, it decides nothing (P4 amended)
        assert not seat0_wins(greedy, first), "greedy's top hands seat 1 the match"
        assert seat0_wins(strong, first), "strong's match wins it"


def test_a_games_hints_tune_its_bots_budget_over_the_levels():
    from engine.bots import hints_for
    from engine.bots.levels import LEVELS
    from engine.core import all_games

    for name, game in all_games().items():
        for level in ("strong", "expert"):
            tuned = hints_for(game).budgets.get(level, {})
            budget = budget_for(level, name)
            for field, value in {**LEVELS[level]["budget"], **tuned}.items():
                assert getattr(budget, field) == value, (name, level, field)
    assert any(hints_for(game).budgets for game in all_games().values())  # the override is in use, not just allowed
