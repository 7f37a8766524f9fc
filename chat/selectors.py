"""Who sees which chat message at a table.

- Players (people seated at the table) see the players' messages; spectators see the players' and the
  spectators'.  A spectator's message written while the game runs reaches the players only once it is over
  (finished or aborted), so nobody at the table is coached.  In the waiting room, before anything is dealt,
  everybody reads everybody (a spectator may ask for a seat).  Her own messages she always sees.
- A person never sees the messages of someone she muted (account-wide, `ChatMute`), nor those of someone she
  blocked or who blocked her (ruling S7: both ways, accounts.models.Block).
- Reading the chat is for whoever may see the table (games.services.table_access); writing, below.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db.models import Count, Max, Q, QuerySet

from accounts.selectors import blocked_with
from games.models import Game

from .models import ChatMessage, ChatMute

PAGE_DEFAULT = 50
PAGE_MAX = 200
PAGE_LINES = 100  # the table page shows the latest so many


def _user_id(user) -> int | None:
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


def is_over(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABORTED)


def is_player(game: Game, user) -> bool:
    """Seated at the table (a person's seat; abandoned seats too: she played and may still be told)."""
    user_id = _user_id(user)
    if user_id is None:
        return False
    return any(s.user_id == user_id for s in game.seats.all())


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def spectators_hidden_since(game: Game, user) -> datetime | None:
    """For a player while the game runs: spectators' messages from this moment on (its start) are not hers to
    read yet.  None: she reads them all."""
    if game.status != Game.Status.RUNNING or not is_player(game, user):
        return None
    return game.started_at or EPOCH


def _players_may_read(since: datetime) -> Q:
    return Q(spectator=False) | Q(created_at__lt=since)


def readable_by_players(message: ChatMessage, game: Game) -> bool:
    """May the players read this message now (the worker tells them only then)?"""
    return (
        not message.spectator
        or game.status != Game.Status.RUNNING
        or (game.started_at is not None and message.created_at < game.started_at)
    )


def muted_ids(user) -> set[int]:
    user_id = _user_id(user)
    if user_id is None:
        return set()
    return set(ChatMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def messages_visible(game: Game, user) -> QuerySet[ChatMessage]:
    """The table's messages this viewer may read, oldest first, with their authors."""
    user_id = _user_id(user)
    qs = ChatMessage.objects.filter(game=game).select_related("author").order_by("id")
    since = spectators_hidden_since(game, user)
    if since is not None:
        qs = qs.filter(_players_may_read(since) | Q(author_id=user_id))
    muted = muted_ids(user)
    if muted:
        qs = qs.exclude(author_id__in=muted)
    kept_apart = blocked_with(user, "author")  # ruling S7, joined into this query
    if kept_apart is not None:
        qs = qs.exclude(kept_apart)
    return qs


def messages_page(game: Game, user, *, after: int = 0, limit: int = PAGE_DEFAULT) -> tuple[list[ChatMessage], bool]:
    """The next `limit` messages after the id `after`, oldest first, and whether more wait after them."""
    page = list(messages_visible(game, user).filter(id__gt=after)[: limit + 1])
    return page[:limit], len(page) > limit


def messages_latest(game: Game, user, *, limit: int = PAGE_LINES) -> list[ChatMessage]:
    """The latest `limit` messages, oldest first (the table page)."""
    return list(reversed(messages_visible(game, user).order_by("-id")[:limit]))


def message_visible(game: Game, user, message_id: int) -> ChatMessage | None:
    return messages_visible(game, user).filter(pk=message_id).first()


def chat_stamp(game_id: int, *, hidden_since: datetime | None = None) -> str:
    """What changes whenever the chat a viewer sees changes: the newest message and how many were deleted.
    The table's stream announces it (feed.stream) and the page's chat poller compares it; for a player
    while the game runs (`hidden_since`, see spectators_hidden_since) both leave out the spectators' messages
    she may not read yet, so she is not even told that they exist."""
    qs = ChatMessage.objects.filter(game_id=game_id)
    if hidden_since is not None:
        qs = qs.filter(_players_may_read(hidden_since))
    row = qs.aggregate(last=Max("id"), deleted=Count("deleted_at"))
    return f"{row['last'] or 0}.{row['deleted']}"


def chat_stream_part(game_id: int, *, hidden_since: datetime | None = None) -> tuple[str, dict]:
    """The chat's event in a table's stream (feed.hooks.table_stream_parts): its stamp as this viewer reads it."""
    return "chat", {"table": game_id, "stamp": chat_stamp(game_id, hidden_since=hidden_since)}


def message_public(message: ChatMessage, viewer=None) -> dict:
    """One message as the API and the pages show it; a deleted one keeps its place without its words."""
    deleted = message.deleted_at is not None
    viewer_id = _user_id(viewer)
    return {
        "id": message.pk,
        "table": message.game_id,
        "author": message.author.username,
        "spectator": message.spectator,
        "body": "" if deleted else message.body,
        "deleted": deleted,
        "created": message.created_at.isoformat(),
        "mine": viewer_id is not None and message.author_id == viewer_id,
    }


def mutes_of_user(user) -> QuerySet[ChatMute]:
    return ChatMute.objects.filter(user=user).select_related("muted").order_by("muted__username")
