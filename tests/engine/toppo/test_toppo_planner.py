"""The strong bot's plan by correspondence (engine.toppo.planner; rulings P4, P5, S2; decision 30, point 1)."""

from __future__ import annotations

import random
from collections import Counter

from toppo_table import GAME, cards, table

from engine.bots import Budget, budget_for, choose_action
from engine.bots.hints import hints_for
from engine.toppo import planner
from engine.toppo.cards import full_set

DISPLAY = "red waves, yellow circle, white square"
TOPPING = "yellow plus, green square, red circle"  # tops DISPLAY
TOPPING_TOO = "red bar, yellow waves, white plus"  # tops DISPLAY as well
NOTHING = "blue bar, blue plus, green bar"  # neither tops nor matches DISPLAY
HINTS = hints_for(GAME)


def known_table(lines, decks, round_=1, **kw):
    """A correspondence table whose decks everyone has seen go under (the plan's condition), in round `round_`
    (round 1: seat 0 has priority, round 2: seat 1, ruling P4)."""
    s = table(2, "correspondence", display=DISPLAY, lines=lines, decks=decks, **kw)
    s.stack = rest_of_the_cards(s)
    s.seen = [[True] * len(d) for d in s.decks]
    s.round = round_
    return s


def rest_of_the_cards(state) -> list[int]:
    """The stack: every card of the set not on the table (the view must add up to the whole set)."""
    rest = Counter(full_set(1))
    rest.subtract(pile[-1] for pile in state.display)
    for part in state.lines + state.decks:
        rest.subtract(part)
    assert min(rest.values()) >= 0
    return sorted(rest.elements())


def sample_of(state, seat, seed=1):
    """What the bot works on: a sample of its own view (ruling S2)."""
    return GAME.determinize(state.view(seat), seat, random.Random(seed))


def claim_kinds(state):
    return {seat: claim["type"] for seat, claim in state.claims}


def outcomes(state):
    return {c["seat"]: c["outcome"] for c in state.last_round["claims"]}


def test_the_rivals_sealed_claim_is_guessed_from_her_public_line():
    decks = [cards("blue waves, green plus, white bar") * 4, cards("blue circle, green waves, white circle") * 4]
    s = known_table([TOPPING, TOPPING_TOO], decks, round_=2)
    s.apply(1, {"type": "top", "order": [0, 1, 2]})
    sample = sample_of(s, 0)
    assert claim_kinds(sample) == {1: "renew"}  # sealed: the view does not tell it
    plan = planner.Plan(HINTS, sample, 0, random.Random(2), None)
    guessed, _ = plan.sample(0)
    assert claim_kinds(guessed) == {1: "top"}
    assert claim_kinds(sample) == {1: "renew"}  # the search's own sample is left as it was


def test_with_the_rival_first_and_topping_our_top_is_void_so_every_claim_ends_alike():
    decks = [cards("blue waves, green plus, white bar") * 4, cards("blue circle, green waves, white circle") * 4]
    s = known_table([TOPPING, TOPPING_TOO], decks, round_=2)  # seat 1 has priority (P4)
    s.apply(1, {"type": "top", "order": [0, 1, 2]})  # sealed: the plan guesses it
    plan = planner.Plan(HINTS, sample_of(s, 0), 0, random.Random(3), None)
    root, seed = plan.sample(0)
    ours = planner.claims(HINTS, root, 0, root.legal_actions(0))
    assert [a["type"] for a in ours] == ["top", "renew"]
    after_top = root.clone()
    after_top.apply_legal(0, ours[0])
    assert outcomes(after_top) == {1: "applied", 0: "void"}
    values = []
    for claim in ours:
        plan.rng = random.Random(seed)
        values.append(plan.after(root, (claim,), 0))
    assert values[0] == values[1]
    # With priority ours, the same top stands and voids hers.
    first = known_table([TOPPING, TOPPING_TOO], decks, round_=1)
    first.apply(1, {"type": "top", "order": [0, 1, 2]})
    mine = sample_of(first, 0)
    planner.guess_claims(HINTS, mine, 0)
    mine.apply_legal(0, ours[0])
    assert outcomes(mine) == {0: "applied", 1: "void"}


def test_toppo_is_called_as_soon_as_it_may_be():
    # Seat 0 holds 3 + 5 cards (fewer than ten, ruling P5) and could also top.
    s = known_table(
        [TOPPING, NOTHING],
        [cards("blue waves, green plus, white bar, blue waves, green plus"), cards("blue circle, white circle") * 6],
    )
    sample = sample_of(s, 0)
    choice = planner.plan(HINTS, sample, 0, sample.legal_actions(0), random.Random(4), None)
    assert choice == {"type": "toppo"}
    assert choose_action("strong", GAME, s.view(0), 0, "toppo-now") == {"type": "toppo"}


def test_no_plan_while_a_deck_holds_unseen_cards_or_at_live_pace():
    fresh = GAME.new_state(2, {"pace": "correspondence"}, 7)
    sample = sample_of(fresh, 0)
    assert not planner.known(sample)
    assert planner.plan(HINTS, sample, 0, sample.legal_actions(0), random.Random(5), None) is None
    live = table(
        2,
        "live",
        display=DISPLAY,
        lines=[TOPPING, NOTHING],
        decks=[cards("blue waves, green plus") * 4, cards("blue circle, green waves") * 4],
    )
    live.stack = rest_of_the_cards(live)
    live.seen = [[True] * 8, [True] * 8]
    live_sample = sample_of(live, 0)
    rng = random.Random(6)
    before = rng.getstate()
    assert planner.plan(HINTS, live_sample, 0, live_sample.legal_actions(0), rng, None) is None
    assert rng.getstate() == before  # the live bot's choices draw on its generator exactly as before


def test_the_plan_takes_a_claim_the_seat_may_make_and_the_strong_bot_plays_it():
    decks = [cards("blue waves, green plus, white bar, yellow square") * 3, cards("blue circle, green waves") * 6]
    s = known_table([TOPPING, NOTHING], decks)
    sample = sample_of(s, 0)
    choice = planner.plan(HINTS, sample, 0, sample.legal_actions(0), random.Random(8), None)
    assert choice in s.legal_actions(0)
    assert choose_action("strong", GAME, s.view(0), 0, "known") in s.legal_actions(0)


def test_a_two_player_chooser_by_correspondence_asks_for_four_cards():
    s = known_table(
        [TOPPING, NOTHING], [cards("blue waves, green plus"), cards("blue circle, green waves, white circle") * 6]
    )
    s.apply(0, {"type": "toppo"})
    s.apply(1, {"type": "renew"})
    assert s.phase == "choose_display" and s.chooser == 1
    assert choose_action("strong", GAME, s.view(1), 1, "display") == {"type": "choose_display", "size": 4}


class _Spent:
    """A time limit already used up (engine.bots.base.Deadline's protocol)."""

    def passed(self) -> bool:
        return True


def test_every_sample_deals_only_the_hidden_cards_again():
    decks = [cards("blue waves, green plus, white bar, yellow square") * 3, cards("blue circle, green waves") * 6]
    s = known_table([TOPPING, NOTHING], decks)
    sample = sample_of(s, 0)
    plan = planner.Plan(HINTS, sample, 0, random.Random(9), None)
    hidden = sorted(sample.stack + [c for pile in sample.display for c in pile[:-1]])
    stacks = []
    for k in range(4):
        dealt, _ = plan.sample(k)
        assert dealt.decks == sample.decks and dealt.lines == sample.lines and dealt.tops() == sample.tops()
        assert sorted(dealt.stack + [c for pile in dealt.display for c in pile[:-1]]) == hidden
        stacks.append(dealt.stack)
    assert stacks[0] == sample.stack and any(st != stacks[0] for st in stacks[1:])


def test_with_no_time_left_the_plan_takes_the_policys_claim():
    decks = [cards("blue waves, green plus, white bar, yellow square") * 3, cards("blue circle, green waves") * 6]
    s = known_table([TOPPING, NOTHING], decks)
    sample = sample_of(s, 0)
    actions = sample.legal_actions(0)
    options = planner.claims(HINTS, sample, 0, actions)
    assert len(options) > 1
    choice = planner.Plan(HINTS, sample, 0, random.Random(10), _Spent()).choose(actions)
    assert choice == options[0]  # no sample finished: toppo, top, the biggest match, renew


def test_in_the_last_hand_a_won_match_counts_more_than_its_margin():
    decks = [cards("blue waves, green plus, white bar, blue waves, green plus"), cards("blue circle, white circle") * 6]
    lines = [TOPPING, NOTHING]
    values = {}
    for hands in (2, 1):  # toppo ends a hand of two, then the match's only hand
        s = known_table(lines, decks, hands=hands)
        plan = planner.Plan(HINTS, sample_of(s, 0), 0, random.Random(11), None)
        root, seed = plan.sample(0)
        plan.rng = random.Random(seed)
        values[hands] = plan.after(root, ({"type": "toppo"},), 0)
    assert values[2] == 15.0  # seat 1 holds 3 + 12 cards: the lead alone
    assert values[1] == 15.0 + planner.WIN


def test_a_budget_that_plans_from_the_deal_deals_the_unseen_deck_cards_again_and_keeps_the_seen_ones():
    decks = [cards("blue waves, green plus, white bar, yellow square") * 3, cards("blue circle, green waves") * 6]
    s = known_table([TOPPING, NOTHING], decks)
    s.seen[1][6:] = [False] * 6  # the rival's last six cards have not been seen yet
    sample = sample_of(s, 0)
    actions = sample.legal_actions(0)
    assert planner.plan(HINTS, sample, 0, actions, random.Random(12), None) is None  # strong: not yet
    expert = Budget(plan_unseen=True, plan_depth=2, plan_samples=6)
    assert planner.plan(HINTS, sample, 0, actions, random.Random(12), None, expert) in actions
    plan = planner.Plan(HINTS, sample, 0, random.Random(13), None, unseen=True)
    hidden = sorted(sample.stack + [c for pile in sample.display for c in pile[:-1]] + sample.decks[1][6:])
    moved = False
    for k in range(1, 5):
        dealt, _ = plan.sample(k)
        assert dealt.decks[0] == sample.decks[0] and dealt.decks[1][:6] == sample.decks[1][:6]
        rest = dealt.stack + [c for pile in dealt.display for c in pile[:-1]] + dealt.decks[1][6:]
        assert sorted(rest) == hidden
        moved |= dealt.decks[1][6:] != sample.decks[1][6:]
    assert moved


def test_a_budget_that_plans_the_rivals_claim_puts_her_own_plans_claim_in_every_sample():
    decks = [cards("blue waves, green plus, white bar") * 4, cards("blue circle, green waves, white circle") * 4]
    s = known_table([TOPPING, TOPPING_TOO], decks, round_=2)  # seat 1 has not claimed yet
    sample = sample_of(s, 0)
    assert claim_kinds(planner.Plan(HINTS, sample, 0, random.Random(14), None).sample(0)[0]) == {}  # the policy plays
    plan = planner.Plan(HINTS, sample, 0, random.Random(14), None, rival=True)
    plan.planned = plan.rival_claims()
    assert plan.planned[1] in s.legal_actions(1)
    for k in range(3):
        assert claim_kinds(plan.sample(k)[0]) == {1: plan.planned[1]["type"]}
    s.apply(1, {"type": "renew"})  # claimed, sealed: the guess is her plan's all the same
    plan = planner.Plan(HINTS, sample_of(s, 0), 0, random.Random(15), None, rival=True)
    plan.planned = plan.rival_claims()
    assert claim_kinds(plan.sample(0)[0]) == {1: plan.planned[1]["type"]}
    expert = Budget(plan_rival=True)
    assert planner.plan(
        HINTS, sample_of(s, 0), 0, s.legal_actions(0), random.Random(16), None, expert
    ) in s.legal_actions(0)


QUIET = "blue bar, blue plus, green bar, green plus, green plus, blue plus, green bar, green plus, blue bar"  # no top


def stuck_round(state, round_):
    """The round before `round_` ended with every claim a renew: the display looks stuck (hints.stuck)."""
    state.round = round_
    state.last_round = {
        "hand": 1,
        "round": round_ - 1,
        "priority": [(round_ - 2) % 2, (round_ - 1) % 2],
        "claims": [{"seat": s, "claim": {"type": "renew"}, "outcome": "renew"} for s in (0, 1)],
    }
    return state


def test_the_expert_proposes_a_new_display_the_rivals_next_line_would_top():
    # Round 1: seat 0 has priority now, seat 1 in round 2, when her next line (TOPPING) tops the display.
    decks = [cards(QUIET), cards(TOPPING) + cards(QUIET)[3:]]
    s = known_table([NOTHING, NOTHING], decks, round_=1)
    assert [a["type"] for a in s.legal_actions(0)] == ["renew", "propose_replace"]
    weighing = budget_for("expert", "toppo")
    assert weighing.plan_votes and not budget_for("strong", "toppo").plan_votes  # the expert level's own setting
    sample = sample_of(s, 0)
    assert not HINTS.forced_action(sample, 0, sample.legal_actions(0), random.Random(1), weighing)
    assert planner.plan(HINTS, sample, 0, sample.legal_actions(0), random.Random(17), None) is None  # one claim
    choice = planner.plan(HINTS, sample, 0, sample.legal_actions(0), random.Random(17), None, weighing)
    assert choice == {"type": "propose_replace"}
    # The bots as they play: strong renews (nothing looks stuck), the weighing level proposes, then claims.
    assert choose_action("strong", GAME, s.view(0), 0, "votes") == {"type": "renew"}
    assert choose_action("expert", GAME, s.view(0), 0, "votes") == {"type": "propose_replace"}
    s.apply(0, {"type": "propose_replace"})
    assert choose_action("expert", GAME, s.view(0), 0, "votes") == {"type": "renew"}


def test_the_expert_keeps_a_stuck_display_its_own_next_line_tops_where_strong_proposes():
    # Round 2 follows a round of renews; seat 0 can only renew, and her next line tops the display in round 3,
    # when she has priority.  Seat 1 matches now (red waves), so she proposes nothing herself.
    decks = [cards(TOPPING) + cards(QUIET)[3:], cards(QUIET)]
    s = stuck_round(known_table([NOTHING, "red waves, blue bar, blue plus"], decks), 3)
    assert s.tops() == cards(DISPLAY)
    assert choose_action("strong", GAME, s.view(0), 0, "stuck") == {"type": "propose_replace"}  # hints.stuck
    assert choose_action("expert", GAME, s.view(0), 0, "stuck") == {"type": "renew"}


def test_votes_are_weighed_only_where_the_level_plans():
    weighing = Budget(plan_votes=True)
    fresh = GAME.new_state(2, {"pace": "correspondence"}, 7)
    assert not planner.weighs_votes(fresh, weighing)  # a deck still holds unseen cards: the stuck rule holds
    assert planner.weighs_votes(fresh, Budget(plan_votes=True, plan_unseen=True))
    s = known_table([NOTHING, NOTHING], [cards(QUIET), cards(QUIET)[3:]])
    assert planner.weighs_votes(s, weighing) and not planner.weighs_votes(s, Budget())
