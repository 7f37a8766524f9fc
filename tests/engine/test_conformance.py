"""The contract every registered game keeps (ARCHITECTURE: habits).

Random legal games run to the end without an error; the seed plus the action log
replays to the same state; serialise then load is the identity; an illegal action
changes nothing; planted secrets never reach another seat's view; every view matches the game's documented
view schema (engine/view_schemas.py, decision 12), for every seat and a spectator, at every step.
"""

from __future__ import annotations

import json
import os

import jsonschema
import jsonschema_rs
import pytest

from engine.core import SHARED, IllegalAction, all_games, canonical, make_rng, replay
from engine.view_schemas import VIEW_SCHEMAS

# How many random games each configuration plays; CI keeps the default.
GAMES = int(os.environ.get("TOPOS_CONFORMANCE_GAMES", "0")) or None
# Games per configuration whose every view (each seat and a spectator, after every decision) is checked against
# the view schema; the other tests check the views they build too.
SCHEMA_GAMES = 3
MAX_STEPS = 100_000

FARMER_DECK = ["grenade", "mortar_attack", "advance", "panic_attack", "build_barracks", "red_cross", "farmer"]
FARMER_NAMES = (
    "kings_of_buckets",
    "the_crusher",
    "the_sprayer",
    "queen_of_nature",
    "lady_boom",
    "trap_master",
    "the_stomper",
    "lord_of_the_crates",
)

CONFIGS = {
    "topology": [(2, {}, 1200), (2, {"advanced": True}, 600), (3, {}, 300), (4, {}, 300)],
    # The four presets together hold all 22 card types; every farmer meets Red Cross and the
    # heavy combat cards; the obstacle variant plays beside the farmers it may share a table with.
    "topoum": [
        (2, {}, 500),
        (3, {"deck": "preset", "preset": "tacticians"}, 250),
        (4, {"deck": "random"}, 250),
        (2, {"deck": "preset", "preset": "duel"}, 250),
        (3, {"deck": "preset", "preset": "strategists", "farmer": "random"}, 300),
        (2, {"deck": "random", "obstacles": True}, 250),
        # ruling T21 (turn 3): a random deck beside obstacles and an obstacle farmer, drawn without the farmer card
        (2, {"deck": "random", "obstacles": True, "farmer": "the_crusher"}, 60),
        *[(3, {"deck": "custom", "types": FARMER_DECK, "farmer": farmer}, 60) for farmer in FARMER_NAMES],
        *[
            (2, {"deck": "custom", "types": FARMER_DECK, "farmer": farmer, "obstacles": True}, 60)
            for farmer in ("queen_of_nature", "lady_boom", "trap_master", "the_stomper", "lord_of_the_crates")
        ],
    ],
    "toppo": [
        (2, {"pace": "live"}, 300),
        (3, {"pace": "correspondence"}, 500),
        (5, {"pace": "live"}, 100),
        (8, {"pace": "correspondence"}, 100),
    ],
}


def configurations():
    for name, game in sorted(all_games().items()):
        for players, options, count in CONFIGS.get(name, [(game.min_players, {}, 300)]):
            yield pytest.param(
                name,
                players,
                options,
                GAMES or count,
                id=f"{name}-{players}p-{'-'.join(f'{k}={v}' for k, v in options.items() if k != 'types') or 'default'}",
            )


def random_playthrough(game, players, options, seed):
    """Play one random game; return the final state, its log, and a few mid-game states."""
    state = game.new_state(players, game.validate_options(players, options), seed)
    rng = make_rng(f"conformance-{seed}", 0)
    log, samples = [], []
    for step in range(MAX_STEPS):
        seats = state.to_act()
        if not seats:
            return state, log, samples
        seat = rng.choice(seats)
        actions = [a for a in state.legal_actions(seat) if a.get("type") != "undo" or rng.random() < 0.05]
        assert actions, f"seat {seat} must decide but has no legal action (Law #7 / no dead ends)"
        action = rng.choice(actions)
        state.apply(seat, json.loads(json.dumps(action)))
        log.append((seat, action))
        if step % 37 == 0:
            samples.append(state.clone())
    raise AssertionError(f"game did not end within {MAX_STEPS} decisions")


# Seeds per test item: the long runs (1,200 two-player Topology games) are cut into items of at most this many
# seeds, the same seeds all told, so that pytest-xdist spreads them over its workers; as one item the longest took
# a tenth of the whole suite's time on a single worker.
SEEDS_PER_ITEM = 150


def seed_ranges():
    for config in configurations():
        name, players, options, count = config.values
        for start in range(0, count, SEEDS_PER_ITEM):
            seeds = range(start, min(count, start + SEEDS_PER_ITEM))
            chunk = "" if len(seeds) == count else f"-seeds{seeds.start}-{seeds.stop - 1}"
            yield pytest.param(name, players, options, seeds, id=config.id + chunk)


@pytest.mark.parametrize("name,players,options,seeds", list(seed_ranges()))
def test_random_games_end_and_replay(name, players, options, seeds):
    game = all_games()[name]
    opts = game.validate_options(players, options)
    for seed in seeds:
        final, log, samples = random_playthrough(game, players, options, seed)
        assert final.is_over() and final.to_act() == []
        results = final.results()
        assert sorted(r.seat for r in results) == list(range(players))
        assert min(r.rank for r in results) == 1
        # A tied seat names the rule that placed it, one of its game's (or SHARED); a seat alone on its score none.
        scores = [r.score for r in results]
        assert all(r.tie_break in (*game.tie_breaks, SHARED) for r in results if scores.count(r.score) > 1)
        assert all(r.tie_break is None for r in results if scores.count(r.score) == 1)
        if seed % 10 == 0:  # replay and round-trips are slower; a tenth of the games suffice
            again = replay(game, players, opts, seed, log)
            assert again.to_json() == final.to_json()
            for state in samples + [final]:
                data = json.loads(json.dumps(state.to_json()))
                assert game.load(data).to_json() == state.to_json()


@pytest.mark.parametrize("name,players,options,count", list(configurations()))
def test_illegal_actions_change_nothing(name, players, options, count):
    game = all_games()[name]
    state = game.new_state(players, game.validate_options(players, options), 7)
    rng = make_rng("illegal", 0)
    for _ in range(300):
        seats = state.to_act()
        if not seats:
            break
        before = json.dumps(state.to_json(), sort_keys=True)
        legal = {canonical(a) for a in state.legal_actions(seats[0])}
        bogus = [
            {"type": "no-such-action"},
            {},
            {"type": "place", "cells": "nonsense"},
            {"type": "play", "card": "ace of spades"},
        ]
        for action in bogus:
            if canonical(action) in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                state.apply(seats[0], action)
            assert err.value.code.strip(), "an illegal action needs a reason (a code the site words)"
            assert json.dumps(state.to_json(), sort_keys=True) == before
        others = [s for s in range(players) if s not in seats]
        if others:
            with pytest.raises(IllegalAction):
                state.apply(others[0], state.legal_actions(seats[0])[0])
            assert json.dumps(state.to_json(), sort_keys=True) == before
        seat = rng.choice(seats)
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("name,players,options,count", list(configurations()))
def test_views_never_carry_another_seats_secrets(name, players, options, count):
    game = all_games()[name]
    for seed in range(12):
        state, _, samples = random_playthrough(game, players, options, 1000 + seed)
        for sample in samples[:: max(1, len(samples) // 6)]:
            for viewer in [None, *range(players)]:  # before the markers (strings) take the secrets' places
                check_view(name, sample.view(viewer), f"seed {1000 + seed}, seat {viewer}")
            planted = game.plant_secrets(sample)
            assert planted.get(None), "every game hides something from everyone (the seed at least)"
            for viewer in [None, *range(players)]:
                text = json.dumps(sample.view(viewer))
                for owner, markers in planted.items():
                    if owner == viewer:
                        continue
                    for marker in markers:
                        assert marker not in text, f"view of {viewer} leaks {marker} (owned by {owner})"


@pytest.mark.parametrize("name,players,options,count", list(configurations()))
def test_determinized_state_shows_the_same_view(name, players, options, count):
    """A state sampled from a seat's view looks the same to that seat: the view says all it may know."""
    game = all_games()[name]
    for seed in range(6):
        _, _, samples = random_playthrough(game, players, options, 2000 + seed)
        for sample in samples[:: max(1, len(samples) // 5)]:
            for seat in range(players):
                view = sample.view(seat)
                guess = game.determinize(view, seat, make_rng("determinize", seed))
                assert guess.view(seat) == view
                assert guess.to_act() == sample.to_act()


def check_view(name: str, view: dict, where: str = "") -> None:
    """The view matches its game's schema: every field documented, none missing, none of another shape.

    Checked with jsonschema-rs (every view of every step: the Python validator would take minutes), and explained
    with jsonschema when it fails.
    """
    fast = _validators().get(name)
    assert fast is not None, f"{name} has no view schema: add one to engine/view_schemas.py"
    if fast.is_valid(view):
        return
    problems = sorted(
        jsonschema.Draft202012Validator(VIEW_SCHEMAS[name]).iter_errors(view), key=lambda e: list(e.absolute_path)
    )
    assert not problems, f"{name} view {where}: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}" for e in problems[:5]
    )
    raise AssertionError(f"{name} view {where} does not match its schema")


def _validators(cache={}):
    if not cache:
        for game, schema in VIEW_SCHEMAS.items():
            jsonschema.Draft202012Validator.check_schema(schema)
            cache[game] = jsonschema_rs.Draft202012Validator(schema)
    return cache


def test_every_game_documents_its_view():
    assert set(VIEW_SCHEMAS) == set(all_games())
    for name, schema in VIEW_SCHEMAS.items():
        assert schema["title"] == f"{name.title()}View" and schema["additionalProperties"] is False


@pytest.mark.parametrize("name,players,options,count", list(configurations()))
def test_every_view_matches_the_view_schema(name, players, options, count):
    """Decision 12: a client author can rely on the documented view; a field added without documentation fails."""
    game = all_games()[name]
    for seed in range(SCHEMA_GAMES):
        state = game.new_state(players, game.validate_options(players, options), 3000 + seed)
        rng = make_rng(f"schema-{seed}", 0)
        for step in range(MAX_STEPS):
            for viewer in [None, *range(players)]:
                check_view(name, json.loads(json.dumps(state.view(viewer))), f"seed {seed} step {step} seat {viewer}")
            seats = state.to_act()
            if not seats:
                break
            seat = rng.choice(seats)
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("name", sorted(VIEW_SCHEMAS))
def test_a_view_with_an_undocumented_or_missing_field_fails_the_check(name):
    game = all_games()[name]
    view = game.new_state(game.min_players, game.validate_options(game.min_players, {}), 1).view(0)
    check_view(name, view)
    with pytest.raises(AssertionError, match="new_field"):
        check_view(name, {**view, "new_field": 1})
    with pytest.raises(AssertionError, match="seat"):
        check_view(name, {k: v for k, v in view.items() if k != "seat"})
