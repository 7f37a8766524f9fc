"""Who may open which stream, from where: shared by the WSGI views (feed.api) and the ASGI app (asgi.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import BadRequest
from games.models import Game
from games.services.table_access import can_see, table_not_found

from .stream import TableFeed, UserFeed


def cursor_from(query: dict, last_event_id: str | None) -> int | None:
    """`?after=` or the browser's Last-Event-ID (a reconnect); None: start from now."""
    raw = query.get("after")
    if raw is None:  # an empty ?after= is refused below, as the schema says (decision 12); an empty header is none
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


def _held_by(feed, token):
    """A stream opened with an API token (`token`: the ApiToken, else None) ends when the token stops holding."""
    feed.held_by(getattr(token, "pk", None))
    return feed


def user_feed(user, query: dict, last_event_id: str | None, token=None) -> UserFeed:
    return _held_by(UserFeed(user.pk, cursor_from(query, last_event_id)), token)


def table_feed(user, game_id: int, invite_code: str = "", token=None) -> TableFeed:
    """The table's stream, for whoever may see the table (games.services.table_access): 404 otherwise."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_see(game, user, invite_code):
        raise table_not_found(game_id)
    seat_id = None
    if getattr(user, "is_authenticated", False):
        seat_id = game.seats.filter(user_id=user.pk).values_list("pk", flat=True).first()
    return _held_by(TableFeed(game_id, player=seat_id is not None, seat_id=seat_id), token)
