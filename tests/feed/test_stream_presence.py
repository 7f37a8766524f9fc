"""A player's open table stream is her presence at the table, as her page's poller is (ruling S6)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import mail
from django.utils import timezone

from feed import opening
from games.models import Seat
from notifications.models import NotificationDelivery
from tests.games.tables import play_turn, time_comes, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


@pytest.fixture(autouse=True)
def grace(settings):
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 120


def sends(feed) -> None:
    """The stream reads the table and what it sends reaches her (the driver calls `answered` after each send)."""
    feed.read()
    feed.answered()


def seen_at(game, user):
    return Seat.objects.get(game=game, user=user).seen_at


def test_her_open_stream_writes_her_presence_and_a_spectators_writes_nothing(owner, member, outsider):
    game = topology_table(owner, member)
    owners = seen_at(game, owner)  # she pressed Start on the table's page
    hers = opening.table_feed(member, game.pk)
    hers.read()
    assert seen_at(game, member) is None  # read, not yet sent: she may have gone
    hers.answered()
    first = seen_at(game, member)
    assert first is not None
    sends(hers)  # at once again: within the feed's own rhythm, nothing is written
    assert seen_at(game, member) == first
    for viewer in (outsider, AnonymousUser()):  # a public table's spectators have no seat there
        sends(opening.table_feed(viewer, game.pk))
    assert seen_at(game, owner) == owners


def test_a_turn_told_while_her_stream_is_open_is_not_mailed(owner, member):
    game = topology_table(owner, member)
    stream = opening.table_feed(member, game.pk)
    sends(stream)
    # Her stream has been open a while (its last write 20 s ago, within the throttle).
    Seat.objects.filter(game=game, user=member).update(seen_at=timezone.now() - timedelta(seconds=20))
    game = play_turn(game, owner)
    assert NotificationDelivery.objects.filter(recipient=member, notification__kind="your_turn").exists()
    stream.presence_next = 0  # its next check comes within a few seconds; here, now
    sends(stream)
    assert time_comes(121) == 0
    assert not [m for m in mail.outbox if m.to == [member.email] and "Your turn" in m.subject]
    assert NotificationDelivery.objects.get(recipient=member, notification__kind="your_turn").status == "seen"


def test_a_closed_stream_says_nothing_and_the_turn_is_mailed(owner, member):
    game = topology_table(owner, member)
    sends(opening.table_feed(member, game.pk))  # she had the table open, then closed it
    Seat.objects.filter(game=game, user=member).update(seen_at=timezone.now() - timedelta(seconds=10))
    play_turn(game, owner)
    assert time_comes(121) == 1
    assert [m for m in mail.outbox if m.to == [member.email] and "Your turn" in m.subject]
