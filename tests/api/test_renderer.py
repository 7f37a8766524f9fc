"""The API's renderer writes the bytes DRF's own JSONRenderer writes (games.api.renderers, decision 28): compact,
Unicode kept, U+2028/U+2029 escaped, indented when asked, and a move's answer over the API is rendered by it."""

from __future__ import annotations

import math

import pytest
from rest_framework import renderers

from games.api.renderers import JSONRenderer

DATA = {
    "actions": [{"type": "place", "tile": 49, "cells": [[-15, 1], [-14, 0]], "orientation": 1}] * 3,
    "words": "Ana a joué\u2028la tuile ‹49›\u2029 🂡",
    "none": None,
    "flags": [True, False],
    "score": 1.5,
}


@pytest.mark.parametrize("media_type", [None, "application/json", "application/json; indent=4"])
def test_the_bytes_are_drfs_own(media_type):
    assert JSONRenderer().render(DATA, media_type) == renderers.JSONRenderer().render(DATA, media_type)
    assert JSONRenderer().render(None, media_type) == b""


def test_a_value_json_cannot_hold_is_still_refused():
    with pytest.raises(ValueError):
        JSONRenderer().render({"score": math.inf})


def test_the_api_answers_with_it():
    from rest_framework.settings import api_settings

    assert api_settings.DEFAULT_RENDERER_CLASSES[0] is JSONRenderer
