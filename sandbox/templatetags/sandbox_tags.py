"""{% sandbox_panel game ply %}: "Try lines" and her sandboxes of the table, on the table and replay pages."""

from __future__ import annotations

from django import template

from games.models import Game

from .. import selectors

register = template.Library()


@register.inclusion_tag("sandbox/_panel.html", takes_context=True)
def sandbox_panel(context, game, ply=None):
    request = context.get("request")
    user = getattr(request, "user", None)
    seated = user is not None and user.is_authenticated and any(s.user_id == user.pk for s in game.seats.all())
    finished = game.status == Game.Status.FINISHED
    may = user is not None and user.is_authenticated and ((game.status == Game.Status.RUNNING and seated) or finished)
    return {
        "game": game,
        "ply": ply,
        "may_fork": may,
        "choose_seat": finished,
        "seats": range(game.players),
        "sandboxes": selectors.sandboxes_of(user, game) if may else [],
        "csrf_token": context.get("csrf_token"),
    }
