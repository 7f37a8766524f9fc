"""A rating for every bot level (decision 30, point 3): the calibration's fit, the published file, and where people and
programs read it (the new-table form, the rules pages, bot seats, the catalogue API).  Ruling S5: bots are never
rated in play; these numbers are a yardstick only."""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation

from bench.bench_calibrate import ANCHOR, calibrate, fit
from engine.bots import LEVELS
from games import services
from ratings import bot_strength, system
from ratings.keys import rating_keys
from ratings.models import Rating
from tests.web.conftest import client_for


def _games(results: dict[tuple[str, str], tuple[int, int]], seed: int = 1) -> list[tuple[str, str, float]]:
    """(a, b) -> (a's wins, b's wins) as a shuffled list of single games."""
    games = []
    for (a, b), (wins_a, wins_b) in results.items():
        games += [(a, b, 1.0)] * wins_a + [(a, b, 0.0)] * wins_b
    random.Random(seed).shuffle(games)
    return games


def test_the_fit_orders_levels_by_their_results_and_anchors_greedy_at_the_prior():
    fitted = fit(
        _games({("greedy", "random"): (38, 2), ("strong", "greedy"): (30, 10), ("strong", "random"): (40, 0)}),
        ["random", "greedy", "strong"],
        "test",
    )
    assert fitted[ANCHOR]["mu"] == pytest.approx(system.MU, abs=1e-3)
    assert fitted["random"]["rating"] < fitted["greedy"]["rating"] < fitted["strong"]["rating"]
    for level in fitted.values():
        assert abs(level["rating"] - system.shown_value(level["mu"], fitted[ANCHOR]["sigma"])) <= 1  # mu kept rounded


def test_a_level_measured_in_fewer_games_is_not_shown_weaker_than_one_it_beats():
    """Expert meets only strong, in fewer games than greedy and strong play: its sigma stays wider, and mu - 3 sigma
    at its own sigma would put it below strong although it wins most of their games.  Every level is read at the
    anchor's sigma, so the numbers keep the order of the mus."""
    fitted = fit(
        _games({("strong", "greedy"): (60, 20), ("greedy", "random"): (70, 10), ("expert", "strong"): (5, 3)}),
        ["random", "greedy", "strong", "expert"],
        "test",
    )
    assert fitted["expert"]["mu"] > fitted["strong"]["mu"]
    assert fitted["expert"]["sigma"] > fitted["strong"]["sigma"]
    assert system.shown_value(fitted["expert"]["mu"], fitted["expert"]["sigma"]) < fitted["strong"]["rating"]
    assert fitted["expert"]["rating"] > fitted["strong"]["rating"]


def test_an_even_match_gives_even_ratings_and_a_lopsided_one_a_wide_gap():
    even = fit(_games({("strong", "greedy"): (20, 20)}), ["greedy", "strong"], "test")
    lopsided = fit(_games({("strong", "greedy"): (36, 4)}), ["greedy", "strong"], "test")
    assert abs(even["strong"]["mu"] - even["greedy"]["mu"]) < 1.0
    assert lopsided["strong"]["mu"] - lopsided["greedy"]["mu"] > 3 * abs(even["strong"]["mu"] - even["greedy"]["mu"])


def test_calibrate_keys_ratings_as_the_leaderboards_do_and_keeps_every_pairing():
    run = {
        "game": "toppo",
        "pace": "live",
        "a": "greedy",
        "b": "random",
        "games": 4,
        "wins": 3.0,
        "lo": 0.3,
        "hi": 0.95,
        "outcomes": [1.0, 1.0, 1.0, 0.0],
        "median_s": {"greedy": 0.01, "random": 0.0},
        "p95_s": {"greedy": 0.02, "random": 0.001},
    }
    data = calibrate([run, {**run, "game": "topology", "pace": ""}], "test")
    assert set(data["ratings"]) == {"toppo-live", "topology"}
    assert data["ratings"]["toppo-live"]["greedy"]["games"] == 4
    assert [p["key"] for p in data["pairings"]] == ["toppo-live", "topology"]


def _run(game: str, pace: str, a: str, b: str, wins_a: int, wins_b: int) -> dict:
    """One bench_bots run as the calibration reads it (times are what the bench records, not asserted)."""
    games = wins_a + wins_b
    return {
        "game": game,
        "pace": pace,
        "a": a,
        "b": b,
        "games": games,
        "wins": float(wins_a),
        "lo": 0.0,
        "hi": 1.0,
        "outcomes": [1.0] * wins_a + [0.0] * wins_b,
        "median_s": {a: 0.5, b: 0.1},
        "p95_s": {a: 1.0, b: 0.2},
    }


@pytest.fixture
def published(tmp_path, monkeypatch):
    """A calibration of every level in every rating, written by bench_calibrate's own fit, read by the site."""
    levels = list(LEVELS)  # weakest first
    runs = []
    for key in rating_keys():
        game, _, pace = key.partition("-")
        for i in range(1, len(levels)):
            runs.append(_run(game, pace, levels[i], levels[i - 1], 16, 4))
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps({**calibrate(runs, "test"), "how": "python bench/bench_calibrate.py --games 20"}))
    monkeypatch.setattr(bot_strength, "DATA", path)
    bot_strength.calibration.cache_clear()
    yield json.loads(path.read_text())
    bot_strength.calibration.cache_clear()


def test_a_calibration_rates_every_level_in_every_rating_and_in_order(published):
    assert set(published["ratings"]) == set(rating_keys())
    for key, levels in published["ratings"].items():
        assert set(levels) == set(LEVELS), key
        ordered = [levels[level]["rating"] for level in LEVELS]
        assert ordered == sorted(ordered), key  # each level beat the one below it 16 to 4


def test_without_a_published_calibration_the_site_shows_no_figures(tmp_path, monkeypatch):
    monkeypatch.setattr(bot_strength, "DATA", tmp_path / "missing.json")
    bot_strength.calibration.cache_clear()
    try:
        assert bot_strength.level_ratings("topology") == {}
        assert bot_strength.level_strength("strong", "topology", "correspondence") == ""
    finally:
        bot_strength.calibration.cache_clear()


@pytest.mark.django_db
def test_the_new_table_form_states_each_levels_strength_per_game_and_pace(owner, published):
    page = client_for(owner).get("/tables/new/").content.decode()
    for key in rating_keys():
        for level, rating in bot_strength.level_ratings(key).items():
            assert bot_strength.shown(rating) in page, (key, level)
    assert 'class="help game-options bot-strength" data-game="toppo"' in page


@pytest.mark.django_db
def test_the_rules_page_lists_the_bots_strength_in_the_readers_language(client, published):
    ratings = bot_strength.level_ratings("topology")
    page = client.get("/rules/topology/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="bots"' in page
    with translation.override("es"):
        assert all(bot_strength.shown(r) in page for r in ratings.values())
    toppo = client.get("/rules/toppo/").content.decode()
    assert "Toppo (live)" in toppo and "Toppo (correspondence)" in toppo


@pytest.mark.django_db
def test_a_bot_seat_shows_its_levels_strength_and_no_rating_is_kept_for_it(owner, published):
    game = services.game_create(user=owner, kind="topoum", players=2, bots=["strong"])
    services.game_start(game_id=game.pk, user=owner)
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    assert 'class="bot-strength"' in page
    assert bot_strength.level_strength("strong", "topoum", "correspondence") in page
    assert not Rating.objects.exists()


@pytest.mark.django_db
def test_the_catalogue_gives_every_levels_rating_per_rating_key(client, published):
    levels = client.get("/api/catalogue/").json()["bot_levels"]
    for level in LEVELS:
        assert set(levels[level]["ratings"]) == set(rating_keys())
        assert levels[level]["ratings"]["topoum"] == bot_strength.level_ratings("topoum")[level]


@pytest.mark.parametrize("name", ["games.jsonl", "games.jsonl.gz"])
def test_a_logged_run_counts_every_game_once_and_resumes_where_it_stopped(tmp_path, name):
    """bench_bots --log writes a line a game as it ends (gzip-compressed for a .gz name, as the published logs are);
    --resume plays only the deals the log lacks, and the calibration reads the log as the games' outcomes (each
    deal once)."""
    from bench.bench_bots import main as bench_bots_main
    from bench.bench_bots import open_log, runs_from_log
    from bench.bench_calibrate import played_in

    log = tmp_path / name

    def lines_of():
        with open_log(str(log)) as f:
            return [json.loads(line) for line in f]

    base = ["--game", "topoum", "--pairs", "greedy:random", "--seed", "log-test", "--log", str(log)]
    bench_bots_main([*base, "--games", "2"])
    first = lines_of()
    assert [g["index"] for g in first] == [0, 1]
    assert [g["a_seat"] for g in first] == [0, 1]  # seats alternate

    bench_bots_main([*base, "--games", "3", "--resume"])
    lines = lines_of()
    assert [g["index"] for g in lines] == [0, 1, 2]  # deals 0 and 1 were not played again
    assert lines[:2] == first

    bench_bots_main([*base, "--games", "3"])  # without --resume the deals are played again, and logged again
    (run,) = runs_from_log(str(log))
    assert (run["game"], run["a"], run["b"], run["games"]) == ("topoum", "greedy", "random", 3)
    assert run["outcomes"] == [g["outcome"] for g in lines]
    assert played_in(str(log))["runs"][0]["games"] == 3

    # Another budget is another bot: its games are played, not taken from the level's own, and kept apart.
    bench_bots_main([*base, "--games", "2", "--resume", "--budget", '{"greedy": {"max_candidates": 4}}'])
    assert len(lines_of()) == 6 + 2
    runs = {json.dumps(r["budgets"]): r["games"] for r in runs_from_log(str(log))}
    assert runs == {"{}": 3, json.dumps({"greedy": {"max_candidates": 4}, "strong": {}}): 2}


def test_the_calibration_counts_a_pairing_once_whatever_seeds_played_it(tmp_path):
    """Runs of one pairing with other seeds are separate runs to resume, but one pairing to the calibration: its
    games add up (each deal of each seed once) in one row of the published file."""
    from bench.bench_bots import main as bench_bots_main
    from bench.bench_bots import runs_from_log
    from bench.bench_calibrate import played_in

    log = str(tmp_path / "games.jsonl")
    base = ["--game", "topoum", "--pairs", "greedy:random", "--log", log]
    bench_bots_main([*base, "--games", "2", "--seed", "pool-a"])
    bench_bots_main([*base, "--games", "3", "--seed", "pool-b"])
    bench_bots_main([*base, "--games", "3", "--seed", "pool-b", "--resume"])  # nothing new to play

    assert sorted(r["games"] for r in runs_from_log(log)) == [2, 3]
    (pooled,) = played_in(log)["runs"]
    assert (pooled["games"], pooled["seed"]) == (5, "pool-a+pool-b")
    assert len(pooled["outcomes"]) == 5


def test_no_limits_plays_each_decision_on_the_budget_alone(tmp_path):
    """--no-limits reaches the games: a correspondence turn is then timed decision by decision, not as one turn."""
    from bench.bench_bots import main as bench_bots_main

    logs = {}
    for flag in ([], ["--no-limits"]):
        log = tmp_path / f"games{len(flag)}.jsonl"
        bench_bots_main(["--game", "topology", "--pairs", "greedy:random", "--games", "1", "--log", str(log), *flag])
        logs[bool(flag)] = json.loads(log.read_text())
    assert logs[False]["site"] is True and logs[True]["site"] is False
    # Topology places three tiles a turn: a turn as the site plays it is one timed step, a decision is one tile.
    assert len(logs[True]["times"]["greedy"]) > len(logs[False]["times"]["greedy"])


def test_a_live_table_paces_each_seat_by_its_levels_reaction_time():
    """bench_bots paces live bots as the site does: a decision comes due after the level's reaction time, and the
    other seats' tasks stay due when they were, so a faster level acts more often and a slower one still acts."""
    from bench.bench_bots import LiveTable

    table = LiveTable({0: "expert", 1: "greedy"}, "live-table-test")
    acted = {0: 0, 1: 0}
    for _ in range(600):
        seat = table.next_seat([0, 1])
        acted[seat] += 1
        table.decided(seat, 0.05)  # each decision thought for 50 ms
    # Expert reacts in 0.4-0.9 s, greedy in 1.0-2.0 s: about 0.70 s against 1.55 s a decision, thinking included.
    low, high = LEVELS["expert"]["delay_seconds"], LEVELS["greedy"]["delay_seconds"]
    expected = (sum(high) / 2 + 0.05) / (sum(low) / 2 + 0.05)
    assert acted[1] > 100
    assert acted[0] / acted[1] == pytest.approx(expected, rel=0.15)
    # A seat that could not act (seat 1 below) reacts from the moment it can, not from a time already past.
    table.next_seat([0])
    table.decided(0, 5.0)
    now = table.clock
    assert table.due[1] < now  # its last task came due while it could not act
    table.next_seat([0, 1])
    assert table.due[1] >= now + high[0]


def test_the_published_calibration_rates_every_level_in_every_rating():
    """ratings/bot_ratings.json, as bench_calibrate wrote it: every rating the leaderboards keep has every level,
    each number is the site's own reading of its mu at the anchor's sigma, greedy is the anchor, and the levels that
    beat each other clearly are in that order."""
    data = json.loads(bot_strength.DATA.read_text())
    assert data["anchor"] == ANCHOR
    assert set(data["ratings"]) == set(rating_keys())
    for key, levels in data["ratings"].items():
        assert set(levels) == set(LEVELS), key
        assert levels[ANCHOR]["mu"] == pytest.approx(system.MU, abs=1e-3)
        for entry in levels.values():
            # mu and sigma are kept to three decimals, the rating from the unrounded ones: a point either way.
            assert abs(entry["rating"] - system.shown_value(entry["mu"], levels[ANCHOR]["sigma"])) <= 1
            assert entry["games"] > 0
        assert levels["random"]["rating"] < levels["greedy"]["rating"] < levels["strong"]["rating"], key
    for pairing in data["pairings"]:
        assert pairing["low"] <= pairing["wins"] / pairing["games"] <= pairing["high"]
    # People read the levels weakest first, as the new-table form lists them (the file's keys are sorted).
    bot_strength.calibration.cache_clear()
    for key in rating_keys():
        assert list(bot_strength.level_ratings(key)) == list(LEVELS)
