"""bench/bench_toppo_ceiling.py: the oracle that cheats plans on the true state (decision 30, point 2)."""

from __future__ import annotations

import json
import random

from test_toppo_planner import TOPPING, TOPPING_TOO, claim_kinds, known_table
from toppo_table import cards

from bench import bench_toppo_ceiling as ceiling

DECKS = [cards("blue waves, green plus, white bar") * 4, cards("blue circle, green waves, white circle") * 4]


def test_the_oracle_plans_on_the_true_state_with_the_rivals_real_sealed_claim():
    s = known_table([TOPPING, TOPPING_TOO], DECKS, round_=2)
    s.apply(1, {"type": "renew"})  # sealed: a fair bot would guess a top from her line
    oracle = ceiling.Oracle(s, 0, random.Random(1))
    for k in range(3):
        sample, _ = oracle.sample(k)
        assert claim_kinds(sample) == {1: "renew"}
        assert (sample.stack, sample.decks, sample.seed) == (s.stack, s.decks, s.seed)
    guessed, _ = ceiling.Oracle(s, 0, random.Random(1), sees="no-claim").sample(0)
    assert claim_kinds(guessed) == {1: "top"} and guessed.stack == s.stack
    fair, _ = ceiling.Oracle(s, 0, random.Random(1), sees="view").sample(0)
    assert claim_kinds(fair) == {1: "top"}
    assert fair.stack != s.stack and sorted(fair.stack) == sorted(s.stack)  # the stack dealt again from the view
    assert claim_kinds(s) == {1: "renew"}  # the true state is left as it was


def test_a_run_logs_each_match_and_resumes_where_it_stopped(tmp_path, capsys):
    log = tmp_path / "ceiling.jsonl"
    base = ["--rollouts", "1", "--depth", "1", "--no-limits", "--seed", "t", "--log", str(log)]
    ceiling.main([*base, "--matches", "1"])
    ceiling.main([*base, "--matches", "1", "--resume"])  # nothing left to play
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["oracle_seat"] == 0 and len(lines[0]["leads"]) == 3
    out = capsys.readouterr().out
    assert out.count("match 0:") == 1 and out.count("matches 1, oracle wins") == 2
