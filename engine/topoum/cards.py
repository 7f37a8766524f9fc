"""The 22 card types of Topoum, their categories, the site's preset decks and deck building (ruling T6)."""

from __future__ import annotations

import random

COMBAT, MOVEMENT, EXPANSION, SPECIAL = "combat", "movement", "expansion", "special"
CATEGORIES = (COMBAT, MOVEMENT, EXPANSION, SPECIAL)

# name -> (title, category), in the rulebook's order.
CARDS: dict[str, tuple[str, str]] = {
    "bayonet": ("Bayonet", COMBAT),
    "short_range": ("Short Range", COMBAT),
    "long_range": ("Long Range", COMBAT),
    "grenade": ("Grenade", COMBAT),
    "mortar_attack": ("Mortar Attack", COMBAT),
    "slingshot": ("Slingshot", COMBAT),
    "advance": ("Advance", MOVEMENT),
    "underground_maneuver": ("Underground Maneuver", MOVEMENT),
    "motorbike_patrol": ("Motorbike Patrol", MOVEMENT),
    "panic_attack": ("Panic Attack", MOVEMENT),
    "tunnel": ("Tunnel", MOVEMENT),
    "decoy": ("Decoy", MOVEMENT),
    "build_barracks": ("Build Barracks", EXPANSION),
    "abandoned_barracks": ("Abandoned Barracks", EXPANSION),
    "conquest": ("Conquest", EXPANSION),
    "betrayal": ("Betrayal", EXPANSION),
    "new_soldier": ("New Soldier", EXPANSION),
    "prisoner_of_war": ("Prisoner of War", SPECIAL),
    "medal_of_honor": ("Medal of Honor", SPECIAL),
    "press_support": ("Press Support", SPECIAL),
    "red_cross": ("Red Cross", SPECIAL),
    "farmer": ("Farmer is coming!", SPECIAL),
}
CARD_NAMES = tuple(CARDS)
PEACE = "peace"

PRESETS: dict[str, tuple[str, ...]] = {
    "recruits": (
        "short_range",
        "grenade",
        "advance",
        "motorbike_patrol",
        "build_barracks",
        "conquest",
        "medal_of_honor",
    ),
    "tacticians": (
        "bayonet",
        "long_range",
        "mortar_attack",
        "underground_maneuver",
        "panic_attack",
        "abandoned_barracks",
        "red_cross",
    ),
    "duel": ("slingshot", "short_range", "decoy", "tunnel", "new_soldier", "betrayal", "prisoner_of_war"),
    "strategists": ("long_range", "advance", "tunnel", "build_barracks", "conquest", "press_support", "farmer"),
}
COPIES = {2: 5, 3: 6, 4: 7}
TYPES_PER_DECK = 7


def title(card: str) -> str:
    """The printed name of a card type (unknown names are shown as they are)."""
    entry = CARDS.get(card) if isinstance(card, str) else None  # a refused action may carry anything
    return entry[0] if entry else ("Peace" if card == PEACE else str(card)[:40])


def category(card: str) -> str | None:
    entry = CARDS.get(card)
    return entry[1] if entry else None


def missing_categories(types) -> list[str]:
    """Categories with no card type among `types`."""
    present = {CARDS[t][1] for t in types if t in CARDS}
    return [c for c in CATEGORIES if c not in present]


def random_types(rng: random.Random, leave_out: tuple[str, ...] = ()) -> list[str]:
    """Seven types drawn uniformly among the sets that have every category (ruling T6) and none of `leave_out`."""
    names = tuple(t for t in CARD_NAMES if t not in leave_out) if leave_out else CARD_NAMES
    while True:
        types = rng.sample(names, TYPES_PER_DECK)
        if not missing_categories(types):
            return sorted(types, key=CARD_NAMES.index)


def build_deck(types, players: int, rng: random.Random) -> list[str]:
    """The shuffled action deck with Peace among the bottom six; the top card is the last item."""
    deck = [t for t in types for _ in range(COPIES[players])]
    rng.shuffle(deck)
    # "Put the last 5 cards aside and shuffle among them the Peace card ... at the bottom of the deck."
    bottom = deck[:5] + [PEACE]
    rng.shuffle(bottom)
    return bottom + deck[5:]
