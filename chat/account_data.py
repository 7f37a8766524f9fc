"""What the chat adds to her data export and to the deletion of her account (ruling S8), registered from
ChatConfig.ready into accounts.data_export (sections) and accounts.deletion (what stays, where her name is
rewritten).

- her chat lines (`ChatMessage.author`) stay when she is deleted: the others' conversation stays readable, her
  name replaced by the neutral one (decision 29); her mutes and reports are deleted with her."""

from __future__ import annotations

import re

from accounts.data_export import not_exported, section
from accounts.deletion import keep, scrubber

from .models import ChatMessage, ChatMute, ChatReport

keep("chat.ChatMessage.author", "The others' conversation stays; its author is shown under the neutral name.")
not_exported("chat.ChatMute.muted", "Another person's mute: private to her.")
not_exported("chat.ChatReport.resolved_by", "A moderator's work, not her data.")


@section("chat", covers=("chat.ChatMessage.author", "chat.ChatMute.user", "chat.ChatReport.reporter"))
def _chat(user) -> dict:
    return {
        "written": [
            {
                "table": m.game_id,
                "body": m.body,
                "spectator": m.spectator,
                "created_at": m.created_at.isoformat(),
                "deleted_at": m.deleted_at.isoformat() if m.deleted_at else None,
            }
            for m in ChatMessage.objects.filter(author=user).order_by("created_at")
        ],
        "muted": [m.muted.username for m in ChatMute.objects.filter(user=user).select_related("muted")],
        "reported": [
            {"message": r.message_id, "reason": r.reason, "note": r.note, "created_at": r.created_at.isoformat()}
            for r in ChatReport.objects.filter(reporter=user)
        ],
    }


@scrubber
def _rename_in_chat_lines(user, old: str, new: str) -> None:
    """Chat lines that name her (hers or anyone's, in any case): the name becomes the neutral one too."""
    spelled = re.compile(re.escape(old), re.IGNORECASE)
    for message in ChatMessage.objects.filter(body__icontains=old).iterator():
        message.body = spelled.sub(new, message.body)
        message.save(update_fields=["body"])
