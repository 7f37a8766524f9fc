"""How strong each bot level is, on the site's rating scale: the published calibration, read from bot_ratings.json.

bench/bench_calibrate.py writes the file (levels played against each other, OpenSkill fitted, greedy as the anchor;
docs/bots.md gives the figures and how to re-run it).  These numbers are a yardstick for people choosing a level:
they never enter a leaderboard, and tables with bots stay unrated (ruling S5).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.utils.formats import number_format

from engine.bots import levels as bot_levels
from engine.core import all_games
from games.engine_texts import engine_text

from .keys import key_label, rating_key

DATA = Path(__file__).with_name("bot_ratings.json")


@cache
def calibration() -> dict:
    """The published calibration as data (an empty one when the file is missing)."""
    try:
        return json.loads(DATA.read_text())
    except FileNotFoundError:
        return {"ratings": {}, "pairings": []}


def level_ratings(key: str) -> dict[str, int]:
    """Level -> its rating in the rating `key` (a game, or a game at a pace), weakest level first as the levels are
    listed (the file keeps its keys sorted); levels never measured are left out."""
    measured = calibration()["ratings"].get(key, {})
    return {level: measured[level]["rating"] for level in bot_levels() if level in measured}


def ratings_by_level() -> dict[str, dict[str, int]]:
    """Level -> rating key -> rating, for every measured rating (the catalogue API's shape)."""
    found: dict[str, dict[str, int]] = {}
    for key, levels in calibration()["ratings"].items():
        for level, entry in levels.items():
            found.setdefault(level, {})[key] = entry["rating"]
    return found


def shown(rating: int) -> str:
    """The rating as people read it: "≈ 1,640" in the reader's number format."""
    return "≈ " + number_format(rating, force_grouping=True)


def game_strengths(kind: str) -> list[dict]:
    """Per pace of the game (one row for a game of one pace): its label and each level's shown rating."""
    game = all_games()[kind]
    paces = game.paces if len(game.paces) > 1 else ("",)
    rows = []
    for pace in paces:
        key = rating_key(kind, pace or game.paces[0])
        ratings = level_ratings(key)
        if ratings:
            rows.append({"key": key, "label": key_label(key), "levels": {lvl: shown(r) for lvl, r in ratings.items()}})
    return rows


def level_strength(level: str, kind: str, pace: str) -> str:
    """The shown rating of one bot seat's level at a table of `kind` at `pace` ("" when not measured)."""
    rating = level_ratings(rating_key(kind, pace)).get(level)
    return shown(rating) if rating is not None else ""


def worded_strengths(kind: str) -> list[dict]:
    """game_strengths with each level named in the reader's language: [{"label", "levels": [(name, shown)]}]."""
    names = {level: engine_text(meta.get("label", level)) for level, meta in bot_levels().items()}
    return [
        {"label": row["label"], "levels": [(names.get(level, level), shown) for level, shown in row["levels"].items()]}
        for row in game_strengths(kind)
    ]
