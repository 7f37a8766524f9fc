"""{% notes_panel game ply %}: her private notes on the table and on one move, on the table and replay pages."""

from __future__ import annotations

from django import template

from .. import selectors
from ..services import plies_for

register = template.Library()


@register.inclusion_tag("notes/_panel.html", takes_context=True)
def notes_panel(context, game, ply=None):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    notes = selectors.notes_of(user, game)
    if ply is None and game.state is not None:
        ply = plies_for(game, user)  # on the table page: the move the game stands at, as she may see it
    by_ply = {n["ply"]: n for n in notes}
    return {
        "show": True,
        "game": game,
        "ply": ply,
        "table_note": by_ply.get(None),
        "move_note": by_ply.get(ply) if ply is not None else None,
        "move_notes": [n for n in notes if n["ply"] is not None],
        "next": request.get_full_path(),
        "finished": game.status == "finished",
        "csrf_token": context.get("csrf_token"),
    }
