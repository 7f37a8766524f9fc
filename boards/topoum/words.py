"""Topoum's log entries, prompts and refusals in the reader's language (decision 13), from the engine's data.

Seats are named by their players; the armies' colours (red, blue, yellow, black) are the seats'
colours in the reader's language where the rules speak of them.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext, pgettext_lazy

from ..wording import listing, name_of
from .labels import (
    ARROWS,
    CATEGORY_LABELS,
    COLOUR_NAMES,
    FARMER_TITLES,
    FEATURE_LABELS,
    card_title,
    colour_label,
)


def _hex(h) -> str:
    if isinstance(h, (list, tuple)) and len(h) == 2:
        return f"({h[0]},{h[1]})"
    return "?"


def prompt_words(p: dict | None) -> str:
    """What the seat to act is asked (engine.topoum.describe.prompt), in words."""
    code = (p or {}).get("code", "")
    card = card_title(p["card"]) if p and p.get("card") else None
    if code == "topoum.prompt.card":
        return (
            _("Play a card on the active mole, or change the tile under it.")
            if p.get("alt")
            else _("Play a card on the active mole.")
        )
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
        "topoum.prompt.stuck": _("None of your moles can act this turn: end your turn."),
        "topoum.prompt.act_enter": _("Enter into combat: place a barracks with a new mole next to the battlefield."),
        "topoum.prompt.act_move": _("Move one of your moles."),
        "topoum.prompt.moving": _("Move another mole, or end your turn."),
        "topoum.prompt.moves_done": _("None of your other moles can move now: end your turn."),
        "topoum.prompt.end_turn": _("End your turn."),
    }
    return plain.get(code, "")


def _card(card) -> str:
    return card_title(card) if card else "?"


def _feature(feature) -> str:
    return _(FEATURE_LABELS[feature]) if feature in FEATURE_LABELS else _("tile")


def _medals(v) -> str:
    return ngettext("%(n)+d medal", "%(n)+d medals", abs(v or 0)) % {"n": v or 0}


def _label(p: dict) -> str:
    """The card (or farmer) a target decision belongs to."""
    if p.get("card") == "farmer":
        farmer = p.get("farmer")
        return _(FARMER_TITLES[farmer]) if farmer in FARMER_TITLES else _("the farmer")
    return _card(p.get("card"))


LOST_WHY = {
    "bayonet": gettext_noop("%(who)s's mole at %(hex)s is lost to the bayonet"),
    "shot": gettext_noop("%(who)s's mole at %(hex)s is lost to the shot"),
    "run_over": gettext_noop("%(who)s's mole at %(hex)s is run over"),
    "betrayed": gettext_noop("%(who)s's mole at %(hex)s is lost, betrayed"),
    "footprint": gettext_noop("%(who)s's mole at %(hex)s is crushed by the footprint"),
}


def _setup_head(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """Setting up the battlefield (and taking a decision back)."""
    if code == "topoum.undo":
        return _("%(who)s takes back the last decision") % f
    if code == "topoum.setup_obstacle":
        return _("%(who)s places a %(kind)s tile at %(hex)s") % {**f, "kind": _feature(p.get("kind"))}
    if code == "topoum.setup_centre":
        if p.get("dynamite"):
            return _("%(who)s lays the dynamite at the centre %(hex)s") % f
        return _("%(who)s lays a neutral tile at the centre %(hex)s") % f
    if code == "topoum.setup_ring":
        return _("%(who)s places a barracks next to the centre at %(hex)s") % f
    if code == "topoum.setup_mole":
        return _("%(who)s places a barracks with a mole at %(hex)s") % f
    return None


def _turn_head(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """A turn's own decisions: entering, moving, playing a card, ransoming, ending it."""
    if code == "topoum.end_turn":
        return _("%(who)s ends the turn") % f
    if code == "topoum.ransom":
        return _("%(who)s ransoms a mole from %(captor)s for 3 medals") % {
            **f,
            "captor": name_of(names, p.get("captor")),
        }
    if code == "topoum.place":
        return _("%(who)s has no mole on the battlefield and places a barracks with a mole at %(hex)s") % f
    if code == "topoum.enter":
        return _("%(who)s enters into combat at %(hex)s") % f
    if code == "topoum.move":
        return _("%(who)s moves a mole from %(from)s to %(hex)s") % f
    if code == "topoum.play":
        if p.get("slot") is None:
            return _("%(who)s plays %(card)s from the hand") % {**f, "card": _card(p.get("card"))}
        return _("%(who)s plays %(card)s from Line slot %(slot)s (%(medals)s)") % {
            **f,
            "card": _card(p.get("card")),
            "slot": p.get("slot"),
            "medals": _medals(p.get("medals")),
        }
    if code == "topoum.change_tile":
        return _("%(who)s changes the tile under the mole") % f
    if code == "topoum.take_back":
        return _("%(who)s takes back a barracks at %(hex)s") % f
    if code == "topoum.keep":
        return _("%(who)s keeps the part of the battlefield with %(hex)s") % f
    return None


def _card_head(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """Where a card in play is aimed: a direction, a tile, a crate, the farmer, the dynamite."""
    if code == "topoum.direction":
        return _("%(who)s: %(card)s pushes the moles towards %(arrow)s") % {
            **f,
            "card": _card(p.get("card")),
            "arrow": _arrow(p.get("dir")),
        }
    if code == "topoum.dynamite_back":
        return _("%(who)s puts the dynamite back at %(hex)s") % f
    if code == "topoum.no_crate":
        return _("%(who)s: %(card)s moves no crate") % {**f, "card": _label(p)}
    if code == "topoum.move_tile":
        if p.get("source") is None:
            return _("%(who)s: %(card)s moves a tile from beside the board to %(hex)s") % {**f, "card": _label(p)}
        return _("%(who)s: %(card)s moves a tile from %(from)s to %(hex)s") % {**f, "card": _label(p)}
    if code == "topoum.call_farmer":
        return _("%(who)s calls %(card)s to %(hex)s") % {**f, "card": _label(p)}
    if code == "topoum.aim":
        return _("%(who)s aims %(card)s at %(hex)s") % {**f, "card": _label(p)}
    return None


def head_words(p: dict, names: dict[int, str]) -> str:
    """The decision itself, without a final stop."""
    code = p.get("code", "")
    f = {"who": name_of(names, p.get("seat")), "hex": _hex(p.get("hex")), "from": _hex(p.get("source"))}
    for words in (_setup_head, _turn_head, _card_head):
        text = words(code, p, f, names)
        if text is not None:
            return text
    return _("%(name)s: %(action)s") % {"name": f["who"], "action": p.get("type", "")}


def _arrow(d) -> str:
    return ARROWS[d] if isinstance(d, int) and 0 <= d < len(ARROWS) else "?"


def _penalty(text: str, p: dict) -> str:
    if p.get("penalty"):
        return text + " (" + _medals(-p["penalty"]) + ")"
    return text


def _loss_words(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """A mole lost (and its penalty), or two lost in a fight."""
    if code == "topoum.mole_lost":
        why = p.get("why") or ""
        if why.startswith("under_"):
            text = _("%(who)s's mole at %(hex)s is lost under the %(thing)s") % {**f, "thing": _feature(why[6:])}
        elif why in LOST_WHY:
            text = _(LOST_WHY[why]) % f
        else:
            text = _("%(who)s's mole at %(hex)s is lost") % f
        return _penalty(text, p)
    if code == "topoum.mole_falls":
        return _penalty(_("%(who)s's mole falls off the board") % f, p)
    if code == "topoum.mole_off_battlefield":
        return _penalty(_("%(who)s's mole is lost off the battlefield at %(hex)s") % f, p)
    if code == "topoum.mole_lost_on":
        return _penalty(
            _("%(who)s's mole is lost on the %(thing)s at %(hex)s") % {**f, "thing": _feature(p.get("feature"))}, p
        )
    if code == "topoum.collide":
        return _penalty(_("two of %(who)s's moles collide at %(hex)s and both are lost") % f, p)
    if code == "topoum.fair_combat":
        return _("fair combat at %(hex)s: the moles of %(who)s and %(other)s are both lost") % {
            **f,
            "other": name_of(names, p.get("other")),
        }
    return None


def _board_words(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """What changed on the battlefield: barracks, features, crates, obstacles, the battlefield split."""
    if code == "topoum.barracks_built":
        return _("a barracks of %(who)s (%(colour)s) rises at %(hex)s") % {**f, "colour": _colour(p.get("seat"))}
    if code == "topoum.barracks_replaced":
        if p.get("owner") is None:
            return _("%(who)s replaces a neutral tile at %(hex)s with an own barracks") % f
        return _("%(who)s replaces the barracks of %(owner)s at %(hex)s with an own barracks") % {
            **f,
            "owner": name_of(names, p.get("owner")),
        }
    if code == "topoum.feature_lands":
        return _("the %(thing)s lands on %(hex)s") % {**f, "thing": _feature(p.get("feature"))}
    if code == "topoum.feature_moves":
        return _("the %(thing)s moves to %(hex)s") % {**f, "thing": _feature(p.get("feature"))}
    if code == "topoum.feature_destroyed":
        return _("the %(thing)s tile is destroyed") % {"thing": _feature(p.get("feature"))}
    if code == "topoum.crate_moves":
        return _("the crate from %(from)s moves under the mole at %(hex)s") % f
    if code == "topoum.obstacle":
        text = _("a %(kind)s tile at %(hex)s") % {**f, "kind": _feature(p.get("kind"))}
        return text + (" " + _("(an outpost)") if p.get("outpost") else "")
    if code == "topoum.split":
        return _("the battlefield splits %(sizes)s") % {"sizes": "/".join(map(str, p.get("sizes") or []))}
    if code == "topoum.part_removed":
        return ngettext(
            "a part of %(n)s square is removed", "a part of %(n)s squares is removed", p.get("squares", 0)
        ) % {"n": p.get("squares")}
    if code == "topoum.red_cross_lost":
        return _("the Red Cross at %(hex)s leaves the board (%(who)s %(medals)s)") % {**f, "medals": _medals(-5)}
    return None


def _count_words(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """Medals for lines of sight, cards drawn, cards through the Line."""
    if code == "topoum.lines_scored":
        lines = ngettext("%(n)s new line of sight", "%(n)s new lines of sight", p.get("lines", 0)) % {
            "n": p.get("lines")
        }
        return ngettext("%(lines)s: %(n)s medal", "%(lines)s: %(n)s medals", p.get("medals", 0)) % {
            "lines": lines,
            "n": p.get("medals"),
        }
    if code == "topoum.draws":
        return ngettext("%(who)s draws %(n)s card", "%(who)s draws %(n)s cards", p.get("cards", 0)) % {
            **f,
            "n": p.get("cards"),
        }
    if code == "topoum.line_unused":
        return _("%(card)s leaves the Line unused") % {"card": _card(p.get("card"))}
    if code == "topoum.line_enter":
        cards = p.get("cards") or []
        return ngettext("%(cards)s enters the Line", "%(cards)s enter the Line", len(cards)) % {
            "cards": listing(_card(c) for c in cards)
        }
    return None


def _plain_words(code: str, p: dict, f: dict, names: dict[int, str]) -> str | None:
    """The consequences said in one sentence of the decider and the square."""
    plain = {
        "topoum.square_destroyed": _("the square at %(hex)s is destroyed"),
        "topoum.conquest": _("%(who)s turns a tile at %(hex)s into a barracks"),
        "topoum.prisoner": _("%(who)s's mole at %(hex)s is taken prisoner"),
        "topoum.medal_of_honor": _("the mole at %(hex)s returns to the reserve with a medal (+3 medals)"),
        "topoum.press_taken": _("%(who)s takes the Press card"),
        "topoum.red_cross": _("the Red Cross moves to %(hex)s"),
        "topoum.barracks_back": _("%(who)s takes back a barracks at %(hex)s"),
        "topoum.dynamite_blows": _("the dynamite blows up the square at %(hex)s"),
        "topoum.farmer_medal": _("%(who)s gains 1 medal from the farmer"),
        "topoum.dynamite_placed": _("the dynamite is placed at %(hex)s"),
        "topoum.crate_looked": _("%(who)s looks at the crate at %(hex)s"),
        "topoum.ice_slide": _("%(who)s's mole slides across the ice to %(hex)s"),
        "topoum.trap_springs": _("the trap springs and leaves the board"),
        "topoum.crate_destroyed": _("a crate is destroyed"),
        "topoum.dynamite_blown_away": _("the dynamite is blown away"),
        "topoum.centre_laid": _("%(who)s lays the centre of the battlefield at %(hex)s"),
        "topoum.press_medal": _("the Press gives %(who)s 1 medal"),
        "topoum.war_over": _("the war is over"),
        "topoum.peace": _("Peace appears: this is the final round"),
        "topoum.barracks_neutral": _("%(who)s turns a barracks at %(hex)s to its neutral side"),
        "topoum.tile_barracks": _("%(who)s turns a tile at %(hex)s to its barracks side"),
    }
    return plain[code] % f if code in plain else None


def event_words(p: dict, names: dict[int, str]) -> str:
    """One consequence of the decision, without a final stop."""
    code = p.get("code", "")
    f = {"who": name_of(names, p.get("seat")), "hex": _hex(p.get("hex")), "from": _hex(p.get("source"))}
    for words in (_loss_words, _board_words, _count_words, _plain_words):
        text = words(code, p, f, names)
        if text is not None:
            return text
    return ""


def _colour(seat) -> str:
    if isinstance(seat, int) and 0 <= seat < len(COLOUR_NAMES):
        return colour_label(COLOUR_NAMES[seat])
    return "?"


def entry_words(entry, names: dict[int, str]) -> str:
    """The decision, then what followed from it: "Ana aims Grenade at (0,1): the square at (0,1) is destroyed."."""
    if not entry:
        return ""
    head = head_words(entry[0], names)
    events = [text for text in (event_words(p, names) for p in entry[1:]) if text]
    if events:
        return _("%(decision)s: %(consequences)s.") % {
            "decision": head,
            "consequences": pgettext("list of clauses separator", "; ").join(events),
        }
    return _("%(decision)s.") % {"decision": head}


def _turn_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """Whose decision it is, what may be taken back, what may be done now."""
    if code == "topoum.turn_of":
        return _("It is %(who)s's turn to decide.") % {"who": name_of(names, p.get("seat"))}
    if code == "topoum.nothing_to_undo":
        return _("There is nothing to take back this turn.")
    if code == "topoum.undo_blocked":
        return _("You cannot take that back: something hidden was revealed since (a crate was looked at).")
    if code == "topoum.not_now":
        return _("You cannot do '%(type)s' now. %(prompt)s Allowed now: %(allowed)s.") % {
            "type": p.get("type"),
            "prompt": prompt_words(p.get("prompt")),
            "allowed": listing(f'"{t}"' for t in p.get("allowed") or []),
        }
    return None


def _decision_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A card, an entry, a move or a choice the Laws of War do not allow there."""
    if code == "topoum.play_refused":
        return _(
            "You cannot play %(card)s that way now: the card must be in your hand or in the named Line slot, "
            "and its effect must be possible on the active mole (Law of War #7)."
        ) % {"card": card_title(p.get("card")) if p.get("card") else "?"}
    if code == "topoum.enter_refused":
        if p.get("hex"):
            return _(
                "You cannot enter into combat at %(hex)s: choose an empty space next to the battlefield where "
                "a card can then be played on the new mole (Law of War #7)."
            ) % {"hex": _hex(p["hex"])}
        return _(
            "You cannot enter into combat there: choose an empty space next to the battlefield where a card "
            "can then be played on the new mole (Law of War #7)."
        )
    if code == "topoum.move_from_outpost":
        return _(
            "Your mole at %(hex)s stands on an outpost, outside the battlefield: only the moles that were on the "
            "battlefield when your turn began can move (rulings T12, T21)."
        ) % {"hex": _hex(p.get("hex"))}
    if code == "topoum.move_refused":
        return _(
            "That move is not allowed: move one of your moles that has not moved yet this turn to an adjacent "
            "space, not onto a rock or a protected mole, and where you can then play a card or change the "
            "tile."
        )
    if code == "topoum.choice_refused":
        facts = {"prompt": prompt_words(p.get("prompt"))}
        if p.get("hex"):
            return _("That choice at %(hex)s is not allowed now. %(prompt)s") % {**facts, "hex": _hex(p["hex"])}
        return _("That choice is not allowed now. %(prompt)s") % facts
    return None


def refusal_words(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A Topoum refusal in words; None for a code this game does not have."""
    text = _turn_refusal(code, p, names)
    return text if text is not None else _decision_refusal(code, p, names)


def summary_words() -> str:
    """What the game is, in one line (the How to play index), in the reader's language."""
    return _("Moles fighting for lines of sight on a hex battlefield, 2 to 4 players.")


def scoring_words() -> str:
    """How the final scores were made (a finished table's page), in the reader's language."""
    # Ruling T20: lines of sight score during play, the final scoring comes on top.
    return _(
        "Score in medals: those won during play (lines of sight, cards), plus the final scoring by "
        "categories, sets and crates. The most medals win; a tie goes to the most barracks of one's own "
        "colour, then to the most cards in the discard pile."
    )


def tie_break_words(code: str) -> str | None:
    """The rule that decided a tie of medals (engine.core.Result.tie_break), in the reader's language."""
    if code == "barracks":  # ruling T20
        return _("Ruling T20: the most barracks of one's own colour on the battlefield ranks higher.")
    if code == "discard_pile":
        return _(
            "Ruling T20: with as many barracks of their colour on the battlefield too, the most cards in the "
            "discard pile ranks higher."
        )
    return None


# The option each of Topoum's cross-option refusals is about (games.options_words.options_argument).
OPTION_AT_FAULT = {
    "topoum.options.duel_players": "preset",
    "topoum.options.deck_size": "types",
    "topoum.options.categories": "types",
    "topoum.options.line_values": "line_values",
    "topoum.options.obstacle_farmer_deck": "farmer",
}


def _farmer(farmer) -> str:
    return _(FARMER_TITLES[farmer]) if farmer in FARMER_TITLES else str(farmer)


def options_words(code: str, p: dict) -> str | None:
    """Why options Topoum's rules refuse together (engine.topoum's check_options) cannot be played, or None."""
    if code == "topoum.options.duel_players":
        return _("The Duel preset is for 2 players; choose another deck for %(players)s players.") % {
            "players": p.get("players")
        }
    if code == "topoum.options.deck_size":
        return _("A custom deck needs exactly %(size)s different card types.") % {"size": p.get("size")}
    if code == "topoum.options.categories":
        return _("A custom deck needs at least one card type of each category; missing: %(missing)s.") % {
            "missing": listing(_(CATEGORY_LABELS[c]) if c in CATEGORY_LABELS else c for c in p.get("missing") or [])
        }
    if code == "topoum.options.line_values":
        return _(
            "The Line of Operations needs %(count)s whole numbers between %(min)s and %(max)s, one for each slot."
        ) % {"count": p.get("count"), "min": p.get("min"), "max": p.get("max")}
    if code == "topoum.options.obstacle_farmer_deck":
        return _(
            "%(farmer)s uses the obstacle tiles, so it cannot be played with the obstacle variant when the "
            "deck holds “Farmer is coming!” (rulings T7, T21); choose another farmer, turn obstacles "
            "off, or leave that card out of the deck."
        ) % {"farmer": _farmer(p.get("farmer"))}
    return None


# The game's name as people read it: only here to be extracted by makemessages (games.engine_texts.game_title
# translates the engine's title with it).
TITLE = pgettext_lazy("game name", "Topoum")


# --- the table's options in plain words (decision 26: "Action deck: preset; Preset: recruits" was jargon) -------------
PRESET_WORDS = {
    "recruits": gettext_noop("the rulebook's deck for a first game"),
    "tacticians": gettext_noop("the rulebook's deck for tactical players"),
    "duel": gettext_noop("the rulebook's deck for two players"),
    "strategists": gettext_noop("the rulebook's deck for strategic players"),
}
SHOWN_TYPES = 7  # a custom deck has seven types


def options_summary(options: dict) -> list[str]:
    """The options of a Topoum table as a player says them ("cards: the rulebook's deck for a first game"), the
    defaults left out but the deck; the site's hook (games.templatetags.topos.options_text)."""
    from engine.topoum.cards import PRESETS
    from engine.topoum.setup import DEFAULT_LINE_VALUES

    o = options or {}
    deck, parts = o.get("deck", "preset"), []
    if deck == "random":
        types = None
        parts.append(_("cards: seven types drawn at random"))
    elif deck == "custom":
        types = list(o.get("types") or [])
        shown = ", ".join(card_title(t) for t in types[:SHOWN_TYPES])
        parts.append(_("cards chosen for this table: %(types)s") % {"types": shown})
    else:
        preset = o.get("preset", "recruits")
        types = list(PRESETS.get(preset, ()))
        words = PRESET_WORDS.get(preset)
        parts.append(_("cards: %(deck)s") % {"deck": _(words) if words else str(preset)})
    farmer = o.get("farmer", "random")
    if types is None or "farmer" in types:  # the farmer only comes with the "Farmer is coming!" cards
        if farmer in FARMER_TITLES:
            parts.append(_("the farmer: %(farmer)s") % {"farmer": _(FARMER_TITLES[farmer])})
        elif types is not None:
            parts.append(_("a farmer drawn at random"))
    if o.get("obstacles"):
        parts.append(_("obstacles on the board (expert variant)"))
    radius = o.get("radius", 6)
    if radius != 6:
        parts.append(_("a battlefield %(n)s spaces from the centre to the edge") % {"n": radius})
    values = o.get("line_values")
    if values and list(values) != list(DEFAULT_LINE_VALUES):
        worth = ", ".join("%+d" % v if isinstance(v, int) else str(v) for v in values)
        parts.append(_("taking a card from the Line's slots 1 to 5 is worth %(values)s medals") % {"values": worth})
    return parts
