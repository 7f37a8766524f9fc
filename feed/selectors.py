"""Reads of the event feed: a person's events after a cursor, and a table's public stamp."""

from __future__ import annotations

from games.models import Game
from games.selectors import table_stamp

from .models import Event

PAGE_MAX = 200


def events_after(*, user_id: int, after: int = 0, limit: int = 100) -> list[Event]:
    """Her next events after the id `after`, oldest first, at most `limit` (up to PAGE_MAX)."""
    return list(_after(user_id, after)[: max(1, min(limit, PAGE_MAX))])


def _after(user_id: int, after: int):
    return Event.objects.filter(user_id=user_id, id__gt=after).order_by("id")


def events_page(*, user_id: int, after: int = 0, limit: int = 100) -> tuple[list[Event], bool]:
    """A page of `events_after` and whether more events wait after it: one read of one row more than the page
    (at PAGE_MAX too, so that a client paging at the largest limit is told to go on)."""
    limit = max(1, min(limit, PAGE_MAX))
    rows = list(_after(user_id, after)[: limit + 1])
    return rows[:limit], len(rows) > limit


def event_latest_id(*, user_id: int) -> int:
    """The cursor of "now": a stream started without one sends only what happens next."""
    return Event.objects.filter(user_id=user_id).order_by("-id").values_list("id", flat=True).first() or 0


def event_public(event: Event) -> dict:
    """One event as clients read it (the API and the stream give the same)."""
    return {
        "id": event.id,
        "kind": event.kind,
        "table": event.game_id,
        "created": event.created_at.isoformat(),
        "data": event.data,
    }


def table_public(game_id: int) -> dict | None:
    """The table's stamp, version and status, as its stream announces them; None if it is gone."""
    game = Game.objects.filter(pk=game_id).only("version", "status", "updated_at").first()
    if game is None:
        return None
    return {"table": game_id, "version": game.version, "status": game.status, "stamp": table_stamp(game)}
