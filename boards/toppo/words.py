"""Toppo's log entries and refusals in the reader's language (decision 13), from the engine's data.

An entry is the list of the action's public events ("toppo.reveal", "toppo.round", ...), each
with its facts: seats as indexes (worded as the players' names), cards as colour and symbol.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from ..wording import alternatives, listing, name_of
from .presenter import COLOUR_LABELS, SYMBOL_LABELS, _call, _short_claim, bumped_words, card


def _card(data) -> str:
    """A card named by a log entry or a refusal (which may echo whatever a client sent)."""
    if isinstance(data, dict) and data.get("colour") in COLOUR_LABELS and data.get("symbol") in SYMBOL_LABELS:
        return card(data)["label"]
    return "?"


def _cards(cards) -> str:
    return listing(_card(c) for c in cards or [])


def _round(p: dict, names: dict[int, str]) -> str:
    parts = []
    for item in p.get("claims") or []:
        who, what, outcome = (
            name_of(names, item.get("seat")),
            _short_claim(item.get("claim") or {}),
            item.get("outcome"),
        )
        if outcome == "applied":
            parts.append(_("%(who)s: %(what)s, carried out") % {"who": who, "what": what})
        elif outcome == "void":
            parts.append(_("%(who)s: %(what)s, void") % {"who": who, "what": what})
        elif outcome == "renew":
            parts.append(_("%(who)s renews") % {"who": who})
        else:
            parts.append(_("%(who)s calls toppo") % {"who": who})
    facts = {"round": p.get("round"), "parts": pgettext_semicolon().join(parts)}
    order = p.get("priority")  # absent from rounds resolved before ruling P4 was amended
    if order:
        return _("Round %(round)s resolves in priority order, %(first)s first: %(parts)s.") % {
            **facts,
            "first": name_of(names, order[0]),
        }
    return _("Round %(round)s resolves: %(parts)s.") % facts


def pgettext_semicolon() -> str:
    return pgettext("list of clauses separator", "; ")


def _hand_phrase(code: str, p: dict, who: str, names: dict[int, str]) -> str | None:
    """A hand dealt and its display chosen and laid out."""
    if code == "toppo.deal":
        return _("Hand %(hand)s is dealt: 33 cards to each player; %(start)s starts.") % {
            "hand": p.get("hand"),
            "start": name_of(names, p.get("start")),
        }
    if code == "toppo.choose":
        return _("%(who)s chooses a display of %(size)s cards.") % {"who": who, "size": p.get("size")}
    if code == "toppo.display":
        return _("%(who)s lays out the display: %(cards)s.") % {"who": who, "cards": _cards(p.get("cards"))}
    return None


def _play_phrase(code: str, p: dict, who: str, names: dict[int, str]) -> str | None:
    """Revealing, and the calls: top, match, renew, a wrong call and the interruption it causes."""
    if code == "toppo.reveal":
        return _("%(who)s reveals a %(card)s.") % {"who": who, "card": _card(p.get("card"))}
    if code == "toppo.top":
        return _("%(who)s tops the display with %(cards)s.") % {"who": who, "cards": _cards(p.get("cards"))}
    if code == "toppo.match":
        placed = pgettext_semicolon().join(
            _("%(card)s onto display card %(n)s") % {"card": _card(pair.get("card")), "n": pair.get("display", 0) + 1}
            for pair in p.get("pairs") or []
        )
        back = p.get("back", 0)
        return ngettext(
            "%(who)s matches %(placed)s; %(n)s card of the line goes back under the deck.",
            "%(who)s matches %(placed)s; %(n)s cards of the line go back under the deck.",
            back,
        ) % {"who": who, "placed": placed, "n": back}
    if code == "toppo.wrong":
        line = _cards(p.get("line")) or _("empty")
        return _(
            "%(who)s called %(call)s wrongly: the line (%(line)s) and %(n)s penalty cards from the stack go "
            "under the deck."
        ) % {"who": who, "call": _call(p.get("call")), "line": line, "n": p.get("penalty")}
    if code == "toppo.interrupt":
        return _(
            "Play is interrupted: every line goes back under its deck, and nobody reveals before %(who)s does."
        ) % {"who": name_of(names, p.get("restarter"))}
    if code == "toppo.renew":
        return _("%(who)s renews: the line goes back under the deck.") % {"who": who}
    return None


def _end_phrase(code: str, p: dict, who: str, names: dict[int, str]) -> str | None:
    """A hand or the match ending, and the stack restocked."""
    if code == "toppo.toppo":
        points = listing(f"{name_of(names, s)} {n}" for s, n in enumerate(p.get("points") or []))
        return _("%(who)s calls toppo with %(held)s cards left and ends hand %(hand)s. Penalty points: %(points)s.") % {
            "who": who,
            "held": p.get("held"),
            "hand": p.get("hand"),
            "points": points,
        }
    if code == "toppo.over":
        totals = listing(f"{name_of(names, s)} {n}" for s, n in enumerate(p.get("totals") or []))
        return _("The match is over. Totals: %(totals)s.") % {"totals": totals}
    if code == "toppo.restock":
        return _("The stack ran out: %(n)s covered display cards are shuffled into a new stack.") % {
            "n": p.get("cards")
        }
    return None


def _display_phrase(code: str, p: dict, who: str, names: dict[int, str]) -> str | None:
    """Replacing the display by agreement, and correspondence's claims and rounds."""
    if code == "toppo.propose":
        return _("%(who)s proposes replacing the display.") % {"who": who}
    if code == "toppo.agree":
        return _("%(who)s agrees to replace the display.") % {"who": who}
    if code == "toppo.proposal_lapsed":
        return _("The display changed, so the proposal to replace it lapses.")
    if code == "toppo.replaced":
        return _("Everyone agreed: the display is replaced with %(cards)s.") % {"cards": _cards(p.get("cards"))}
    if code == "toppo.replace_failed":
        return _("Everyone agreed, but there are not enough cards left to replace the display.")
    if code == "toppo.claimed":
        return _("%(who)s has made a claim for this round.") % {"who": who}
    if code == "toppo.round":
        return _round(p, names)
    return None


def phrase_words(p: dict, names: dict[int, str]) -> str:
    """One event in words."""
    code = p.get("code", "")
    who = name_of(names, p.get("seat")) if "seat" in p else ""
    for words in (_hand_phrase, _play_phrase, _end_phrase, _display_phrase):
        text = words(code, p, who, names)
        if text is not None:
            return text
    return _("%(name)s: %(action)s.") % {"name": who, "action": p.get("type", "")}


def entry_words(entry: list[dict], names: dict[int, str]) -> str:
    return " ".join(text for text in (phrase_words(p, names) for p in entry) if text)


def _fault(p: dict) -> dict:
    return {
        "j": p.get("line_card", 0) + 1,
        "card": _card(p.get("card")),
        "d": p.get("display_card", 0) + 1,
        "display": _card(p.get("display")),
    }


def _refused() -> str:
    return _("A wrong claim is refused, not penalised, at correspondence pace (ruling P4).")


def _shape_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A call whose positions are not well formed."""
    size = p.get("size")
    if code == "toppo.bad_order":
        return _(
            "A top names each of your %(size)s line positions (whole numbers 0 to %(last)s) exactly once, in "
            "the order they go onto the display cards."
        ) % {"size": size, "last": (size or 1) - 1}
    if code == "toppo.bad_pairs":
        return _(
            "A match lists pairs [line position, display position], each a whole number from 0 to %(last)s, "
            "with each line position at most once and in rising order."
        ) % {"last": (size or 1) - 1}
    return None


def _live_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """At live pace: a line not full, a call beaten by another, play interrupted."""
    size = p.get("size")
    if code == "toppo.live_line_short":
        facts = {"call": _call(p.get("call")), "size": size, "have": p.get("have")}
        if p.get("have"):
            return (
                _(
                    "You can %(call)s only with a full line of %(size)s cards and yours has %(have)s: reveal the "
                    "rest first."
                )
                % facts
            )
        return (
            _(
                "You can %(call)s only with a full line of %(size)s cards and yours is empty: it went back to "
                "your deck when play was interrupted, or you have not revealed yet."
            )
            % facts
        )
    if code == "toppo.beaten":
        # Her claim came after another seat's call had sent her line back (decision 26).
        lost = bumped_words({"by": p.get("by"), "call": p.get("by_call"), "cards": 0}, names)
        return "%s %s" % (lost, _("Your %(call)s came too late and changed nothing.") % {"call": _call(p.get("call"))})
    if code == "toppo.wait_restarter":
        return _(
            "Play was interrupted: wait until %(who)s has revealed a first card, then you may play again (ruling P3)."
        ) % {"who": name_of(names, p.get("restarter"))}
    if code == "toppo.line_full":
        return _("Your line already has %(size)s cards: top, match or renew it.") % {"size": size}
    if code == "toppo.deck_empty":
        return _("Your deck is empty; with fewer than ten cards you may call toppo.")
    if code == "toppo.live_actions":
        return _("At live pace the actions are reveal, top, match, renew, toppo and the display votes.")
    return None


def _round_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """At correspondence pace: a line the deck could not fill, a claim already made."""
    size = p.get("size")
    if code == "toppo.round_line_short":
        return _(
            "You can %(call)s only with a full line of %(size)s cards; your deck could not fill it, so renew, "
            "or call toppo."
        ) % {"call": _call(p.get("call")), "size": size}
    if code == "toppo.claimed":
        return _("You have made your claim for this round; it resolves when every player has claimed.")
    if code == "toppo.no_reveal":
        return _(
            "At correspondence pace the server fills your line at the start of each round; make your claim: "
            "top, match, renew or toppo."
        )
    return None


def _call_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A call the cards do not allow: not a top, not a match, too many cards for toppo."""
    if code == "toppo.not_top":
        return (
            _(
                "That order does not top the display: your %(card)s (line card %(j)s) shares neither colour nor "
                "symbol with display card %(d)s (%(display)s)."
            )
            % _fault(p)
            + " "
            + _refused()
        )
    if code == "toppo.not_match":
        return (
            _(
                "That is not a match: your %(card)s (line card %(j)s) is not identical to display card %(d)s "
                "(%(display)s)."
            )
            % _fault(p)
            + " "
            + _refused()
        )
    if code == "toppo.too_many":
        return (
            _("You hold %(held)s cards in deck and line; toppo needs fewer than %(limit)s.")
            % {"held": p.get("held"), "limit": p.get("limit")}
            + " "
            + _refused()
        )
    return None


def _display_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """The correspondence actions, and the display: its replacement votes and its size."""
    if code == "toppo.round_actions":
        return _("At correspondence pace the actions are the claims (top, match, renew, toppo) and the display votes.")
    if code == "toppo.already_proposed":
        return _("%(who)s has already proposed a new display; agree to it instead.") % {
            "who": name_of(names, p.get("by"))
        }
    if code == "toppo.nothing_proposed":
        return _("Nobody has proposed a new display; propose one first.")
    if code == "toppo.already_agreed":
        return _("You have already agreed to the new display; the others have yet to agree.")
    if code == "toppo.chooser":
        return _(
            "%(who)s has the highest penalty total and chooses the display for this hand; wait for that choice."
        ) % {"who": name_of(names, p.get("chooser"))}
    if code == "toppo.choose_size":
        return _("Choose the size of the display first: %(sizes)s cards, as a whole number.") % {
            "sizes": alternatives(p.get("sizes"))
        }
    if code == "toppo.size_later":
        return _("The display size is chosen only before a hand starts.")
    return None


def refusal_words(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A Toppo refusal in words; None for a code this game does not have."""
    for words in (_shape_refusal, _live_refusal, _round_refusal, _call_refusal, _display_refusal):
        text = words(code, p, names)
        if text is not None:
            return text
    return None


def summary_words() -> str:
    """What the game is, in one line (the How to play index), in the reader's language."""
    return _("A fast matching card game, played live or by correspondence, 2 to 8 players.")


def scoring_words() -> str:
    """How the final scores were made (a finished table's page), in the reader's language."""
    return _("Score: penalty points. Fewer is better: the lowest total wins.")


def tie_break_words(code: str) -> str | None:
    """Toppo breaks no tie (ruling P2: equal totals share the place), so it has no rule to word."""
    return None


# The game's name as people read it: only here to be extracted by makemessages (games.engine_texts.game_title
# translates the engine's title with it).
TITLE = pgettext_lazy("game name", "Toppo")


def live_bots_words() -> str:
    """How the bots pace themselves at a live table, for whoever seats one (the new-table form, the waiting room)."""
    return _(
        "At a live Toppo table bots react like people: Beginner more slowly than a person playing on this page, "
        "Greedy at about a person's pace, Strong faster."
    )
