from django.apps import AppConfig


class ChatConfig(AppConfig):
    """Chat at every table (decision 17, point 1): its messages, mutes and reports, the page's panel, the API and
    the moderators' admin.  After games, the feed and the notifications in the apps' order: those never import the
    chat; it takes its part in them through their hooks, filled here."""

    name = "chat"
    verbose_name = "Chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from feed import hooks as feed_hooks
        from games import hooks

        from . import account_data  # noqa: F401  (ruling S8: her chat in her data export and her deletion)
        from .selectors import chat_stream_part

        # The outbox sweep sends again what a lost dispatch task left behind (its answer's "chat": how many).
        hooks.outbox_sweep.connect(_sweep_part)
        # A table's stream tells the page when the chat as this viewer reads it changed (chat.js refreshes it).
        feed_hooks.table_stream_parts.connect(chat_stream_part)


def _sweep_part() -> dict:
    from .tasks import chat_messages_behind

    return {"chat": chat_messages_behind()}
