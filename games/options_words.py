"""Why a table's options were refused, in the reader's language (decision 13).

The engines refuse options with a code and its facts (`engine.core.InvalidOptions`, e.g.
"options.at_most" with the option's name and the maximum): the options shared by every game are
worded here from the option's label (games.engine_texts); a game's own cross-option rules ("<game>.options.*")
are worded by its words module (boards/<game>/words.py: `options_words`, and `OPTION_AT_FAULT`, the
option each is about), so a refused table reads in the reader's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from boards.registry import game_module
from engine.core import InvalidOptions, all_games

from .engine_texts import engine_text, game_title, option_value
from .refusal_words import alternatives, listing


def _option_label(game: str, name: str) -> str:
    """The option's label as the new-table form shows it, translated; its name when the game has no such option."""
    engine = all_games().get(game)
    for opt in getattr(engine, "options", ()):
        if opt.name == name:
            return engine_text(opt.label or opt.name)
    return str(name)


def _game(p: dict) -> str:
    engine = all_games().get(p.get("game"))
    return game_title(engine.title) if engine else str(p.get("game", ""))


def _values(values) -> str:
    return alternatives(option_value(v) for v in values or [])


def options_words(code: str, params: dict | None = None) -> str:
    """The reason options were refused, in the active language; an unknown code still says what to do."""
    p = params or {}
    label = _option_label(p.get("game", ""), p.get("option", ""))
    if code == "options.no_such_game":
        return _("There is no game called %(kind)s; choose one of %(games)s.") % {
            "kind": p.get("game"),
            "games": listing(p.get("games")),
        }
    if code == "options.players":
        return _("%(game)s is played by %(min)s to %(max)s players, not %(players)s.") % {
            "game": _game(p),
            "min": p.get("min"),
            "max": p.get("max"),
            "players": p.get("players"),
        }
    if code == "options.unknown":
        text = _("Unknown option(s) for %(game)s: %(names)s.") % {"game": _game(p), "names": listing(p.get("names"))}
        if p.get("known"):
            text += " " + _("Its options are: %(known)s.") % {"known": listing(p["known"])}
        return text
    if code == "options.whole_number":
        return _("The option “%(option)s” must be a whole number.") % {"option": label}
    if code == "options.at_least":
        return _("The option “%(option)s” must be at least %(min)s.") % {"option": label, "min": p.get("min")}
    if code == "options.at_most":
        return _("The option “%(option)s” must be at most %(max)s.") % {"option": label, "max": p.get("max")}
    if code == "options.one_of":
        return _("The option “%(option)s” must be %(choices)s.") % {
            "option": label,
            "choices": _values(p.get("choices")),
        }
    if code == "options.true_or_false":
        return _("The option “%(option)s” must be true or false.") % {"option": label}
    if code == "options.list":
        return _("The option “%(option)s” must be a list.") % {"option": label}
    if code == "options.unknown_values":
        return _("The option “%(option)s” has unknown value(s): %(values)s; choose among %(choices)s.") % {
            "option": label,
            "values": listing(p.get("values")),
            "choices": listing(option_value(v) for v in p.get("choices") or []),
        }
    kind = code.partition(".")[0]  # a game's own cross-option rule: "<game>.options.<what>", worded beside it
    words = game_module(kind, "words")
    text = words.options_words(code, p) if words and hasattr(words, "options_words") else None
    if text:
        return text
    return _("These options cannot be played; check them and try again.")


def options_argument(exc: InvalidOptions) -> str:
    """The service argument at fault (ServiceError.field): "kind", "players", "options.<name>" or "options"."""
    if exc.code == "options.no_such_game":
        return "kind"
    if exc.code == "options.players":
        return "players"
    words = game_module(exc.code.partition(".")[0], "words")
    # The option a game's own cross-option refusal is about (its words module says), so a form shows it there.
    at_fault = getattr(words, "OPTION_AT_FAULT", {})
    option = exc.params.get("option") or at_fault.get(exc.code)
    return f"options.{option}" if option else "options"


def options_refusal(exc: InvalidOptions) -> dict:
    """BadRequest's arguments for `exc`: the words, the field at fault, and the engine's code and facts for programs
    (`reason`, `params`, as a refused move gives them)."""
    return {
        "message": options_words(exc.code, exc.params),
        "field": options_argument(exc),
        "reason": exc.code,
        "params": exc.params,
    }
