"""Writes about notifications: create one per event and person, mark read, preferences, send emails.

Delivery rules:
- in the site every event shows once per person (unique recipient + event key); a "your turn"
  rewrites her unread one at that table rather than adding another (ruling S6);
- by email at most once per event, channel and person (unique NotificationDelivery row),
  claimed pending -> sending before the mail goes out, so a retried task never sends twice;
  a crash between claiming and sending loses that one email rather than risking a duplicate.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import enqueue

from ..errors import BadRequest, NotFound
from ..models import Game, Seat
from . import emails
from .models import Notification, NotificationDelivery, NotificationEvent, NotificationPreference
from .presence import turn_mail_due
from .selectors import default_email, email_choice

log = logging.getLogger(__name__)

Email = NotificationPreference.Email
Status = NotificationDelivery.Status
Channel = NotificationDelivery.Channel
MAX_ATTEMPTS = 5


def notification_create(
    *, recipient, kind: str, key: str, params: dict | None = None, text: str = "", game: Game | None = None
) -> Notification | None:
    """Tell `recipient` about one event, once; queue her email as she chose.  None if she already knew.

    `params` is the event as data (games.notifications.texts: worded when read, in the reader's language);
    `text` only for words that are no event of the site's (a test's note), shown as they are.
    """
    if kind not in NotificationEvent.values:
        raise ValueError(f"unknown notification kind {kind!r}")
    with transaction.atomic():
        notification, created = Notification.objects.get_or_create(
            recipient=recipient, key=key, defaults={"kind": kind, "params": params or {}, "text": text, "game": game}
        )
        if not created:
            return None
        _delivery_queue(notification)
    return notification


def turn_notification_tell(
    *, seat: Seat, key: str, params: dict | None = None, text: str = "", now=None
) -> Notification | None:
    """Tell the seat's player that it is her turn; None if this turn (`key`) was told already.

    Ruling S6: at most one unread "your turn" per table.  A later turn rewrites the unread
    one (its facts, key, and its time, so it moves to the top) instead of adding another; once
    she has read it, the next turn makes a new one.  Emails follow `presence.turn_mail_due`:
    none while she looks at the table, and one per table until she visits it again.
    Called by the effects dispatch, which holds the game's cursor lock, so one table's
    turns are never told concurrently.
    """
    now = now or timezone.now()
    recipient = seat.user
    with transaction.atomic():
        if Notification.objects.filter(recipient=recipient, key=key).exists():
            return None
        notification = (
            Notification.objects.select_for_update()
            .filter(recipient=recipient, game_id=seat.game_id, kind=NotificationEvent.YOUR_TURN, read_at__isnull=True)
            .order_by("-created_at", "-pk")
            .first()
        )
        if notification is None:
            notification = Notification.objects.create(
                recipient=recipient,
                kind=NotificationEvent.YOUR_TURN,
                key=key,
                params=params or {},
                text=text,
                game_id=seat.game_id,
            )
        else:
            notification.key, notification.params, notification.text = key, params or {}, text
            notification.created_at = now
            notification.save(update_fields=["key", "params", "text", "created_at"])
        if turn_mail_due(seat, now=now) and _delivery_queue(notification):
            seat.turn_mailed_at = now
            Seat.objects.filter(pk=seat.pk).update(turn_mailed_at=now)
    return notification


@dataclass(frozen=True)
class Telling:
    """One event to tell one person at a table (the effects dispatch); with `seat`, a "your turn" at that seat."""

    recipient: object
    kind: str
    key: str
    params: dict
    seat: Seat | None = None


def notifications_tell(tellings: list[Telling], *, game: Game, now=None) -> list[Notification]:
    """Tell several people of several events at one table at once: the rules of `notification_create` (each event
    once per person) and, for a turn, of `turn_notification_tell` (her unread one at the table rewritten, mailed as
    `presence.turn_mail_due` says), in a few statements whatever the number of seats (issue 16).

    Called by the effects dispatch inside its transaction, holding the table's cursor lock: nobody else writes
    these keys meanwhile.  Returns the notifications made, then those rewritten.
    """
    if not tellings:
        return []
    now = now or timezone.now()
    turns_of = {t.recipient.pk for t in tellings if t.seat is not None}
    told = Q(key__in={t.key for t in tellings})
    if turns_of:
        told |= Q(recipient_id__in=turns_of, game=game, kind=NotificationEvent.YOUR_TURN, read_at__isnull=True)
    with transaction.atomic(savepoint=False):  # the dispatch's own transaction: no savepoint to pay for
        # Locked: her unread turn is rewritten, not marked read under our feet (a read one gets a new one).
        rows = list(
            Notification.objects.select_for_update()
            .filter(told, recipient_id__in={t.recipient.pk for t in tellings})
            .order_by("-created_at", "-pk")
        )
        known = {(n.recipient_id, n.key) for n in rows}
        unread_turn: dict[int, Notification] = {}
        for n in rows:
            if n.kind == NotificationEvent.YOUR_TURN and n.game_id == game.pk and n.read_at is None:
                unread_turn.setdefault(n.recipient_id, n)  # the newest, as turn_notification_tell takes it
        made, rewritten, to_mail = [], [], []
        for t in tellings:
            if (t.recipient.pk, t.key) in known:
                continue  # she knew: a retried dispatch, the sweep
            known.add((t.recipient.pk, t.key))
            note = unread_turn.pop(t.recipient.pk, None) if t.seat is not None else None
            if note is None:
                note = Notification(recipient=t.recipient, kind=t.kind, key=t.key, params=t.params, game=game)
                made.append(note)
            else:
                note.key, note.params, note.text, note.created_at = t.key, t.params, "", now
                rewritten.append(note)
            if t.seat is None or turn_mail_due(t.seat, now=now):
                to_mail.append((note, t.seat))
        Notification.objects.bulk_create(made)
        if rewritten:
            Notification.objects.bulk_update(rewritten, ["key", "params", "text", "created_at"])
        queued = _deliveries_queue([note for note, _ in to_mail])
        mailed = [seat for note, seat in to_mail if seat is not None and note.pk in queued]
        if mailed:
            Seat.objects.filter(pk__in=[s.pk for s in mailed]).update(turn_mailed_at=now)
            for seat in mailed:
                seat.turn_mailed_at = now
    return made + rewritten


def _deliveries_queue(notifications: list[Notification]) -> set[int]:
    """`_delivery_queue` for many: one read of their choices, one insert; the ids of those given a delivery."""
    wanted = [n for n in notifications if n.recipient.email and n.recipient.is_active]
    if not wanted:
        return set()
    chosen = {
        (user_id, event): email
        for user_id, event, email in NotificationPreference.objects.filter(
            user_id__in={n.recipient_id for n in wanted}, event__in={n.kind for n in wanted}
        ).values_list("user_id", "event", "email")
    }
    rows = []
    for n in wanted:
        choice = chosen.get((n.recipient_id, n.kind)) or default_email(n.kind)
        if choice != Email.NONE:
            channel = Channel.EMAIL if choice == Email.IMMEDIATE else Channel.DIGEST
            rows.append(NotificationDelivery(notification=n, recipient_id=n.recipient_id, key=n.key, channel=channel))
    if not rows:
        return set()
    # Each key names one event told once (under the dispatch's lock), so a row already there is not expected;
    # if one were, it is kept and this one dropped, as get_or_create would, rather than failing the dispatch.
    NotificationDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    if any(r.channel == Channel.EMAIL for r in rows):
        pending = NotificationDelivery.objects.filter(
            notification__in=[r.notification for r in rows if r.channel == Channel.EMAIL],
            key__in=[r.key for r in rows if r.channel == Channel.EMAIL],  # not a rewritten turn's earlier one
            channel=Channel.EMAIL,
            status=Status.PENDING,
        ).values_list("pk", flat=True)
        for delivery_id in pending:
            transaction.on_commit(lambda delivery_id=delivery_id: _queue_email(delivery_id))
    return {r.notification.pk for r in rows}


def _delivery_queue(notification: Notification) -> bool:
    """Queue the notification's email (at once or in the digest) as its recipient chose; False if none."""
    recipient = notification.recipient
    choice = email_choice(user=recipient, event=notification.kind)
    if choice == Email.NONE or not recipient.email or not recipient.is_active:
        return False
    channel = Channel.EMAIL if choice == Email.IMMEDIATE else Channel.DIGEST
    delivery, made = NotificationDelivery.objects.get_or_create(
        key=notification.key, channel=channel, recipient=recipient, defaults={"notification": notification}
    )
    if made and channel == Channel.EMAIL:
        transaction.on_commit(lambda: _queue_email(delivery.pk))
    return made


def _queue_email(delivery_id: int) -> None:
    # If the broker is down the row stays pending and the beat sweep sends it later.
    enqueue("games.notifications.tasks.notification_email_send", delivery_id)


def notification_mark_read(*, user, notification_id: int) -> Notification:
    notification = Notification.objects.filter(pk=notification_id, recipient=user).first()
    if notification is None:
        raise NotFound(_("There is no such notification of yours."))
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
    return notification


def notifications_mark_all_read(*, user) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(read_at=timezone.now())


def notification_preferences_set(*, user, choices: dict[str, str]) -> None:
    """Store her email choice for each event named in `choices`."""
    for event, choice in choices.items():
        if event not in NotificationEvent.values:
            raise BadRequest(_("There is no notification called %(event)s.") % {"event": repr(event)})
        if choice not in Email.values:
            raise BadRequest(
                _("Choose one of %(choices)s for %(event)s.")
                % {"choices": ", ".join(Email.values), "event": repr(event)}
            )
    with transaction.atomic():
        for event, choice in choices.items():
            NotificationPreference.objects.update_or_create(user=user, event=event, defaults={"email": choice})


# --- sending ------------------------------------------------------------------------------------


def _claim(ids, now) -> tuple[str, int]:
    """Move pending rows to sending under a fresh batch name; only rows still pending are taken."""
    batch = uuid.uuid4().hex
    taken = NotificationDelivery.objects.filter(pk__in=list(ids), status=Status.PENDING).update(
        status=Status.SENDING, batch=batch, claimed_at=now, attempts=F("attempts") + 1
    )
    return batch, taken


def _release(batch: str, exc: Exception) -> None:
    """The mail server refused: let the sweep try again later, up to MAX_ATTEMPTS."""
    rows = NotificationDelivery.objects.filter(batch=batch, status=Status.SENDING)
    rows.filter(attempts__lt=MAX_ATTEMPTS).update(status=Status.PENDING, error=str(exc)[:500])
    rows.filter(attempts__gte=MAX_ATTEMPTS).update(status=Status.FAILED, error=str(exc)[:500])


def notification_email_send(*, delivery_id: int, now=None) -> bool:
    """Send one immediate email; False if it was sent (or is being sent) already."""
    now = now or timezone.now()
    batch, taken = _claim([delivery_id], now)
    if not taken:
        return False
    delivery = NotificationDelivery.objects.select_related("notification__game", "recipient").get(pk=delivery_id)
    try:
        emails.notification_email(delivery.notification).send()
    except Exception as exc:  # SMTP trouble: retried by the sweep
        log.warning("email for %s not sent: %s", delivery.key, exc)
        _release(batch, exc)
        return False
    NotificationDelivery.objects.filter(pk=delivery_id, batch=batch).update(status=Status.SENT, sent_at=timezone.now())
    return True


def digest_send(*, user_id: int, now=None) -> int:
    """Send one person her daily digest of pending notifications; returns how many it held."""
    now = now or timezone.now()
    ids = NotificationDelivery.objects.filter(
        recipient_id=user_id, channel=Channel.DIGEST, status=Status.PENDING
    ).values_list("pk", flat=True)
    batch, taken = _claim(ids, now)
    if not taken:
        return 0
    rows = list(
        NotificationDelivery.objects.filter(batch=batch)
        .select_related("notification__game", "recipient")
        .order_by("notification__created_at", "pk")
    )
    # A "your turn" rewritten by a later turn may hold two rows; the digest tells it once, as it reads now.
    notifications = list({r.notification_id: r.notification for r in rows}.values())
    try:
        emails.digest_email(rows[0].recipient, notifications).send()
    except Exception as exc:
        log.warning("digest for user %s not sent: %s", user_id, exc)
        _release(batch, exc)
        return 0
    NotificationDelivery.objects.filter(batch=batch).update(status=Status.SENT, sent_at=timezone.now())
    return len(notifications)


def digest_recipients() -> list[int]:
    return list(
        NotificationDelivery.objects.filter(channel=Channel.DIGEST, status=Status.PENDING)
        .values_list("recipient_id", flat=True)
        .distinct()
        .order_by("recipient_id")
    )


def deliveries_overdue(*, now=None, after_seconds: int = 60) -> list[int]:
    """Immediate emails still pending a while after they were queued (the broker was down, or SMTP failed)."""
    now = now or timezone.now()
    return list(
        NotificationDelivery.objects.filter(
            channel=Channel.EMAIL, status=Status.PENDING, created_at__lte=now - timedelta(seconds=after_seconds)
        ).values_list("pk", flat=True)[:500]
    )


def deliveries_give_up_stuck(*, now=None, after_seconds: int = 3600) -> int:
    """Rows claimed long ago and never finished: the sender died mid-way.  Never retried (no duplicates)."""
    now = now or timezone.now()
    return NotificationDelivery.objects.filter(
        status=Status.SENDING, claimed_at__lte=now - timedelta(seconds=after_seconds)
    ).update(status=Status.FAILED, error="The sender stopped while sending; not retried to avoid a duplicate.")
