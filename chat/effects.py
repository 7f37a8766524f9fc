"""Telling the players of a new chat message, in the worker after it committed (never in the request).

The message row is its own outbox: `dispatched_at` stays null until this has run, and the beat sweep
(games.tasks.effects_sweep) sends whatever a lost task or a broker outage left behind.  The dispatch runs
under the message's row lock and every notification and feed event has a key naming the message, so a
retried task tells nothing twice.

Who is told: the people seated at the table, except the author, whoever muted her and whoever has a block with
her either way (ruling S7: nothing of his reaches her, and hers is hidden from him), of a message they may read
(a spectator's written while the game runs only once it is over, chat.selectors).
- The feed (`GET /api/events/`, the user stream): a `chat` event for each of them, always: a client needs it.
- The notifications (ruling S6, as for "your turn"): none for a player who has the table's page open
  (feed.presence), since the page shows the message live; at most one unread chat
  notification per table and person, which a later message rewrites (and moves to the top) until she reads
  it; an email (or digest entry) only with a fresh notification, and only if she asked for chat emails
  (the default is none, notifications.selectors).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.selectors import blocked_ids
from feed.models import Event
from feed.presence import is_present
from feed.services import NewEvent, _table_data, events_record
from games.models import Seat
from notifications.models import Notification, NotificationEvent
from notifications.services import _delivery_queue

from .models import ChatMessage, ChatMute
from .selectors import readable_by_players

EXCERPT = 80


def excerpt(body: str) -> str:
    text = " ".join(body.split())
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def chat_params(message: ChatMessage) -> dict:
    """Who wrote where, and the start of it, as data: worded when read (notifications.texts)."""
    return {
        "code": "chat",
        "game": {"id": message.game_id, "kind": message.game.kind},
        "author": message.author.username,
        "spectator": message.spectator,
        "excerpt": excerpt(message.body),
    }


def chat_notification_tell(*, seat: Seat, message: ChatMessage, params: dict, now=None) -> Notification | None:
    """Her one unread chat notification at this table, made or rewritten; None if this message was told."""
    now = now or timezone.now()
    key = f"chat:{message.game_id}:{message.pk}"
    recipient = seat.user
    with transaction.atomic():
        if Notification.objects.filter(recipient=recipient, key=key).exists():
            return None
        unread = (
            Notification.objects.select_for_update()
            .filter(recipient=recipient, game_id=message.game_id, kind=NotificationEvent.CHAT, read_at__isnull=True)
            .order_by("-created_at", "-pk")
            .first()
        )
        if unread is not None:
            unread.key, unread.params, unread.text, unread.created_at = key, params, "", now
            unread.save(update_fields=["key", "params", "text", "created_at"])
            return unread  # no second email while she has not read the first
        notification = Notification.objects.create(
            recipient=recipient, kind=NotificationEvent.CHAT, key=key, params=params, game_id=message.game_id
        )
        _delivery_queue(notification)
    return notification


def chat_message_dispatch(*, message_id: int, told: list[int] | None = None, now=None) -> bool:
    """Tell the table's players of one message; False if it was told already (or is gone)."""
    now = now or timezone.now()
    with transaction.atomic():
        message = (
            ChatMessage.objects.select_for_update(of=("self",))
            .select_related("game", "author")
            .filter(pk=message_id)
            .first()
        )
        if message is None or message.dispatched_at is not None:
            return False
        game = message.game
        if message.deleted_at is None and readable_by_players(message, game):
            seats = list(
                game.seats.select_related("user")
                .filter(user__isnull=False)
                .exclude(user_id=message.author_id)
                .order_by("index")
            )
            muters = set(
                ChatMute.objects.filter(muted_id=message.author_id, user_id__in=[s.user_id for s in seats]).values_list(
                    "user_id", flat=True
                )
            )
            muters |= blocked_ids(message.author_id)  # ruling S7: either way, so not even a feed event
            seats = [s for s in seats if s.user_id not in muters]
            data = {
                **_table_data(game),
                "message": message.pk,
                "author": message.author.username,
                "spectator": message.spectator,
            }
            events = [
                NewEvent(s.user_id, Event.Kind.CHAT, f"chat:{game.pk}:{message.pk}", game.pk, data) for s in seats
            ]
            params = chat_params(message)
            for seat in seats:
                if is_present(seat, now=now):
                    continue  # ruling S6: she is looking at the table, where the message shows by itself
                chat_notification_tell(seat=seat, message=message, params=params, now=now)
            recipients = events_record(events)
            if told is not None:
                told.extend(recipients)
        message.dispatched_at = now
        message.save(update_fields=["dispatched_at"])
    return True


def messages_behind(*, now=None, settle_seconds: int = 10, limit: int = 200) -> list[int]:
    """Messages written a while ago and never dispatched (the sweep sends them again)."""
    now = now or timezone.now()
    return list(
        ChatMessage.objects.filter(dispatched_at__isnull=True, created_at__lte=now - timedelta(seconds=settle_seconds))
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
