"""Writes of the table chat (decision 17, point 1): post, delete one's own, mute and unmute, report.

Who may write: anyone logged in who may see the table (games.services.table_access; a private table: its
players, the invited and those with its code).  Whoever is not seated writes as a spectator, and her message
is kept from the players until the game is over (chat.selectors).  Bot seats have no account and so no
voice; a bot account writes through the API like anyone.

The rate limit is counted from her own messages (the index `chat_author_recent`), a sliding window, under a
lock of her user row so two posts at once cannot both take the last place.  The messages are the count: no
second store to keep in step, and it is exact in every setup (embedded, PostgreSQL, several web processes).

Telling people (notifications, feed events, the streams of open pages) happens in the worker after commit
(chat.effects), never here.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.celery import enqueue
from games.errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests
from games.models import Game
from games.services.table_access import can_see, table_not_found

from .models import ChatMessage, ChatMute, ChatReport
from .selectors import message_visible


class ChatInvalid(BadRequest):
    code = "chat_invalid"


class ChatForbidden(Forbidden):
    code = "chat_forbidden"


class ChatThrottled(TooManyRequests):
    code = "chat_rate_limited"


class ChatAlreadyReported(Conflict):
    code = "already_reported"


def _logged_in(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise ChatForbidden(_("Log in to write in the chat."))


def _visible_game(user, game_id: int, invite_code: str = "") -> Game:
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None or not can_see(game, user, invite_code):
        raise table_not_found(game_id)
    return game


def _clean_body(body) -> str:
    text = (body if isinstance(body, str) else "").strip()
    if not text:
        raise ChatInvalid(_("Write something before sending."), field="body")
    if len(text) > ChatMessage.BODY_MAX:
        raise ChatInvalid(
            _("A message may be at most %(max)d characters long; yours has %(n)d.")
            % {"max": ChatMessage.BODY_MAX, "n": len(text)},
            field="body",
        )
    return text


def _wait_message(seconds: int) -> str:
    if seconds < 120:
        return ngettext(
            "You are writing too fast: wait %(n)d second and send it again.",
            "You are writing too fast: wait %(n)d seconds and send it again.",
            seconds,
        ) % {"n": seconds}
    hours = max(1, math.ceil(seconds / 3600))
    return ngettext(
        "You have written too many messages today: try again in %(n)d hour.",
        "You have written too many messages today: try again in %(n)d hours.",
        hours,
    ) % {"n": hours}


def _rate_refusal(user, now) -> ChatThrottled | None:
    """Her burst and daily limits (settings.TOPOS_CHAT_BURST, TOPOS_CHAT_DAILY); the longer wait if both ran out."""
    burst, burst_seconds = settings.TOPOS_CHAT_BURST
    waits = []
    for most, window in ((burst, timedelta(seconds=burst_seconds)), (settings.TOPOS_CHAT_DAILY, timedelta(days=1))):
        if most < 1:
            continue
        # The `most`-th newest message within the window: once it leaves the window, one more may be sent.
        edge = next(
            iter(
                ChatMessage.objects.filter(author=user, created_at__gt=now - window)
                .order_by("-created_at")
                .values_list("created_at", flat=True)[most - 1 : most]
            ),
            None,
        )
        if edge is not None:
            waits.append(max(1, math.ceil((edge + window - now).total_seconds())))
    if not waits:
        return None
    wait = max(waits)
    return ChatThrottled(_wait_message(wait), retry_after=wait)


def _after_commit(message: ChatMessage) -> None:
    message_id = message.pk
    transaction.on_commit(lambda: enqueue("games.tasks.chat_message_effects", message_id))


def chat_post(*, user, game_id: int, body, invite_code: str = "") -> ChatMessage:
    """Write a message at a table; 404 for a table she may not see, 400 for an empty or too long one, 429 too fast."""
    _logged_in(user)
    game = _visible_game(user, game_id, invite_code)
    text = _clean_body(body)
    spectator = not any(s.user_id == user.pk for s in game.seats.all())
    with transaction.atomic():
        # Her row, held to the commit: her posts are counted one after the other (not a lock on the table).
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).exists()
        refusal = _rate_refusal(user, timezone.now())
        if refusal is not None:
            raise refusal
        message = ChatMessage.objects.create(game=game, author=user, body=text, spectator=spectator)
        _after_commit(message)
    return message


def chat_delete(*, user, game_id: int, message_id: int, invite_code: str = "") -> ChatMessage:
    """Her own message is deleted (kept as "message deleted"); deleting it again changes nothing."""
    _logged_in(user)
    game = _visible_game(user, game_id, invite_code)
    message = message_visible(game, user, message_id)
    if message is None:
        raise NotFound(_("There is no message %(id)s at this table that you can see.") % {"id": message_id})
    if message.author_id != user.pk:
        raise ChatForbidden(_("You may delete only your own messages; report this one if it is abusive."))
    if message.deleted_at is None:
        with transaction.atomic():
            message.deleted_at = timezone.now()
            message.save(update_fields=["deleted_at"])
            _streams_nudge(game.pk)
    return message


def chat_message_remove(*, message: ChatMessage) -> bool:
    """A moderator's deletion (the admin); True if it was not deleted yet."""
    with transaction.atomic():
        done = ChatMessage.objects.filter(pk=message.pk, deleted_at__isnull=True).update(deleted_at=timezone.now()) > 0
        if done:
            _streams_nudge(message.game_id)
    return done


def _streams_nudge(game_id: int) -> None:
    from games.services.effects import table_touched

    table_touched(game_id)  # the open pages' chat refreshes (through Redis when there is one)


def _muted_user(username: str):
    muted = get_user_model().objects.filter(username=username).first()
    if muted is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": username})
    return muted


def chat_mute(*, user, username: str) -> tuple[ChatMute, bool]:
    """She no longer sees `username`'s messages, at any table; (the mute, whether it is new)."""
    _logged_in(user)
    muted = _muted_user(username)
    if muted.pk == user.pk:
        raise ChatInvalid(_("You cannot mute yourself."), field="username")
    try:
        with transaction.atomic():
            return ChatMute.objects.get_or_create(user=user, muted=muted)
    except IntegrityError:  # the same mute a moment ago, from another request
        return ChatMute.objects.get(user=user, muted=muted), False


def chat_unmute(*, user, username: str) -> None:
    _logged_in(user)
    muted = _muted_user(username)
    if not ChatMute.objects.filter(user=user, muted=muted).delete()[0]:
        raise NotFound(_("You have not muted %(name)s.") % {"name": username})


def chat_report(
    *, user, game_id: int, message_id: int, reason: str = ChatReport.Reason.ABUSE, note: str = "", invite_code: str = ""
) -> ChatReport:
    """Report a message she can see to the moderators (the admin's chat reports); once per message."""
    _logged_in(user)
    game = _visible_game(user, game_id, invite_code)
    message = message_visible(game, user, message_id)
    if message is None:
        raise NotFound(_("There is no message %(id)s at this table that you can see.") % {"id": message_id})
    if message.author_id == user.pk:
        raise ChatForbidden(_("You cannot report your own message; delete it instead."))
    if reason not in ChatReport.Reason.values:
        raise ChatInvalid(
            _("Choose a reason among %(reasons)s.") % {"reasons": ", ".join(ChatReport.Reason.values)}, field="reason"
        )
    note = (note if isinstance(note, str) else "").strip()
    if len(note) > 500:
        raise ChatInvalid(_("The note may be at most %(max)d characters long.") % {"max": 500}, field="note")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=user, reason=reason, note=note)
    except IntegrityError:
        raise ChatAlreadyReported(_("You already reported this message; the moderators will look at it.")) from None


def chat_report_resolve(*, report: ChatReport, moderator) -> bool:
    """The admin's "resolve": True if it was open."""
    return (
        ChatReport.objects.filter(pk=report.pk, resolved=False).update(
            resolved=True, resolved_at=timezone.now(), resolved_by=moderator
        )
        > 0
    )
