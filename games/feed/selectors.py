"""Reads of the event feed: a person's events after a cursor, and a table's public stamp."""

from __future__ import annotations

from ..models import Event, Game

PAGE_MAX = 200


def events_after(*, user_id: int, after: int = 0, limit: int = 100) -> list[Event]:
    """Her next events after the id `after`, oldest first, at most `limit` (up to PAGE_MAX)."""
    limit = max(1, min(limit, PAGE_MAX))
    return list(Event.objects.filter(user_id=user_id, id__gt=after).order_by("id")[:limit])


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


def table_stamp(game: Game) -> str:
    """What changes whenever a table's page would: the version plus the last change to the table (joins, bots).
    The table page's poller compares the same (games.views.common.stamp)."""
    return f"{game.version}.{int(game.updated_at.timestamp() * 1000)}"


def table_public(game_id: int) -> dict | None:
    """The table's stamp, version and status, as its stream announces them; None if it is gone."""
    game = Game.objects.filter(pk=game_id).only("version", "status", "updated_at").first()
    if game is None:
        return None
    return {"table": game_id, "version": game.version, "status": game.status, "stamp": table_stamp(game)}
