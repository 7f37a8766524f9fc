"""Topology's log entries and refusals in the reader's language (decision 13), from the engine's data."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from ..wording import listing, name_of


def _cell(cell) -> str:
    if isinstance(cell, (list, tuple)) and len(cell) == 2:
        return f"({cell[0]}, {cell[1]})"
    return "?"


def _ring(ring: dict) -> str:
    if ring.get("inner"):
        return _("a ring of %(value)s around %(inner)s") % {
            "value": ring.get("value"),
            "inner": " + ".join(map(str, ring["inner"])),
        }
    return _("a ring of %(value)s") % {"value": ring.get("value")}


def phrase_words(p: dict, names: dict[int, str]) -> str:
    code, who = p.get("code", ""), name_of(names, p.get("seat"))
    if code == "topology.place":
        a, b = (p.get("cells") or [None, None])[:2]
        return _("%(who)s placed a tile on %(a)s and %(b)s.") % {"who": who, "a": _cell(a), "b": _cell(b)}
    if code == "topology.end_turn":
        if p.get("points"):
            text = ngettext(
                "%(who)s ended the turn and scored %(n)s point (%(rings)s).",
                "%(who)s ended the turn and scored %(n)s points (%(rings)s).",
                p["points"],
            ) % {"who": who, "n": p["points"], "rings": listing(_ring(r) for r in p.get("rings") or [])}
        else:
            text = _("%(who)s ended the turn without closing a ring.") % {"who": who}
        return text + (" " + _("The game is over.") if p.get("over") else "")
    if code == "topology.undo":
        return _("%(who)s took back the last move of the turn.") % {"who": who}
    if code == "topology.reveal":
        return _("%(who)s revealed a third tile.") % {"who": who}
    if code == "topology.turn_over":
        cells = p.get("cells")
        if cells:
            return _("%(who)s turned the tile on %(a)s and %(b)s half a turn.") % {
                "who": who,
                "a": _cell(cells[0]),
                "b": _cell(cells[1]),
            }
        return _("%(who)s turned a tile half a turn.") % {"who": who}
    if code == "topology.decline":
        return _("%(who)s left every tile as it was (no tile was left to reveal).") % {"who": who}
    return _("%(name)s: %(action)s.") % {"name": who, "action": p.get("type", "")}


def entry_words(entry: list[dict], names: dict[int, str]) -> str:
    return " ".join(phrase_words(p, names) for p in entry)


def _turn_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """Whose turn it is, what moves there are, which tiles are still to place."""
    if code == "topology.turn_of":
        return _("It is %(who)s's turn, not yours.") % {"who": name_of(names, p.get("seat"))}
    if code == "topology.unknown":
        if p.get("advanced"):
            return _(
                "Unknown move; in Topology you place a tile, end your turn or undo, and choose to reveal a "
                "third tile or turn one over."
            )
        return _("Unknown move; in Topology you place a tile, end your turn or undo.")
    if code == "topology.place_all":
        return ngettext(
            "Place all your revealed tiles before ending the turn (%(n)s left).",
            "Place all your revealed tiles before ending the turn (%(n)s left).",
            p.get("left", 0),
        ) % {"n": p.get("left")}
    if code == "topology.tile_choice":
        return _("Choose one of the tiles you revealed this turn: %(tiles)s.") % {"tiles": listing(p.get("tiles"))}
    return None


def _placement_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    """Where a tile may not go: its second cell, a symmetric tile's one way of placing, a covered cell."""
    if code == "topology.second_cell":
        return _("With orientation %(orientation)s the second cell must be %(cell)s.") % {
            "orientation": p.get("orientation"),
            "cell": _cell(p.get("cell")),
        }
    if code == "topology.symmetric":
        cells = p.get("cells") or [None, None]
        return _(
            "This tile looks the same turned half-way round; place it as cells [%(a)s, %(b)s] with orientation "
            "%(orientation)s."
        ) % {"a": cells[0], "b": cells[1], "orientation": p.get("orientation")}
    if code == "topology.covered":
        return _("Cell %(cell)s is already covered by a tile.") % {"cell": _cell(p.get("cell"))}
    return None


# The refusals said in one fixed sentence.
def _plain_refusal(code: str, p: dict, names: dict[int, str]) -> str | None:
    plain = {
        "topology.nothing_to_undo": _("There is nothing to take back this turn."),
        "topology.undo_reveal": _("The third tile has been revealed, so that choice cannot be taken back."),
        "topology.advanced_only": _(
            "Revealing a third tile or turning a tile over belongs to the advanced variant only."
        ),
        "topology.already_chosen": _("You have already made this turn's choice between a third tile and a turn-over."),
        "topology.stack_empty": _("No face-down tile is left to reveal; turn a tile over or decline instead."),
        "topology.must_choose": _("You must either reveal a third tile or turn a placed tile over."),
        "topology.turn_which": _("Choose a tile that is already on the table to turn over."),
        "topology.choose_first": _("First choose: reveal a third tile, or turn a placed tile half a turn."),
        "topology.all_placed": _("All of this turn's tiles are placed; end your turn (or undo)."),
        "topology.tile_placed": _("That tile is already on the table; place one of the tiles you revealed this turn."),
        "topology.cells_shape": _("Give the two cells the tile covers as [[q, r], [q, r]]."),
        "topology.orientation": _("The orientation must be a whole number from 0 to 5."),
        "topology.not_neighbours": _("A tile covers two neighbouring cells; these two cells do not share an edge."),
        "topology.not_touching": _("A tile must share at least one edge with a tile already on the table."),
    }
    return plain.get(code)


def refusal_words(code: str, p: dict, names: dict[int, str]) -> str | None:
    """A Topology refusal in words; None for a code this game does not have."""
    for words in (_turn_refusal, _placement_refusal, _plain_refusal):
        text = words(code, p, names)
        if text is not None:
            return text
    return None


def summary_words() -> str:
    """What the game is, in one line (the How to play index), in the reader's language."""
    return _("Double-hex tiles whose curves close rings, 2 to 4 players.")


def scoring_words() -> str:
    """How the final scores were made (a finished table's page), in the reader's language."""
    return _("Score: the points for rings and enclosures. The highest total wins.")


def tie_break_words(code: str) -> str | None:
    """The rule that decided a tie of scores (engine.core.Result.tie_break), in the reader's language."""
    if code == "later_turn":  # ruling L7
        return _("Ruling L7: among tied players, the one who played the later turn ranks lower.")
    return None


# The option each of Topology's cross-option refusals is about (games.options_words.options_argument).
OPTION_AT_FAULT = {"topology.options.advanced_players": "advanced"}


def options_words(code: str, p: dict) -> str | None:
    """Why options Topology's rules refuse together cannot be played, or None."""
    if code == "topology.options.advanced_players":
        return _("The advanced variant of Topology is for two players only, not %(players)s.") % {
            "players": p.get("players")
        }
    return None


# The game's name as people read it: only here to be extracted by makemessages (games.engine_texts.game_title
# translates the engine's title with it).
TITLE = pgettext_lazy("game name", "Topology")
