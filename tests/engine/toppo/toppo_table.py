"""Helpers for the Toppo tests: cards by name and tables laid out card by card."""

from __future__ import annotations

import json

import engine.toppo  # noqa: F401  (registers the game)
from engine.core import get_game
from engine.toppo.cards import COLOURS, SYMBOLS

GAME = get_game("toppo")


def card(text: str) -> int:
    """'red waves' -> the card's int."""
    colour, symbol = text.split()
    return COLOURS.index(colour) * 5 + SYMBOLS.index(symbol)


def cards(text: str) -> list[int]:
    """'red waves, blue plus' -> ints; an empty string is no card."""
    return [card(t.strip()) for t in text.split(",") if t.strip()]


def filler(count: int, start: int = 0) -> list[int]:
    """`count` cards that do not matter to a test."""
    return [(start + i) % 25 for i in range(count)]


def table(
    players: int = 2,
    pace: str = "live",
    *,
    display: str | list,
    lines: list[str] | None = None,
    decks: list | None = None,
    stack: list | None = None,
    restarter=None,
    hands: int = 3,
    seed: int = 0,
):
    """A state in play with exactly the given cards; `display` is tops or a list of piles (bottom first)."""
    s = GAME.new_state(players, {"pace": pace, "hands": hands}, seed)
    if isinstance(display, str):
        s.display = [[c] for c in cards(display)]
    else:
        s.display = [cards(p) for p in display]
    s.size = len(s.display)
    s.lines = [cards(line) for line in lines] if lines else [[] for _ in range(players)]
    if decks is not None:
        s.decks = [cards(d) if isinstance(d, str) else list(d) for d in decks]
        s.seen = [[False] * len(d) for d in s.decks]  # nobody has seen a card of a deck laid out here
    if stack is not None:
        s.stack = cards(stack) if isinstance(stack, str) else list(stack)
    s.restarter = restarter
    s.claims = []
    s.proposal = None
    s.events = []
    return s


def snapshot(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def total_cards(state) -> int:
    """Every card of the game, wherever it lies (the count never changes)."""
    return (
        sum(len(d) for d in state.decks)
        + sum(len(line) for line in state.lines)
        + len(state.stack)
        + sum(len(p) for p in state.display)
    )
