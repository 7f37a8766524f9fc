"""Who may open which stream, from where: shared by the WSGI views (games.api.events) and the ASGI app (asgi.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import BadRequest
from ..models import Game
from ..services.table_access import can_see, table_not_found
from .stream import TableFeed, UserFeed


def cursor_from(query: dict, last_event_id: str | None) -> int | None:
    """`?after=` or the browser's Last-Event-ID (a reconnect); None: start from now."""
    raw = query.get("after")
    if raw is None:  # an empty ?after= is refused below, as the schema says (issue 12); an empty header is none
        raw = last_event_id or None
    if raw is None:
        return None
    try:
        after = int(raw)
    except (TypeError, ValueError):
        after = -1
    if after < 0:
        raise BadRequest(_("'after' must be an event id (a whole number, 0 or more)."))
    return after


def user_feed(user, query: dict, last_event_id: str | None) -> UserFeed:
    return UserFeed(user.pk, cursor_from(query, last_event_id))


def table_feed(user, game_id: int, invite_code: str = "") -> TableFeed:
    """The table's stream, for whoever may see the table (games.services.table_access): 404 otherwise."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_see(game, user, invite_code):
        raise table_not_found(game_id)
    seated = bool(getattr(user, "is_authenticated", False)) and game.seats.filter(user_id=user.pk).exists()
    return TableFeed(game_id, player=seated)
