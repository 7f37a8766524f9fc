"""The Toppo card set (ruling P1) and the two ways a line meets the display: top and match.

A card is an int 0..24: colour = card // 5, symbol = card % 5.  Copies are not told apart;
two cards are identical when their ints are equal.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

COLOURS = ("red", "yellow", "white", "green", "blue")
SYMBOLS = ("waves", "circle", "square", "bar", "plus")
KINDS = len(COLOURS) * len(SYMBOLS)  # 25 different cards
COPIES = 6  # of each card in one set: 150 cards (ruling P1)
DECK_SIZE = 33  # each player's face-down deck at the start of a hand
TOPPO_LIMIT = 10  # toppo needs fewer than this many cards in deck and line (ruling P5)
PENALTY_CARDS = 5  # a wrong call costs the line plus this many stack cards (ruling P3)


def sets_for(players: int) -> int:
    """One set for 2-4 players, two (300 cards) for 5-8 (ruling P1)."""
    return 2 if players >= 5 else 1


def full_set(sets: int) -> list[int]:
    """Every card of `sets` sets, in a fixed order (shuffled by the caller)."""
    return [card for card in range(KINDS) for _ in range(COPIES * sets)]


def card_json(card: int) -> dict:
    """A card as views show it."""
    return {"colour": COLOURS[card // 5], "symbol": SYMBOLS[card % 5]}


def card_from_json(data: dict) -> int:
    """The inverse of card_json."""
    return COLOURS.index(data["colour"]) * 5 + SYMBOLS.index(data["symbol"])


def card_words(card: int) -> str:
    return f"{COLOURS[card // 5]} {SYMBOLS[card % 5]}"


def coincide(a: int, b: int) -> bool:
    """Same colour or same symbol: what a top needs at each position."""
    return a // 5 == b // 5 or a % 5 == b % 5


def is_top(line: list[int], tops: list[int], order: list[int]) -> bool:
    """True when line[order[i]] coincides with display card i for every i."""
    return len(line) == len(tops) and all(coincide(line[j], tops[i]) for i, j in enumerate(order))


def top_orders(line: list[int], tops: list[int]) -> list[list[int]]:
    """Every order of the line that tops the display (order[i] = line position laid on display card i)."""
    return [list(order) for order in _top_orders(tuple(line), tuple(tops))]


@lru_cache(maxsize=65536)
def _top_orders(line: tuple[int, ...], tops: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """top_orders, remembered (a bot's playouts meet the same lines and displays again); never handed out."""
    size = len(tops)
    if len(line) != size:
        return ()
    fits = [[j for j in range(size) if coincide(line[j], tops[i])] for i in range(size)]
    out: list[list[int]] = []
    chosen: list[int] = []
    used = [False] * size

    def walk(i: int) -> None:
        if i == size:
            out.append(list(chosen))
            return
        for j in fits[i]:
            if not used[j]:
                used[j] = True
                chosen.append(j)
                walk(i + 1)
                chosen.pop()
                used[j] = False

    walk(0)
    return tuple(tuple(order) for order in out)


def match_choices(line: list[int], tops: list[int]) -> list[list[list[int]]]:
    """Every right match: pairs [line position, display position] of identical cards, line positions rising.

    Several line cards may go onto the same display card: once the first lies there, the
    next identical card matches it again.
    """
    return [[list(pair) for pair in pairs] for pairs in _match_choices(tuple(line), tuple(tops))]


@lru_cache(maxsize=65536)
def _match_choices(line: tuple[int, ...], tops: tuple[int, ...]) -> tuple:
    """match_choices, remembered as tuples; never handed out."""
    options = [[None] + [d for d, top in enumerate(tops) if top == card] for card in line]
    if all(len(o) == 1 for o in options):
        return ()
    out = []
    for pick in product(*options):
        pairs = tuple((i, d) for i, d in enumerate(pick) if d is not None)
        if pairs:
            out.append(pairs)
    return tuple(out)


def _fault(line: list[int], tops: list[int], j: int, d: int) -> dict:
    """The first pair at fault, as facts: line position, its card, display position, that card."""
    return {"line_card": j, "card": card_json(line[j]), "display_card": d, "display": card_json(tops[d])}


def top_fault(line: list[int], tops: list[int], order: list[int]) -> dict | None:
    """Why `order` does not top the display: the first line card sharing nothing with its display card."""
    for i, j in enumerate(order):
        if not coincide(line[j], tops[i]):
            return _fault(line, tops, j, i)
    return None


def match_fault(line: list[int], tops: list[int], pairs: list[list[int]]) -> dict | None:
    """Why `pairs` is not a match: the first line card not identical to its display card; None if none."""
    for i, d in pairs:
        if line[i] != tops[d]:
            return _fault(line, tops, i, d)
    return None
