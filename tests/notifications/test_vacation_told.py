"""Her opponents are told when her vacation starts and when it ends, early by her or at its planned end by the beat
(ruling S4: they see it; ruling S6: the start's notice is moot once it ended), once per vacation and person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from feed.models import Event
from games.models import Vacation
from games.services.vacation import vacation_end, vacation_start, vacations_end_due
from notifications import tasks as notification_tasks
from notifications.models import Notification
from tests.games.tables import read_by_her, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)


def vacation_notes(user) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind="vacation").order_by("pk"))


def test_her_opponents_hear_that_her_vacation_started_and_ended(owner, member, outsider):
    one = topology_table(owner, member)
    two = topology_table(member, owner)
    toppo_table(owner, outsider, pace="live", turn_seconds=30)  # a live table: a vacation is nothing to it (ruling S4)
    vacation = vacation_start(user=owner, days=3)
    (started,) = vacation_notes(member)
    assert started.game_id is None  # two tables: the notice names both
    text = read_by_her(started)
    assert text.startswith("ana is on vacation until ") and f"Topology #{one.pk}" in text
    assert f"Topology #{two.pk}" in text
    assert vacation_notes(outsider) == [] and vacation_notes(owner) == []
    assert [m.subject for m in mail.outbox if m.to == [member.email]][-1] == "[Topos] An opponent's vacation at Topos"
    vacation_end(user=owner)  # back early
    first, ended = vacation_notes(member)
    assert first.pk == started.pk
    first.refresh_from_db()
    assert first.read_at is not None  # moot now
    assert (
        read_by_her(ended)
        == f"ana is back from vacation. Your tables with ana: Topology #{one.pk}, Topology #{two.pk}."
    )
    # told once: the task run again (a redelivery) adds nothing
    assert notification_tasks.vacation_tell(vacation.pk, "ended") == 0
    assert notification_tasks.vacation_tell(vacation.pk, "started") == 0


def test_the_beat_ending_a_vacation_tells_her_opponent_at_their_one_table(owner, member):
    game = topology_table(owner, member)
    vacation_start(user=member, days=1)
    now = timezone.now()
    Vacation.objects.filter(user=member).update(started_at=now - timedelta(hours=2), ends_at=now - timedelta(seconds=1))
    assert vacations_end_due() == 1
    started, ended = vacation_notes(owner)
    assert ended.game_id == game.pk  # one table shared: the notice links to it
    assert read_by_her(ended) == f"bruno is back from vacation. Your tables with bruno: Topology #{game.pk}."
    # and the feed, for API clients
    feed = Event.objects.filter(user=owner, kind="vacation").order_by("pk")
    assert [(e.data["event"], e.data["user"], e.data["tables"], e.game_id) for e in feed] == [
        ("started", "bruno", [game.pk], game.pk),
        ("ended", "bruno", [game.pk], game.pk),
    ]
