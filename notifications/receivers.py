"""What notifications answers of games' hooks (games.hooks), connected in NotificationsConfig.ready().

games comes before notifications in the app order and may not import it: it calls its hooks with plain data (or
the rows it holds, where a re-read would cost a query per move) and these tell people.  Each runs where the hook
says: in the write's own transaction, on the table's page, or in the worker's dispatch.
"""

from __future__ import annotations

from feed.announce import table_announce
from games import hooks

from . import events, selectors, services


def notices_moot(*, game_id: int, recipient_ids=None, why: str) -> int:
    """Ruling S6: what `why` ("acted", "started", "closed") makes moot is marked read (services.Moot)."""
    return services.notifications_moot(
        event=getattr(services.Moot, why.upper()), game_id=game_id, recipient_ids=recipient_ids
    )


def invitation_made(invitation) -> None:
    events.invitation_notify(invitation)  # the notification and the feed event (feed)


def invitation_answered(invitation, *, accepted: bool, closed: bool = False) -> list[int]:
    return events.invitation_answered_notify(invitation, accepted=accepted, closed=closed)


def table_opened(*, game, user) -> int:
    return services.notifications_seen_at_table(game=game, user=user)  # what the bell told her of it is read


def unread_count(user) -> int:
    return selectors.unread_count(user=user)


def effects_dispatch(game_id: int) -> events.Dispatched:
    """In the worker: tell what changed (notifications and feed events in one transaction), then, committed, nudge
    the streams (of every web process, through Redis) of the table and of whoever got a new event."""
    done = events.game_effects_run(game_id)
    table_announce(game_id, done.told)
    return done


def outbox_sweep() -> dict:
    """The beat's sweep: emails, push and webhooks whose task was lost, digests held by quiet hours (ruling S6)."""
    from config.celery import enqueue

    overdue = services.deliveries_overdue()
    for delivery_id in overdue:
        enqueue("games.notifications.tasks.notification_email_send", delivery_id)
    for delivery_id in services.channel_deliveries_overdue():  # decision 29: push and webhooks, as emails
        enqueue("games.notifications.tasks.notification_channel_send", delivery_id)
    # Ruling S6: digests held by their reader's quiet hours go when those end.
    for user_id in services.digests_held_due():
        enqueue("games.notifications.tasks.digest_send", user_id)
    stuck = services.deliveries_give_up_stuck()
    return {"emails": len(overdue), "gave_up": stuck}


def connect() -> None:
    hooks.notices_moot.connect(notices_moot)
    hooks.invitation_made.connect(invitation_made)
    hooks.invitation_answered.connect(invitation_answered)
    hooks.invitations_withdrawn.connect(services.invitations_withdrawn_silence)
    hooks.players_blocked.connect(services.blocked_chat_silence)
    hooks.table_opened.connect(table_opened)
    hooks.unread_count.connect(unread_count)
    hooks.effects_dispatch.connect(effects_dispatch)
    hooks.outbox_sweep.connect(outbox_sweep)
