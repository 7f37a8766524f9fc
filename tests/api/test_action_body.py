"""A move's body taken as it is (games.api.views.plainly_valid_action, decision 28) is exactly what ActionIn makes
of it; whatever it does not take plainly is left to ActionIn, which refuses it in its own words."""

from __future__ import annotations

import pytest

from games.api.serializers import ActionIn
from games.api.views import plainly_valid_action

BODIES = [
    {"action": {"type": "end_turn"}, "expected_version": 0},
    {"action": {"type": "place", "tile": 4, "cells": [[0, 1]]}, "expected_version": 17, "seat": 1},
    {"action": {"type": "end_turn"}, "expected_version": 3, "other": "ignored"},
    {"action": {"type": "end_turn"}, "expected_version": 10**20},
    {"action": {"type": "end_turn"}, "expected_version": "3"},
    {"action": {"type": "end_turn"}, "expected_version": 3.0},
    {"action": {"type": "end_turn"}, "expected_version": True},
    {"action": {"type": "end_turn"}, "expected_version": -1},
    {"action": {"type": "end_turn"}, "expected_version": None},
    {"action": {"type": "end_turn"}},
    {"action": {"type": "end_turn"}, "expected_version": 2, "seat": None},
    {"action": {"type": "end_turn"}, "expected_version": 2, "seat": -1},
    {"action": {"type": "end_turn"}, "expected_version": 2, "seat": "1"},
    {"action": {"type": "end_turn"}, "expected_version": 2, "seat": False},
    {"action": {"type": 5}, "expected_version": 2},
    {"action": {}, "expected_version": 2},
    {"action": ["end_turn"], "expected_version": 2},
    {"action": '{"type": "end_turn"}', "expected_version": 2},
    {"expected_version": 2},
    [],
    "text",
    None,
]


@pytest.mark.parametrize("body", BODIES)
def test_a_body_taken_plainly_is_what_the_serializer_makes_of_it(body):
    plain = plainly_valid_action(body)
    judged = ActionIn(data=body)
    if plain is not None:
        assert judged.is_valid() and dict(judged.validated_data) == plain
        assert all(type(plain[k]) is type(v) for k, v in judged.validated_data.items())


def test_the_common_bodies_are_taken_plainly():
    assert plainly_valid_action(BODIES[0]) == BODIES[0]
    assert plainly_valid_action(BODIES[1]) == BODIES[1]
