"""Why a move was refused, in the reader's language (decision 13).

The engines refuse with a code and its facts (`engine.core.IllegalAction`): the codes shared by every
game ("action.*", "not_your_turn", "not_allowed") are worded here, a game's own ("toppo.*") by its
words module next to its presenter (`boards/<game>/words.py`, `refusal_words`).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from boards.registry import game_module
from boards.wording import alternatives, listing  # noqa: F401  (shared with the games' words modules)

JSON_KINDS = {
    "null": gettext_noop("null"),
    "boolean": gettext_noop("true or false"),
    "integer": gettext_noop("a whole number"),
    "number": gettext_noop("a number"),
    "string": gettext_noop("a text"),
    "array": gettext_noop("a list"),
    "object": gettext_noop("an object"),
    "other": gettext_noop("something else"),
}


def _common(code: str, p: dict) -> str | None:
    if code == "not_your_turn":
        return _("It is not your turn to decide.")
    if code in ("not_allowed", "allowed"):
        return _("That move is not allowed now.")
    if code == "game_over":
        return _("The game is over; no more moves can be made.")
    if code == "no_such_seat":
        return _("There is no such seat at this table.")
    if code == "action.not_object":
        return _('An action must be an object with a "type" field naming what to do.')
    if code == "action.unknown_type":
        return _("This game has no action called %(type)s; the actions are: %(types)s.") % {
            "type": p.get("type"),
            "types": listing(f'"{t}"' for t in p.get("types") or []),
        }
    if code == "action.fields":
        text = _('The "%(type)s" action takes %(fields)s.') % {
            "type": p.get("type"),
            "fields": listing(p.get("fields")) or _("no other field"),
        }
        if p.get("extra"):
            text += " " + _("Not one of them: %(fields)s.") % {"fields": listing(p["extra"])}
        if p.get("missing"):
            text += " " + _("Missing: %(fields)s.") % {"fields": listing(p["missing"])}
        return text
    if code == "action.no_such_field":
        return _('The "%(type)s" action has no field %(extra)s; its fields are: %(fields)s.') % {
            "type": p.get("type"),
            "extra": listing(p.get("extra")),
            "fields": listing(p.get("fields")),
        }
    if code == "action.shapes":
        return _('The "%(type)s" action has exactly these fields now: %(shapes)s.') % {
            "type": p.get("type"),
            "shapes": alternatives(listing(s) for s in p.get("shapes") or []),
        }
    if code == "action.field_kind":
        return _('The field "%(field)s" of a "%(type)s" action must be %(kinds)s, not %(value)s.') % {
            "field": p.get("field"),
            "type": p.get("type"),
            "value": p.get("value"),
            "kinds": alternatives(_(JSON_KINDS.get(k, k)) for k in p.get("kinds") or []),
        }
    if code == "action.exact":
        return _(
            'Write the "%(type)s" action exactly as listed: %(listed)s, with whole numbers as whole numbers, '
            "not %(sent)s."
        ) % {"type": p.get("type"), "listed": p.get("listed"), "sent": p.get("sent")}
    return None


def refusal_words(kind: str, code: str, params: dict | None = None, names: dict[int, str] | None = None) -> str:
    """The reason for a refused action of a `kind` game, in the active language; `names` names the seats."""
    params = params or {}
    text = _common(code, params)
    if text is not None:
        return text
    module = game_module(kind, "words")
    if module is not None:
        text = module.refusal_words(code, params, names or {})
        if text is not None:
            return text
    return _("That move is not allowed now.")
