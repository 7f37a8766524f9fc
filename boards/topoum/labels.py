"""Topoum's names at the table: colours, cards, categories, farmers, features and arrows, marked for translation.

Shared by the board (boards.topoum.presenter) and the log's words (boards.topoum.words), which both name
cards and colours; neither imports the other for them.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

COLOUR_NAMES = ("red", "blue", "yellow", "black")
COLOUR_LABELS = {
    "red": gettext_noop("Red"),
    "blue": gettext_noop("Blue"),
    "yellow": gettext_noop("Yellow"),
    "black": gettext_noop("Black"),
}

CARD_TITLES = {
    "bayonet": gettext_noop("Bayonet"),
    "short_range": gettext_noop("Short Range"),
    "long_range": gettext_noop("Long Range"),
    "grenade": gettext_noop("Grenade"),
    "mortar_attack": gettext_noop("Mortar Attack"),
    "slingshot": gettext_noop("Slingshot"),
    "advance": gettext_noop("Advance"),
    "underground_maneuver": gettext_noop("Underground Maneuver"),
    "motorbike_patrol": gettext_noop("Motorbike Patrol"),
    "panic_attack": gettext_noop("Panic Attack"),
    "tunnel": gettext_noop("Tunnel"),
    "decoy": gettext_noop("Decoy"),
    "build_barracks": gettext_noop("Build Barracks"),
    "abandoned_barracks": gettext_noop("Abandoned Barracks"),
    "conquest": gettext_noop("Conquest"),
    "betrayal": gettext_noop("Betrayal"),
    "new_soldier": gettext_noop("New Soldier"),
    "prisoner_of_war": gettext_noop("Prisoner of War"),
    "medal_of_honor": gettext_noop("Medal of Honor"),
    "press_support": gettext_noop("Press Support"),
    "red_cross": gettext_noop("Red Cross"),
    "farmer": gettext_noop("Farmer is coming!"),
    "peace": gettext_noop("Peace"),
}
CATEGORY_LABELS = {
    "combat": gettext_noop("Combat"),
    "movement": gettext_noop("Movement"),
    "expansion": gettext_noop("Expansion"),
    "special": gettext_noop("Special"),
}
# A one-line reminder of each card's effect (ruling T14); its category comes with the view (ruling T6).
CARD_EFFECTS = {
    "bayonet": gettext_noop("Move onto an adjacent rival mole, which is eliminated."),
    "short_range": gettext_noop("Eliminate an adjacent rival mole."),
    "long_range": gettext_noop("Eliminate a rival mole 2 or 3 spaces away in a straight line."),
    "grenade": gettext_noop("Remove an adjacent square with everything on it."),
    "mortar_attack": gettext_noop("Remove the square exactly 2 spaces away."),
    "slingshot": gettext_noop("Eliminate a rival mole exactly 2 spaces away."),
    "advance": gettext_noop("Move the mole to an adjacent square."),
    "underground_maneuver": gettext_noop("Move the mole to the square exactly 2 spaces away."),
    "motorbike_patrol": gettext_noop("Move the mole 2 squares in a straight line, running over a rival."),
    "panic_attack": gettext_noop("Push every mole on a ray one space further."),
    "tunnel": gettext_noop("From one of your barracks to another free one on the battlefield."),
    "decoy": gettext_noop("Swap with a rival mole on an adjacent barracks."),
    "build_barracks": gettext_noop("Place a barracks next to the battlefield."),
    "abandoned_barracks": gettext_noop("Place a barracks next to the mole and move onto it."),
    "conquest": gettext_noop("Replace an adjacent free rival barracks or neutral tile by your barracks."),
    "betrayal": gettext_noop("Replace an adjacent rival mole by one of your reserve moles."),
    "new_soldier": gettext_noop("Put a reserve mole exactly 2 spaces away in a straight line."),
    "prisoner_of_war": gettext_noop("Capture an adjacent rival mole."),
    "medal_of_honor": gettext_noop("Return another of your moles on the battlefield to the reserve: +3 medals."),
    "press_support": gettext_noop("Take the Press: +1 medal at the end of every turn."),
    "red_cross": gettext_noop("Move the Red Cross onto the mole's square."),
    "farmer": gettext_noop("The farmer uses his tile."),
}
FARMER_TITLES = {
    "kings_of_buckets": gettext_noop("Kings of Buckets"),
    "the_crusher": gettext_noop("The Crusher"),
    "the_sprayer": gettext_noop("The Sprayer"),
    "queen_of_nature": gettext_noop("The Queen of Nature"),
    "lady_boom": gettext_noop("Lady Boom"),
    "trap_master": gettext_noop("Trap Master"),
    "the_stomper": gettext_noop("The Stomper"),
    "lord_of_the_crates": gettext_noop("Lord of the Crates"),
}
FEATURE_LABELS = {
    "rock": gettext_noop("rock"),
    "puddle": gettext_noop("puddle"),
    "gas": gettext_noop("gas"),
    "ice": gettext_noop("ice"),
    "turnip": gettext_noop("turnip"),
    "trap": gettext_noop("trap"),
    "footprint": gettext_noop("footprint"),
    "dynamite": gettext_noop("dynamite"),
    "crate": gettext_noop("crate"),
}
OBSTACLE_LABELS = {
    "rock": gettext_noop("A rock here"),
    "puddle": gettext_noop("A puddle here"),
    "gas": gettext_noop("Gas here"),
    "ice": gettext_noop("Ice here"),
}
ARROWS = ("→", "↗", "↖", "←", "↙", "↘")  # direction d points at screen angle 60·d° counter-clockwise from east


def card_title(card) -> str:
    if card in CARD_TITLES:
        return _(CARD_TITLES[card])
    return str(card).replace("_", " ")


def colour_label(colour: str) -> str:
    return _(COLOUR_LABELS.get(colour, colour))
