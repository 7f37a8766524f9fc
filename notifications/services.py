"""Writes about notifications: create one per event and person, mark read, preferences, send emails.

Delivery rules:
- in the site every event shows once per person (unique recipient + event key); a "your turn"
  rewrites her unread one at that table rather than adding another (ruling S6);
- by email at most once per event, channel and person (unique NotificationDelivery row),
  claimed pending -> sending before the mail goes out, so a retried task never sends twice;
  a crash between claiming and sending loses that one email rather than risking a duplicate;
- an email is not sent before its `not_before` (ruling S6): a turn's grace, the end of her quiet hours.  The
  task is queued on commit with a countdown to then; the beat sweep (`deliveries_overdue`) sends what a lost
  message left behind.  When it is due, an email she no longer needs (read; for a turn, the table looked at
  or the turn over) is marked `seen` and never sent.  docs/notifications.md tells the whole story.
- push and webhooks (decision 29, notifications.channels) are deliveries of their own channels, queued and timed
  as immediate emails are and sent by `notification_channel_send` (docs/webhooks.md).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, FilteredRelation, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import enqueue
from feed.presence import grace, turn_mail_due, turn_still_hers
from games.errors import BadRequest, NotFound
from games.models import Game, Seat
from games.services.move_rows import rows_insert
from games.services.query_shapes import shaped_rows

from . import channels, emails, notice_rows
from .models import Notification, NotificationDelivery, NotificationEvent, NotificationPreference, QuietHours
from .quiet import BAD_CLOCK, parse_clock, quiet_end
from .selectors import default_email

log = logging.getLogger(__name__)
User = get_user_model()

Email = NotificationPreference.Email
Status = NotificationDelivery.Status
Channel = NotificationDelivery.Channel
MAX_ATTEMPTS = 5


def notification_create(
    *, recipient, kind: str, key: str, params: dict | None = None, text: str = "", game: Game | None = None
) -> Notification | None:
    """Tell `recipient` about one event, once; queue her email as she chose.  None if she already knew.

    `params` is the event as data (notifications.texts: worded when read, in the reader's language);
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
    she has read it, the next turn makes a new one.  Emails follow `presence.turn_mail_due` (one per table
    until she visits it again) and wait out the grace: none if she looks at the table meanwhile.
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
        if turn_mail_due(seat) and _delivery_queue(notification, now=now):
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
    once per person) and, for a turn, of `turn_notification_tell` (her unread one at the table rewritten, mailed
    after the grace as `presence.turn_mail_due` allows), in a few statements whatever the number of seats (decision 16).

    Called by the effects dispatch inside its transaction, holding the table's cursor lock: nobody else writes
    these keys meanwhile.  Returns the notifications made, then those rewritten.
    """
    if not tellings:
        return []
    now = now or timezone.now()
    turns_of = {t.recipient.pk for t in tellings if t.seat is not None}
    with transaction.atomic(savepoint=False):  # the dispatch's own transaction: no savepoint to pay for
        # Locked: her unread turn is rewritten, not marked read under our feet (a read one gets a new one).
        rows = notice_rows.told_locked(
            keys={t.key for t in tellings},
            recipient_ids={t.recipient.pk for t in tellings},
            turns_of=turns_of,
            game_id=game.pk,
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
                note.recipient = t.recipient  # the one told: her email is read from it, not again
                rewritten.append(note)
            if t.seat is None or turn_mail_due(t.seat):
                to_mail.append((note, t.seat))
        if rows_insert(made) is None:
            Notification.objects.bulk_create(made)
        if rewritten:
            Notification.objects.bulk_update(rewritten, ["key", "params", "text", "created_at"])
        queued = _deliveries_queue([note for note, _ in to_mail], now=now)
        mailed = [seat for note, seat in to_mail if seat is not None and note.pk in queued]
        if mailed:
            notice_rows.turns_mailed([s.pk for s in mailed], now)
            for seat in mailed:
                seat.turn_mailed_at = now
    return made + rewritten


def _deliveries_queue(notifications: list[Notification], *, now=None) -> set[int]:
    """Queue each notification's email (at once or in the digest) as its recipient chose: one read of their
    choices and quiet hours, one insert; the ids of those given a delivery.

    An email is due (`not_before`) at once, a turn's after the grace (ruling S6), and either at the end of her
    quiet hours if it would fall in them.
    """
    now = now or timezone.now()
    active = [n for n in notifications if n.recipient.is_active]
    wanted = [n for n in active if n.recipient.email]
    # Decision 29: the channels of the outbound app (push, webhooks) read who wants what in the same query.
    providers = channels.providers() if active else []
    if not wanted and not providers:
        return set()
    # One read for their choices of these kinds and their quiet hours (left joins: a person without either too).
    kinds = {n.kind for n in active}
    extra = [column for p in providers for column in p.columns]

    def build(ids, kinds):
        return (
            User.objects.filter(pk__in=ids)
            .annotate(
                chosen=FilteredRelation(
                    "notification_preferences", condition=Q(notification_preferences__event__in=kinds)
                ),
                **{name: value for p in providers for name, value in p.annotations().items()},
            )
            .values_list("pk", "chosen__event", "chosen__email", "quiet_hours__start", "quiet_hours__end", *extra)
        )

    # Compiled once per number of people and kinds (decision 28, point 3): the ORM's compiler was most of this read.
    found = shaped_rows(
        ("deliveries", *(id(p) for p in providers)),
        build,
        ids=sorted({n.recipient_id for n in active}),
        kinds=sorted(kinds),
    )
    chosen, quiet, read = {}, {}, []
    for user_id, event, email, start, end, *columns in found:
        if event is not None:
            chosen[(user_id, event)] = email
        if start is not None:
            quiet[user_id] = QuietHours(user_id=user_id, start=start, end=end)
        read.append((user_id, *columns))
    others = list(channels.wanted(providers, {(n.recipient_id, n.kind) for n in active}, read).items())
    rows = []
    for n in wanted:
        choice = chosen.get((n.recipient_id, n.kind)) or default_email(n.kind)
        if choice == Email.NONE:
            continue
        row = NotificationDelivery(notification=n, recipient_id=n.recipient_id, key=n.key)
        if choice == Email.IMMEDIATE:
            row.channel = Channel.EMAIL
            row.not_before = _due(n.recipient, n.kind, now, quiet.get(n.recipient_id))
        else:
            row.channel = Channel.DIGEST  # the digest waits for its hour, and for her quiet hours then
        rows.append(row)
    for name, wants in others:  # due as an immediate email is: a turn's after the grace, out of her quiet hours
        for n in active:
            if (n.recipient_id, n.kind) in wants:
                due = _due(n.recipient, n.kind, now, quiet.get(n.recipient_id))
                rows.append(
                    NotificationDelivery(
                        notification=n, recipient_id=n.recipient_id, key=n.key, channel=name, not_before=due
                    )
                )
    if not rows:
        return set()
    # Each key names one event told once (under the dispatch's lock), so a row already there is not expected;
    # if one were, it is kept and this one dropped, as get_or_create would, rather than failing the dispatch.
    # One INSERT without the ORM's compiler that says which rows it wrote (decision 28, point 3): when it wrote them
    # all, they are the pending ones to send; else (one was there) they are read back as before.
    written = rows_insert(rows, skip_on=("key", "channel", "recipient"), returning=("id",))
    if written is not None and len(written) == len(rows):
        for row, (delivery_id,) in zip(rows, written):
            if row.channel != Channel.DIGEST:
                task = EMAIL_TASK if row.channel == Channel.EMAIL else CHANNEL_TASK
                _queue_email_on_commit(delivery_id, row.not_before, now, task=task)
        return {r.notification.pk for r in rows}
    if written is None:
        NotificationDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    if any(r.channel == Channel.EMAIL for r in rows):
        pending = NotificationDelivery.objects.filter(
            notification__in=[r.notification for r in rows if r.channel == Channel.EMAIL],
            key__in=[r.key for r in rows if r.channel == Channel.EMAIL],  # not a rewritten turn's earlier one
            channel=Channel.EMAIL,
            status=Status.PENDING,
        ).values_list("pk", "not_before")
        for delivery_id, not_before in pending:
            _queue_email_on_commit(delivery_id, not_before, now)
    outbound = [r for r in rows if r.channel not in (Channel.EMAIL, Channel.DIGEST)]
    if outbound:
        pending = NotificationDelivery.objects.filter(
            notification__in=[r.notification for r in outbound],
            key__in=[r.key for r in outbound],
            channel__in={r.channel for r in outbound},
            status=Status.PENDING,
        ).values_list("pk", "not_before")
        for delivery_id, not_before in pending:
            _queue_email_on_commit(delivery_id, not_before, now, task=CHANNEL_TASK)
    return {r.notification.pk for r in rows}


def _due(user, kind: str, now: datetime, hours: QuietHours | None = None) -> datetime:
    """When an email of `kind` told now may go out: a turn after the grace; out of her quiet hours."""
    due = now + grace() if kind == NotificationEvent.YOUR_TURN else now
    if hours is None:
        return due
    return quiet_end(user, due, hours) or due


def _delivery_queue(notification: Notification, *, now=None) -> bool:
    """Queue the notification's email (at once or in the digest) as its recipient chose; False if none."""
    return notification.pk in _deliveries_queue([notification], now=now)


def _longest_countdown() -> float:
    # A message held for its countdown longer than the broker's visibility timeout would be delivered again
    # (Redis); one due later is left to the beat sweep, which sends it within a minute of its time.
    return settings.CELERY_BROKER_VISIBILITY_TIMEOUT / 2


EMAIL_TASK = "games.notifications.tasks.notification_email_send"
# Decision 29: a push or webhook delivery (notifications.channels), sent by `notification_channel_send`.
CHANNEL_TASK = "games.notifications.tasks.notification_channel_send"
# The channels sent one at a time when due (the digest waits for its hour).
IMMEDIATE = (Channel.EMAIL, Channel.PUSH, Channel.WEBHOOK)


def _queue_email_on_commit(
    delivery_id: int, not_before: datetime | None, now: datetime, task: str = EMAIL_TASK
) -> None:
    wait = max(0.0, (not_before - now).total_seconds()) if not_before is not None else 0.0
    if wait > _longest_countdown():
        return
    transaction.on_commit(lambda: _queue_email(delivery_id, wait, task))


def _queue_email(delivery_id: int, countdown: float = 0.0, task: str = EMAIL_TASK) -> None:
    # If the broker is down (or the message is lost) the row stays pending and the beat sweep sends it later.
    # The countdown is counted from the commit, after the `now` it was measured from: never early.
    enqueue(task, delivery_id, countdown=countdown or None)


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


class Moot:
    """What a later event makes moot (ruling S6): the kinds of her unread notices it marks read, so that the bell
    shows only what still needs her.  Each is named for the event; `notifications_moot` takes one."""

    # She acted at the table (a decision, resigning): she is at the board, her turn is being played.
    ACTED = (NotificationEvent.YOUR_TURN, NotificationEvent.DEADLINE, NotificationEvent.STARTED)
    # She opened the table's page: what it told her of that table she now sees there.
    SEEN = ACTED
    # She accepted or declined her invitation.
    ANSWERED = (NotificationEvent.INVITED,)
    # The table started: the invitations to it, and the acceptances that were waiting for it.
    STARTED = (NotificationEvent.INVITED, NotificationEvent.ANSWERED)
    # The game ended or was aborted, or the table was closed before it started: nothing there needs her.
    CLOSED = (
        NotificationEvent.YOUR_TURN,
        NotificationEvent.DEADLINE,
        NotificationEvent.STARTED,
        NotificationEvent.INVITED,
        NotificationEvent.ANSWERED,
    )
    # An opponent's vacation ended: the notice that it started.
    VACATION_ENDED = (NotificationEvent.VACATION,)


def notifications_moot(
    *, event: tuple[str, ...], game_id: int | None = None, recipient_ids=None, keys=None, now=None
) -> int:
    """Mark read the unread notices that `event` (one of `Moot`'s) makes moot: at the table `game_id`, of these
    people, with these keys (each given narrows it; one at least).  Called by the services that change things, in
    their transaction, so a rolled-back change marks nothing.  Returns how many were marked."""
    if game_id is None and recipient_ids is None and keys is None:
        raise ValueError("notifications_moot needs a table, people or keys")
    # Decision 28: every move asks, so in plain SQL and, where the database returns rows from an UPDATE (PostgreSQL,
    # SQLite 3.35+), marked and read back in one statement, their pending emails likewise in one more (on
    # PostgreSQL both in the one).
    where, params = [f'"kind" IN ({", ".join(["%s"] * len(event))})', '"read_at" IS NULL'], [str(e) for e in event]
    for column, values in (
        ("game_id", None if game_id is None else [game_id]),
        ("recipient_id", recipient_ids),
        ("key", keys),
    ):
        if values is not None:
            values = list(values)
            if not values:
                return 0
            where.append(f'"{column}" IN ({", ".join(["%s"] * len(values))})')
            params += values
    table, now = Notification._meta.db_table, now or timezone.now()
    if not connection.features.can_return_columns_from_insert:
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT "id" FROM "{table}" WHERE {" AND ".join(where)}', params)
            ids = [row[0] for row in cursor.fetchall()]
        if not ids:
            return 0
        marked = Notification.objects.filter(pk__in=ids, read_at__isnull=True).update(read_at=now)
        pending = NotificationDelivery.objects.filter(notification_id__in=ids, status=Status.PENDING)
        _seen(list(pending.select_related("notification")))
        return marked
    stamp = Notification._meta.get_field("read_at").get_db_prep_value(now, connection)
    mark = f'UPDATE "{table}" SET "read_at" = %s WHERE {" AND ".join(where)} RETURNING "id", "kind", "game_id"'
    # Their emails still waiting (a turn's grace, quiet hours) are moot too, and a turn's that never went out does not
    # hold back the table's next one (presence.turn_mail_due): she played it, or it is over.
    deliveries = NotificationDelivery._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Both in one statement (writes in WITH clauses): one round trip on the moves that make a notice moot.
            cursor.execute(
                f'WITH "marked" AS ({mark}), "seen" AS (UPDATE "{deliveries}" SET "status" = %s WHERE '
                '"notification_id" IN (SELECT "id" FROM "marked") AND "status" = %s '
                'RETURNING "notification_id", "recipient_id", "created_at") '
                'SELECT m."id", m."kind", m."game_id", s."recipient_id", s."created_at" FROM "marked" m '
                'LEFT JOIN "seen" s ON s."notification_id" = m."id"',
                [stamp, *params, str(Status.SEEN), str(Status.PENDING)],
            )
            rows = cursor.fetchall()
            marked = {row[0]: row[1:3] for row in rows}
            seen = [(row[0], row[3], row[4]) for row in rows if row[3] is not None]
        else:
            cursor.execute(mark, [stamp, *params])
            marked = {row[0]: row[1:] for row in cursor.fetchall()}
            if not marked:
                return 0
            holes = ", ".join(["%s"] * len(marked))
            cursor.execute(
                f'UPDATE "{deliveries}" SET "status" = %s WHERE "notification_id" IN ({holes}) '
                'AND "status" = %s RETURNING "notification_id", "recipient_id", "created_at"',
                [str(Status.SEEN), *marked, str(Status.PENDING)],
            )
            seen = cursor.fetchall()
    created = NotificationDelivery._meta.get_field("created_at")
    for notification_id, recipient_id, created_at in seen:
        kind, at_game = marked[notification_id]
        if kind == NotificationEvent.YOUR_TURN:
            for converter in connection.ops.get_db_converters(created.get_col(NotificationDelivery._meta.db_table)):
                created_at = converter(created_at, created, connection)
            Seat.objects.filter(game_id=at_game, user_id=recipient_id, turn_mailed_at__lte=created_at).update(
                turn_mailed_at=None
            )
    return len(marked)


def invitations_withdrawn_silence(pairs: list[tuple[int, int]]) -> None:
    """Ruling S7: invitations a block withdrew, as (recipient id, table id): their notices are silenced."""
    if not pairs:
        return
    told = Q()
    for user_id, game_id in pairs:
        told |= Q(recipient_id=user_id, game_id=game_id)
    _silence(Notification.objects.filter(told, kind=NotificationEvent.INVITED))  # the invitation is gone


def blocked_chat_silence(a_id: int, a_name: str, b_id: int, b_name: str) -> None:
    """Ruling S7: unread chat notices of one about the other's lines (a digest would still carry them)."""
    for reader_id, author_name in ((a_id, b_name), (b_id, a_name)):
        chat = Notification.objects.filter(recipient_id=reader_id, kind=NotificationEvent.CHAT)
        _silence(chat.filter(params__author=author_name))


def _silence(notices) -> None:
    """Mark read and drop the emails not sent yet of these notices: they must not reach their reader later."""
    notices.filter(read_at__isnull=True).update(read_at=timezone.now())
    NotificationDelivery.objects.filter(notification__in=notices, status=NotificationDelivery.Status.PENDING).delete()


def notifications_seen_at_table(*, game: Game, user) -> int:
    """She opened the table's page: her turn, deadline and start there are in front of her (ruling S6)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    return notifications_moot(event=Moot.SEEN, game_id=game.pk, recipient_ids=[user.pk])


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


def notification_settings_set(*, user, choices: dict[str, str], quiet: tuple | None = None) -> None:
    """The settings page and the API in one write: her email choices and, if `quiet` is given as (start, end),
    her quiet hours.  All or nothing: a refused part changes nothing."""
    with transaction.atomic():
        notification_preferences_set(user=user, choices=choices)
        if quiet is not None:
            quiet_hours_set(user=user, start=quiet[0], end=quiet[1])


def quiet_hours_set(*, user, start, end) -> QuietHours | None:
    """Her quiet hours (ruling S6), 'HH:MM' to 'HH:MM' in her time zone; both empty (or None): none.

    Her emails still waiting are timed again: what the new hours cover waits for their end, what they no longer
    cover goes out when it is due.  400 for a time that is not one, only one of the two, or the same two.
    """
    blank = [value in (None, "") for value in (start, end)]
    if all(blank):
        QuietHours.objects.filter(user=user).delete()
        _retime_pending(user, None)
        return None
    if any(blank):
        raise BadRequest(_("Give both the start and the end of your quiet hours, or neither to have none."))
    start_at, end_at = parse_clock(start), parse_clock(end)
    if start_at is None or end_at is None:
        raise BadRequest(_(BAD_CLOCK))
    if start_at == end_at:
        raise BadRequest(_("Quiet hours must start and end at different times."))
    hours, _made = QuietHours.objects.update_or_create(user=user, defaults={"start": start_at, "end": end_at})
    _retime_pending(user, hours)
    return hours


def _retime_pending(user, hours: QuietHours | None) -> None:
    """Her emails still waiting, due again as `_due` says for the quiet hours she has now (never in the past)."""
    now = timezone.now()
    waiting = NotificationDelivery.objects.filter(recipient=user, channel__in=IMMEDIATE, status=Status.PENDING)
    rows = waiting.values_list("pk", "channel", "notification__kind", "created_at", "not_before")
    for pk, channel, kind, told_at, not_before in rows:
        due = _due(user, kind, told_at)
        due = max(due, now)
        due = (quiet_end(user, due, hours) or due) if hours is not None else due
        if due != not_before:
            NotificationDelivery.objects.filter(pk=pk, status=Status.PENDING).update(not_before=due)
            _queue_email_on_commit(pk, due, now, task=EMAIL_TASK if channel == Channel.EMAIL else CHANNEL_TASK)


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


def _still_needed(delivery: NotificationDelivery, now) -> bool:
    """Ruling S6: is this email still news to her?  Not once she read the notification; for a turn, not once she
    looked at the table since it was told (her page or stream), played it, or the turn is over."""
    notification = delivery.notification
    if notification.read_at is not None:
        return False
    if notification.kind != NotificationEvent.YOUR_TURN:
        return True
    return turn_still_hers(
        game_id=notification.game_id, user_id=delivery.recipient_id, told_at=delivery.created_at, now=now
    )


def _seen(deliveries: list[NotificationDelivery]) -> int:
    """Pending rows she no longer needs: never sent (a row being sent or sent is left as it is).

    A turn's email that was never sent does not count as the table's one email: the next turn there may be mailed
    (`presence.turn_mail_due`), unless a later mail was queued since.
    """
    if not deliveries:
        return 0
    seen = NotificationDelivery.objects.filter(pk__in=[d.pk for d in deliveries], status=Status.PENDING).update(
        status=Status.SEEN
    )
    for d in deliveries:
        if d.notification.kind == NotificationEvent.YOUR_TURN:
            Seat.objects.filter(
                game_id=d.notification.game_id, user_id=d.recipient_id, turn_mailed_at__lte=d.created_at
            ).update(turn_mailed_at=None)
    return seen


def notification_email_send(*, delivery_id: int, now=None) -> bool:
    """Send one immediate email when it is due; False if it was sent (or is being sent) already, is not due yet
    (left pending: its own countdown or the sweep sends it then), or she no longer needs it (marked `seen`)."""
    return _immediate_send(delivery_id, now, Channel.EMAIL, lambda d: emails.notification_email(d.notification).send())


def notification_channel_send(*, delivery_id: int, now=None) -> bool:
    """Decision 29: send one push or webhook delivery when it is due, under the same rules as an email (ruling S6):
    not before `not_before`, not inside her quiet hours, never once she has seen it.  The channel's own `send`
    (notifications.channels) does the sending; if it raises, the sweep retries, up to MAX_ATTEMPTS."""
    row = NotificationDelivery.objects.filter(pk=delivery_id).values_list("channel", flat=True).first()
    found = channels.channel(row) if row else None
    if found is None:
        return False
    return _immediate_send(delivery_id, now, found.name, found.send)


def _immediate_send(delivery_id: int, now, channel: str, send) -> bool:
    now = now or timezone.now()
    delivery = (
        NotificationDelivery.objects.select_related("notification__game", "recipient")
        .filter(pk=delivery_id, status=Status.PENDING, channel=channel)
        .first()
    )
    if delivery is None:
        return False
    if delivery.not_before is not None and delivery.not_before > now:
        return False  # early (a message sent again, a clock): not before its time
    quiet_until = quiet_end(delivery.recipient, now)
    if quiet_until is not None:  # her quiet hours, perhaps set since it was queued: the sweep sends it at their end
        NotificationDelivery.objects.filter(pk=delivery_id, status=Status.PENDING).update(not_before=quiet_until)
        return False
    if not _still_needed(delivery, now):
        _seen([delivery])
        return False
    batch, taken = _claim([delivery_id], now)
    if not taken:
        return False
    try:
        send(delivery)
    except Exception as exc:  # SMTP trouble, a push service down: retried by the sweep
        log.warning("%s for %s not sent: %s", channel, delivery.key, exc)
        _release(batch, exc)
        return False
    NotificationDelivery.objects.filter(pk=delivery_id, batch=batch).update(status=Status.SENT, sent_at=timezone.now())
    return True


def _digest_due(now) -> Q:
    return Q(not_before__isnull=True) | Q(not_before__lte=now)


def digest_send(*, user_id: int, now=None) -> int:
    """Send one person her digest of pending notifications; returns how many it held.

    Inside her quiet hours nothing goes: her pending entries wait for their end (`not_before`), when the beat
    sweep sends them (`digests_held_due`).  Entries she no longer needs (ruling S6) are left out, marked `seen`.
    """
    now = now or timezone.now()
    pending = NotificationDelivery.objects.filter(recipient_id=user_id, channel=Channel.DIGEST, status=Status.PENDING)
    user = User.objects.filter(pk=user_id).first()
    quiet_until = quiet_end(user, now) if user is not None else None
    if quiet_until is not None:
        pending.update(not_before=quiet_until)
        return 0
    rows = list(
        pending.filter(_digest_due(now))
        .select_related("notification__game", "recipient")
        .order_by("notification__created_at", "pk")
    )
    _seen([r for r in rows if not _still_needed(r, now)])
    batch, taken = _claim([r.pk for r in rows], now)
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


def digests_held_due(*, now=None) -> list[int]:
    """People whose digest was held by their quiet hours (ruling S6), which have ended: the sweep sends it now."""
    now = now or timezone.now()
    return list(
        NotificationDelivery.objects.filter(channel=Channel.DIGEST, status=Status.PENDING, not_before__lte=now)
        .values_list("recipient_id", flat=True)
        .distinct()
        .order_by("recipient_id")
    )


def deliveries_overdue(*, now=None, after_seconds: int = 60) -> list[int]:
    """Immediate emails still pending a while after they were due (the broker was down or lost the message, SMTP
    failed), and those due at the end of quiet hours, which no countdown waits for."""
    now = now or timezone.now()
    late = now - timedelta(seconds=after_seconds)
    due = Q(not_before__lte=late) | Q(not_before__isnull=True, created_at__lte=late)
    return list(
        NotificationDelivery.objects.filter(due, channel=Channel.EMAIL, status=Status.PENDING).values_list(
            "pk", flat=True
        )[:500]
    )


def channel_deliveries_overdue(*, now=None, after_seconds: int = 60) -> list[int]:
    """`deliveries_overdue` for the push and webhook channels (decision 29): sent by `notification_channel_send`."""
    now = now or timezone.now()
    late = now - timedelta(seconds=after_seconds)
    due = Q(not_before__lte=late) | Q(not_before__isnull=True, created_at__lte=late)
    others = [Channel.PUSH, Channel.WEBHOOK]
    return list(
        NotificationDelivery.objects.filter(due, channel__in=others, status=Status.PENDING).values_list(
            "pk", flat=True
        )[:500]
    )


def deliveries_give_up_stuck(*, now=None, after_seconds: int = 3600) -> int:
    """Rows claimed long ago and never finished: the sender died mid-way.  Never retried (no duplicates)."""
    now = now or timezone.now()
    return NotificationDelivery.objects.filter(
        status=Status.SENDING, claimed_at__lte=now - timedelta(seconds=after_seconds)
    ).update(status=Status.FAILED, error="The sender stopped while sending; not retried to avoid a duplicate.")
