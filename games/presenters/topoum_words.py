"""Topoum's log entries, prompts and refusals in the reader's language (issue 13), from the engine's data.

Seats are named by their players; the armies' colours (red, blue, yellow, black) are the seats'
colours in the reader's language where the rules speak of them.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from ..log_words import name_of
from ..refusal_words import listing
from .topoum import card_title


def _hex(h) -> str:
    if isinstance(h, (list, tuple)) and len(h) == 2:
        return f"({h[0]},{h[1]})"
    return "?"


def prompt_words(p: dict | None) -> str:
    """What the seat to act is asked (engine.topoum.describe.prompt), in words."""
    code = (p or {}).get("code", "")
    card = card_title(p["card"]) if p and p.get("card") else None
    if code == "topoum.prompt.card":
        return (_("Play a card on the active mole, or change the tile under it.") if p.get("alt")
                else _("Play a card on the active mole."))
    if code == "topoum.prompt.target":
        return _("Choose the target of %(card)s.") % {"card": card or "?"}
    if code == "topoum.prompt.direction":
        return _("Choose a direction for %(card)s.") % {"card": card or card_title("panic_attack")}
    plain = {
        "topoum.prompt.over": _("The war is over."),
        "topoum.prompt.setup_centre": _("Lay the centre tile of the battlefield."),
        "topoum.prompt.setup_ring": _("Place a barracks next to the centre tile."),
        "topoum.prompt.setup_mole": _("Place a barracks with a mole next to the battlefield."),
        "topoum.prompt.setup_obstacle": _("Place an obstacle tile next to a barracks."),
        "topoum.prompt.setup_outpost": _("Place an obstacle tile on a free X space."),
        "topoum.prompt.keep": _("The battlefield fell apart: choose which part stays."),
        "topoum.prompt.dynamite": _("Put the dynamite back next to the battlefield."),
        "topoum.prompt.take_back": _("Choose one of your barracks to take back to your reserve."),
        "topoum.prompt.place": _("You have no mole on the battlefield: place a barracks with a mole next to it."),
        "topoum.prompt.act": _("Enter into combat or move one of your moles."),
        "topoum.prompt.moving": _("Move another mole, or end your turn."),
        "topoum.prompt.end_turn": _("End your turn."),
    }
    return plain.get(code, "")


def entry_words(entry, names: dict[int, str]) -> str:
    if isinstance(entry, str):  # TRANSITION: Topoum's log lines are still English sentences
        return entry
    return " ".join(str(p.get("text", "")) for p in entry)


def refusal_words(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A Topoum refusal in words; None for a code this game does not have."""
    if code == "topoum.turn_of":
        return _("It is %(who)s's turn to decide.") % {"who": name_of(names, p.get("seat"))}
    if code == "topoum.nothing_to_undo":
        return _("There is nothing to take back this turn.")
    if code == "topoum.undo_blocked":
        return _("You cannot take that back: something hidden was revealed since (a crate was looked at).")
    if code == "topoum.not_now":
        return _("You cannot do '%(type)s' now. %(prompt)s Allowed now: %(allowed)s.") % {
            "type": p.get("type"), "prompt": prompt_words(p.get("prompt")), "allowed": listing(p.get("allowed"))}
    if code == "topoum.play_refused":
        return _("You cannot play %(card)s that way now: the card must be in your hand or in the named Line slot, "
                 "and its effect must be possible on the active mole (Law of War #7).") % {
            "card": card_title(p.get("card")) if p.get("card") else "?"}
    if code == "topoum.enter_refused":
        if p.get("hex"):
            return _("You cannot enter into combat at %(hex)s: choose an empty space next to the battlefield where "
                     "a card can then be played on the new mole (Law of War #7).") % {"hex": _hex(p["hex"])}
        return _("You cannot enter into combat there: choose an empty space next to the battlefield where a card "
                 "can then be played on the new mole (Law of War #7).")
    if code == "topoum.move_refused":
        return _("That move is not allowed: move one of your moles that has not moved yet this turn to an adjacent "
                 "space, not onto a rock or a protected mole, and where you can then play a card or change the "
                 "tile.")
    if code == "topoum.choice_refused":
        facts = {"prompt": prompt_words(p.get("prompt"))}
        if p.get("hex"):
            return _("That choice at %(hex)s is not allowed now. %(prompt)s") % {**facts, "hex": _hex(p["hex"])}
        return _("That choice is not allowed now. %(prompt)s") % facts
    return None
