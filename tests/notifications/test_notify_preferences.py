"""Per person and event: email at once, in the daily digest, or none; the site always shows it."""

from __future__ import annotations

import pytest
from django.core import mail

from games.errors import BadRequest
from notifications import tasks
from notifications.models import Notification, NotificationDelivery
from notifications.services import notification_preferences_set
from tests.games.tables import kinds_of, play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_digest_events_wait_for_one_daily_email_that_is_sent_once(owner, member):
    notification_preferences_set(user=member, choices={"started": "digest", "your_turn": "digest"})
    game = topology_table(owner, member)
    play_turn(game, owner)
    assert kinds_of(member) == ["started", "your_turn"] and mail.outbox == []
    assert tasks.digests_send() == 2
    (digest,) = mail.outbox
    assert digest.to == [member.email] and "2 notifications" in digest.subject
    for text in Notification.objects.filter(recipient=member).values_list("text", flat=True):
        assert text in digest.body
    assert f"https://topos.example/tables/{game.pk}/" in digest.body
    assert "https://topos.example/accounts/notifications/" in digest.body
    assert tasks.digests_send() == 0 and len(mail.outbox) == 1
    assert set(NotificationDelivery.objects.filter(recipient=member).values_list("channel", "status")) == {
        ("digest", "sent")
    }


def test_no_email_still_shows_in_the_site(owner, member):
    notification_preferences_set(user=member, choices={"started": "none"})
    topology_table(owner, member)
    assert kinds_of(member) == ["started"]
    assert mail.outbox == [] and not NotificationDelivery.objects.filter(recipient=member).exists()
    assert tasks.digests_send() == 0


def test_the_immediate_email_links_to_the_game_and_to_the_settings(owner, member):
    game = topology_table(owner, member)
    (email,) = mail.outbox
    assert email.subject == f"[Topos] Topology #{game.pk} has started"
    assert f"https://topos.example/tables/{game.pk}/" in email.body
    assert "https://topos.example/accounts/notifications/" in email.body
    assert "Hello bruno" in email.body


def test_unknown_events_or_choices_are_refused(member):
    with pytest.raises(BadRequest, match="no notification called"):
        notification_preferences_set(user=member, choices={"birthday": "none"})
    with pytest.raises(BadRequest, match="Choose one of immediate, digest, none"):
        notification_preferences_set(user=member, choices={"started": "weekly"})
