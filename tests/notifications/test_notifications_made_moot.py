"""Every notice a later event makes moot is marked read (ruling S6), so the bell shows what still needs her: a turn
once she acts, opens the table, or the game ends or is aborted; an invitation once answered, the table started or
closed; a "started" once she acts there; an opponent's vacation once it ended."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Seat
from games.services.aborting import game_abort
from games.services.invitations import invitation_accept, invitation_decline
from notifications.events import reminders_send
from notifications.models import Notification, NotificationDelivery
from notifications.services import Moot, notifications_moot
from tests.games.tables import decide, play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


def unread(user, game, kind: str) -> int:
    return Notification.objects.filter(recipient=user, game=game, kind=kind, read_at__isnull=True).count()


def test_her_turn_her_deadline_reminder_and_the_start_are_read_once_she_acts(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    Seat.objects.filter(game=game, index=1).update(deadline=timezone.now() + timedelta(minutes=30))
    assert reminders_send() == 1
    assert [unread(member, game, k) for k in ("started", "your_turn", "deadline")] == [1, 1, 1]
    decide(game, member)  # her first decision of the turn: she is at the board
    assert [unread(member, game, k) for k in ("started", "your_turn", "deadline")] == [0, 0, 0]


def test_opening_the_table_reads_what_the_bell_said_of_it_and_nothing_else(owner, member):
    game = topology_table(owner, member)
    elsewhere = topology_table(owner, member)
    game = play_turn(game, owner)
    page = Client()
    page.force_login(member)
    assert page.get(f"/tables/{game.pk}/").status_code == 200
    assert unread(member, game, "your_turn") == 0 and unread(member, game, "started") == 0
    assert unread(member, elsewhere, "started") == 1


def test_resigning_reads_her_turn(owner, member, outsider):
    game = topology_table(owner, member, outsider)
    game = play_turn(game, owner)
    game = play_turn(game, member)
    game = play_turn(game, outsider)
    assert unread(owner, game, "your_turn") == 1
    services.game_resign(game_id=game.pk, user=owner)
    assert unread(owner, game, "your_turn") == 0


def test_an_aborted_game_leaves_no_unread_turn(owner, member):
    game = topology_table(owner, bots=["greedy"])
    assert unread(owner, game, "your_turn") == 1
    game_abort(user=owner, game_id=game.pk)  # nothing played yet: she may abort alone
    assert unread(owner, game, "your_turn") == 0


def test_an_invitation_is_read_once_answered_or_its_table_started_or_closed(owner, member, outsider):
    accepted = services.game_create(user=owner, kind="topology", players=3)
    declined = services.game_create(user=owner, kind="topology", players=3)
    started = services.game_create(user=owner, kind="topology", players=2)
    closed = services.game_create(user=owner, kind="topology", players=2)
    for game in (accepted, declined, started, closed):
        services.game_invite(user=owner, game_id=game.pk, username="bruno")
    services.game_invite(user=owner, game_id=started.pk, username="chen")
    assert Notification.objects.filter(recipient=member, kind="invited", read_at__isnull=True).count() == 4
    invitation_accept(user=member, invitation_id=accepted.invitations.get(user=member).pk)
    invitation_decline(user=member, invitation_id=declined.invitations.get(user=member).pk)
    services.game_join(user=outsider, game_id=started.pk)
    services.game_start(user=owner, game_id=started.pk)
    game_abort(user=owner, game_id=closed.pk)
    for game in (accepted, declined, started, closed):
        assert unread(member, game, "invited") == 0, game
    assert unread(owner, accepted, "answered") == 1 and unread(owner, declined, "answered") == 1


def test_the_moot_service_needs_a_table_people_or_keys(owner):
    with pytest.raises(ValueError):
        notifications_moot(event=Moot.CLOSED)
    assert notifications_moot(event=Moot.CLOSED, recipient_ids=[owner.pk]) == 0


def test_her_turns_emails_still_waiting_are_moot_with_it_and_the_next_turn_is_not_held_back(owner, member):
    """The notice, its email and push still pending and the seat's mark of a turn mailed, in one statement on
    PostgreSQL (decision 28): each pending delivery of the marked notice is seen, one already sent stays sent, and
    her seat's turn mail no longer holds back the next (presence.turn_mail_due)."""
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    notice = Notification.objects.get(recipient=member, game=game, kind="your_turn", read_at__isnull=True)
    Delivery = NotificationDelivery
    made = {}
    for channel, status in (("email", "pending"), ("push", "pending"), ("webhook", "sent")):
        made[channel], _ = Delivery.objects.update_or_create(
            notification=notice, recipient=member, key=notice.key, channel=channel, defaults={"status": status}
        )
    other = Notification.objects.filter(recipient=owner, read_at__isnull=True).count()
    # Her turn's mail was marked at its delivery's making (presence.turn_mail_due), and never went out.
    Seat.objects.filter(game=game, index=1).update(turn_mailed_at=made["email"].created_at)
    assert notifications_moot(event=Moot.ACTED, game_id=game.pk, recipient_ids=[member.pk]) >= 1
    statuses = dict(Delivery.objects.filter(notification=notice).values_list("channel", "status"))
    assert statuses == {"email": "seen", "push": "seen", "webhook": "sent"}
    assert Seat.objects.get(game=game, index=1).turn_mailed_at is None
    assert unread(member, game, "your_turn") == 0
    assert Notification.objects.filter(recipient=owner, read_at__isnull=True).count() == other  # hers alone
    assert notifications_moot(event=Moot.ACTED, game_id=game.pk, recipient_ids=[member.pk]) == 0  # nothing left
    seen = set(Delivery.objects.filter(status="seen").values_list("pk", flat=True))
    assert {made["email"].pk, made["push"].pk} <= seen
