"""A game's stored state is written and read by orjson (decision 28, point 1, games.state_json): the same values as
the standard library's json, for every game's states along a played game, through the database; where orjson
would differ (integers beyond 64 bits, values that are not plain JSON data) json's answer is the one given."""

from __future__ import annotations

import json
import random
from datetime import datetime

import pytest

from engine.core import get_game
from games.models import Game
from games.state_json import StateDecoder, StateEncoder
from tests.ratings.helpers import table_of


def _states(kind: str, steps: int = 40):
    rng = random.Random(kind)
    state = get_game(kind).new_state(2, None, f"seed-{kind}")
    for _ in range(steps):
        if state.is_over():
            break
        yield state.to_json()
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("kind", ["topology", "topoum", "toppo"])
def test_every_games_states_read_back_as_json_reads_them(kind):
    for data in _states(kind):
        written = json.dumps(data, cls=StateEncoder)
        assert json.loads(written) == data
        assert json.loads(written, cls=StateDecoder) == json.loads(json.dumps(data)) == data


def test_where_orjson_would_differ_json_answers():
    big = {"n": 2**70, "list": [-(2**65), 1], "3": "int keys become strings"}
    written = json.dumps({**big, 3: "x"}, cls=StateEncoder)
    assert written == json.dumps({**big, 3: "x"})
    read = json.loads(written, cls=StateDecoder)
    assert read["n"] == 2**70 and isinstance(read["n"], int)  # not the float orjson would read
    with pytest.raises(TypeError):
        json.dumps({"when": datetime(2026, 11, 28)}, cls=StateEncoder)  # refused, as json refuses it
    with pytest.raises(json.JSONDecodeError):
        json.loads('{"broken": ', cls=StateDecoder)


@pytest.mark.django_db
def test_a_state_stored_and_read_again_is_the_same(owner, member):
    game = table_of([owner, member])
    for data in _states("topoum", 12):
        game.state = {**data, "huge": 2**80}
        game.save(update_fields=["state"])
        assert Game.objects.get(pk=game.pk).state == game.state
