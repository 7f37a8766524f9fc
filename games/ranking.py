"""Seats that leave a game, and the rules that broke ties, in the reader's language (ruling S1).

The ranking itself is plain Python in `engine.ranking`, so that anyone can re-compute it from the
seed and the log (ruling G0.2, `python -m engine.verify`); it is re-exported here for the site.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from boards.registry import game_module
from engine.core import SHARED, InvalidOptions, get_game
from engine.ranking import (  # noqa: F401
    ABANDON,
    LEAVE_TYPES,
    RESIGN,
    final_tie_breaks,
    first_turns_pending,
    is_leave,
    replayed_ranks,
    site_ranks,
    winners,
)

from .log_words import seat_names


def leave_words(kind: str, name: str) -> str:
    """The log line of a leave entry, in the reader's language."""
    if kind == ABANDON:
        return _("%(name)s left the game after three missed deadlines in a row.") % {"name": name}
    return _("%(name)s resigned.") % {"name": name}


def winners_words(names: list[str]) -> str:
    """The headline of a finished game, in the reader's language."""
    if not names:
        return _("Nobody won: every player left the game.")
    return ngettext("Winner: %(names)s.", "Winners: %(names)s.", len(names)) % {"names": ", ".join(names)}


# --- ties: which rule decided them (decision 24) ---------------------------------------------------------------------


def _engine_results(game) -> dict[int, dict]:
    """The game's own results, as the seats stored them; re-read from the final state for a game finished before
    the results named their tie-breaks (the state holds the answer)."""
    seats = list(game.seats.all())
    stored = {s.index: s.result for s in seats if s.result}
    if all("tie_break" in r for r in stored.values()) or not game.state:
        return stored
    try:
        state = get_game(game.kind).load(game.state)
    except InvalidOptions:  # a game no longer registered: what was stored
        return stored
    return {r.seat: r.to_json() for r in state.results()} if state.is_over() else stored


def tie_breaks(game) -> dict[int, str | None]:
    """Each seat's tie-break as the site publishes it (page, API, export): the code of the game's rule that placed
    it (engine.core.Result.tie_break, or SHARED) when it finished still playing with the same score as another
    seat still playing; else None: its score placed it, or it left, which placed it (ruling S1)."""
    results = _engine_results(game)
    seats = list(game.seats.all())
    return final_tie_breaks(
        {s.index: s.score for s in seats},
        {index: result.get("tie_break") for index, result in results.items()},
        [s.index for s in seats if s.abandoned],
    )


def ties(game, codes: dict[int, str | None] | None = None) -> list[dict]:
    """The groups of seats that finished on one score, each with the rule that decided their order: the deepest
    one any of them took (the game's own rules in order, then SHARED), best rank first.  `codes`: tie_breaks(game)
    when the caller has them."""
    codes = tie_breaks(game) if codes is None else codes
    order = (*get_game(game.kind).tie_breaks, SHARED)
    groups: dict[float, list] = {}
    for seat in sorted(game.seats.all(), key=lambda s: (s.rank or 99, s.index)):
        if codes[seat.index] is not None:
            groups.setdefault(seat.score, []).append(seat.index)
    return [
        {
            "seats": seats,
            "score": score,
            "tie_break": max((codes[i] for i in seats), key=lambda c: order.index(c) if c in order else -1),
        }
        for score, seats in groups.items()
    ]


def tie_words(kind: str, tie: dict, names: list[str]) -> str:
    """One tie and the rule that decided it, in the reader's language: "Tied on 6: ana, bruno. Ruling L7: ..."."""
    score = tie["score"]
    shown = str(int(score)) if float(score).is_integer() else str(score)
    text = _("Tied on %(score)s: %(names)s.") % {"score": shown, "names": ", ".join(names[i] for i in tie["seats"])}
    if tie["tie_break"] == SHARED:
        return text + " " + _("No rule of the game tells them apart: they share the place.")
    words = game_module(kind, "words")  # each game words its own rules (boards/<game>/words.py)
    return text + " " + ((words.tie_break_words(tie["tie_break"]) if words else None) or tie["tie_break"])


def result_summary(game) -> dict:
    """A finished game's result as the API gives it: each seat's tie-break code and every tie with its words."""
    codes = tie_breaks(game)
    names = seat_names(game)
    found = [{**tie, "words": tie_words(game.kind, tie, names)} for tie in ties(game, codes)]
    return {
        "tie_breaks": [{"seat": index, "tie_break": code} for index, code in sorted(codes.items())],
        "ties": found,
        "words": " ".join(tie["words"] for tie in found),
    }


def aborted_words(reason: str, name: str | None = None) -> str:
    """Why a game was aborted, in the reader's language (games.models.Game.AbortReason; `name`: who left)."""
    if reason == "resigned":
        return _(
            "%(name)s resigned before every player had played a turn of their own, so the game is aborted: "
            "no result, no rating change."
        ) % {"name": name}
    if reason == "abandoned":
        return _(
            "%(name)s missed three deadlines in a row before every player had played a turn of their own, so the "
            "game is aborted: no result, no rating change."
        ) % {"name": name}
    if reason == "agreed":
        return _("Every player still in the game agreed to abort it: no result, no rating change.")
    if reason == "staff":
        return _("The site's staff aborted the game: no result, no rating change.")
    if reason == "alone":
        return _("The game was aborted before anything was played: no result, no rating change.")
    if reason == "closed":
        return _("This table was closed before the game began.")
    if reason == "declined":
        return _("The invitation was declined, so this table was closed before the game began.")
    return _("This game was aborted; it has no result.")
