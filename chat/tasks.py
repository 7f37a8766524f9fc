"""Celery tasks of the chat: thin and idempotent (the dispatch runs under the message's row lock, chat.effects).

`chat_message_effects` keeps the name it was registered under while the chat lived in games
(name="games.tasks.chat_message_effects"): the services enqueue it by that name, and a queue in flight across a
deploy must still be served."""

from __future__ import annotations

from celery import shared_task

from config.celery import enqueue
from feed.announce import table_announce

from .effects import chat_message_dispatch, messages_behind
from .models import ChatMessage


@shared_task(
    name="games.tasks.chat_message_effects", acks_late=True, reject_on_worker_lost=True, resend_if_worker_dies=True
)
def chat_message_effects(message_id: int) -> bool:
    """Tell the table's players of a new chat message (chat.effects), then nudge the open pages' streams."""
    told: list[int] = []
    new = chat_message_dispatch(message_id=message_id, told=told)
    game_id = ChatMessage.objects.filter(pk=message_id).values_list("game_id", flat=True).first()
    if game_id is not None:
        table_announce(game_id, told)  # committed: the streams of every web process may read it now
    return new


def chat_messages_behind() -> int:
    """The outbox sweep's part for the chat (games.tasks.effects_sweep, registered in chat/apps.py): messages whose
    dispatch task was lost are sent again."""
    behind = messages_behind()
    for message_id in behind:
        enqueue("games.tasks.chat_message_effects", message_id)
    return len(behind)
