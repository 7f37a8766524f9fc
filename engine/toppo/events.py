"""Toppo's log entries as data (decision 13): the public events of the last action, each a phrase "toppo.<kind>" with
its facts (seats as indexes, cards as colour and symbol); the site words them (boards/toppo/words.py).

The rules append what happens to `state.events` as it happens (table.py, live.py, rounds.py); nothing hidden is
ever put there (a sealed claim is announced as "claimed", its content only once the round resolves).
"""

from __future__ import annotations

from engine.core import Action


def describe(state, seat: int, action: Action) -> list[dict]:
    """The phrases of the action just applied, or the generic one when it made nothing happen."""
    phrases = [{"code": f"toppo.{e['kind']}", **{k: v for k, v in e.items() if k != "kind"}} for e in state.events]
    return phrases or [{"code": "action", "seat": seat, "type": action.get("type", "action")}]
