"""When a turn's email goes out (ruling S6): after the grace unless she looks at the table, once per table until
she visits it, and never inside her quiet hours (what falls in them is mailed at their end unless she saw it).

Tasks run inline here (the conftest), so a countdown does not wait: the email task finds it early and leaves the
row pending, and `time_comes` runs the beat sweep's part as it would later.  tests/integration/test_turn_mail_worker.py
does the same with a real worker and real countdowns.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.personal import zone
from games import tasks as games_tasks
from games.models import Seat
from notifications import services as notes
from notifications import tasks as notification_tasks
from notifications.models import NotificationDelivery, QuietHours
from notifications.quiet import quiet_until
from notifications.services import (
    notification_create,
    notification_preferences_set,
    quiet_hours_set,
)
from tests.games.tables import play_turn, time_comes, topology_table

pytestmark = pytest.mark.django_db(transaction=True)
GRACE = 120


@pytest.fixture(autouse=True)
def grace(settings):
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = GRACE  # ruling S6 (the conftest's inline tasks set none)


def turn_mails(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith("[Topos] Your turn")]


def turn_deliveries(user):
    return NotificationDelivery.objects.filter(recipient=user, notification__kind="your_turn", channel="email")


def looks(user, game) -> None:
    """She opens the table's page."""
    client = Client()
    client.force_login(user)
    assert client.get(f"/tables/{game.pk}/").status_code == 200


def clock(moment: datetime) -> str:
    return f"{timezone.localtime(moment, timezone.UTC):%H:%M}"


def test_a_turn_reaching_her_while_away_is_mailed_after_the_grace_once(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # now it is the member's turn; she is away
    (delivery,) = turn_deliveries(member)
    assert delivery.status == "pending"
    assert timedelta(seconds=GRACE - 1) < delivery.not_before - delivery.created_at <= timedelta(seconds=GRACE)
    assert turn_mails(member) == []  # the task came at once and found it early
    assert time_comes(GRACE / 2) == 0 and turn_mails(member) == []
    assert time_comes(GRACE + 1) == 1
    (letter,) = turn_mails(member)
    assert f"/tables/{game.pk}/" in letter.body
    assert time_comes(GRACE * 3) == 0 and len(turn_mails(member)) == 1
    assert turn_deliveries(member).get().status == "sent"


def test_she_looks_at_the_table_within_the_grace_and_no_email_goes(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    looks(member, game)  # within the grace
    assert time_comes(GRACE + 1) == 0 and turn_mails(member) == []
    assert turn_deliveries(member).get().status == "seen"


def test_a_later_turn_at_a_table_she_has_not_visited_since_its_mail_sends_nothing(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    assert time_comes(GRACE + 1) == 1
    for _ in range(2):  # she plays through the API, never opening the page; so does the owner
        game = play_turn(game, member)
        game = play_turn(game, owner)
        time_comes(GRACE + 1)
    assert len(turn_mails(member)) == 1 and turn_deliveries(member).count() == 1
    looks(member, game)  # she comes back: the next turn here is mailed again
    game = play_turn(game, member)
    game = play_turn(game, owner)
    assert time_comes(GRACE + 1) == 1 and len(turn_mails(member)) == 2


def test_leaving_the_page_just_before_the_turn_arrives_does_not_swallow_it(owner, member):
    game = topology_table(owner, member)
    looks(member, game)
    # She closed the table's page 10 seconds before the owner moved.
    Seat.objects.filter(game=game, user=member).update(seen_at=timezone.now() - timedelta(seconds=10))
    game = play_turn(game, owner)
    assert time_comes(GRACE + 1) == 1
    (letter,) = turn_mails(member)
    assert f"/tables/{game.pk}/" in letter.body


def test_a_turn_she_played_within_the_grace_is_not_mailed_and_her_next_one_is(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    game = play_turn(game, member)  # from the API, without opening the page: the turn is over
    time_comes(GRACE + 1)
    assert turn_mails(member) == [] and len(turn_mails(owner)) == 1  # hers is moot; the owner's turn now
    assert turn_deliveries(member).get().status == "seen"
    # No email went out about this table, so her next turn here is mailed (she is away now).
    game = play_turn(game, owner)
    assert time_comes(GRACE + 1) == 1 and len(turn_mails(member)) == 1


# --- quiet hours ------------------------------------------------------------------------------------


def quiet_now(user, *, ends_in: timedelta = timedelta(hours=1)) -> QuietHours:
    """Quiet hours around this moment in her zone (UTC), ending `ends_in` from now (to the minute)."""
    now = timezone.now()
    return quiet_hours_set(user=user, start=clock(now - timedelta(hours=1)), end=clock(now + ends_in))


def seconds_to(moment: datetime) -> float:
    return (moment - timezone.now()).total_seconds() + 1


def test_a_turn_inside_quiet_hours_is_mailed_when_they_end(owner, member):
    quiet_now(member)
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    assert delivery.not_before > delivery.created_at + timedelta(seconds=GRACE)  # the end of her quiet hours
    assert time_comes(GRACE + 1) == 0 and mail.outbox == []  # nothing at all, her "started" notice neither
    assert time_comes(seconds_to(delivery.not_before) - 60) == 0
    assert time_comes(seconds_to(delivery.not_before)) == 2 and len(turn_mails(member)) == 1
    assert f"/tables/{game.pk}/" in turn_mails(member)[0].body


def test_a_turn_inside_quiet_hours_that_she_saw_meanwhile_is_not_mailed(owner, member):
    quiet_now(member)
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    looks(member, game)  # in the night, she opened the table after all
    time_comes(seconds_to(delivery.not_before))
    assert turn_mails(member) == []
    assert turn_deliveries(member).get().status == "seen"


def test_every_kind_waits_for_the_end_of_quiet_hours_unless_read(owner, member):
    quiet_now(member)
    notification_create(recipient=member, kind="invited", key="note-1", text="An invitation")
    read = notification_create(recipient=member, kind="invited", key="note-2", text="Another")
    notes.notification_mark_read(user=member, notification_id=read.pk)
    (first, second) = NotificationDelivery.objects.filter(recipient=member).order_by("pk")
    assert mail.outbox == [] and first.not_before == second.not_before > timezone.now()
    assert time_comes(seconds_to(first.not_before)) == 1
    assert [m.to for m in mail.outbox] == [[member.email]] and "An invitation" in mail.outbox[0].body
    assert NotificationDelivery.objects.get(pk=second.pk).status == "seen"


def test_a_window_across_midnight(owner, member):
    # 22:00 to 07:00 in Taipei (UTC+8, no summer time): 14:00 to 23:00 UTC.
    utc = timezone.UTC
    hours = {"start": time(22), "end": time(7), "time_zone": "Asia/Taipei"}
    assert quiet_until(**hours, moment=datetime(2026, 3, 2, 13, 59, tzinfo=utc)) is None
    assert quiet_until(**hours, moment=datetime(2026, 3, 2, 15, 30, tzinfo=utc)) == datetime(2026, 3, 2, 23, tzinfo=utc)
    # After midnight in Taipei (17:30 UTC) it still ends at 07:00 that morning, not a day later.
    assert quiet_until(**hours, moment=datetime(2026, 3, 2, 17, 30, tzinfo=utc)) == datetime(2026, 3, 2, 23, tzinfo=utc)
    assert quiet_until(**hours, moment=datetime(2026, 3, 2, 23, 0, tzinfo=utc)) is None
    # 22:00 to 07:00 in a zone where it is now 23 o'clock: a turn now waits until 07:00 the next morning there.
    now = timezone.now()
    member.time_zone = zone_at_local_hour(23, now)
    member.save(update_fields=["time_zone"])
    quiet_hours_set(user=member, start="22:00", end="07:00")
    game = topology_table(owner, member)
    play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    assert delivery.not_before.astimezone(zone(member.time_zone)).time() == time(7)
    assert timedelta(hours=7) <= delivery.not_before - now <= timedelta(hours=8)
    assert time_comes(GRACE + 1) == 0
    assert time_comes(seconds_to(delivery.not_before)) == 2  # her "started" notice and her turn


def test_after_midnight_inside_a_window_across_it(owner, member):
    now = timezone.now()
    member.time_zone = zone_at_local_hour(3, now)
    member.save(update_fields=["time_zone"])
    quiet_hours_set(user=member, start="22:00", end="07:00")
    game = topology_table(owner, member)
    play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    assert timedelta(hours=3) <= delivery.not_before - now <= timedelta(hours=4)  # this morning, not tomorrow's


def zone_at_local_hour(hour: int, now: datetime) -> str:
    """A whole-hour zone (Etc/GMT-N is UTC+N) in which it is `hour` o'clock at `now`."""
    offset = (hour - now.astimezone(timezone.UTC).hour) % 24
    if offset > 14:
        offset -= 24
    return "Etc/GMT" + (f"{-offset:+d}" if offset else "")


def test_the_digest_waits_for_the_end_of_quiet_hours(owner, member):
    notification_preferences_set(user=member, choices={"your_turn": "digest", "started": "digest"})
    game = topology_table(owner, member)
    play_turn(game, owner)
    quiet_now(member)
    assert notification_tasks.digests_send() == 0 and mail.outbox == []
    held = NotificationDelivery.objects.filter(recipient=member, channel="digest")
    (end,) = set(held.values_list("not_before", flat=True))
    assert notes.digests_held_due() == [] and notes.digests_held_due(now=end) == [member.pk]
    assert notes.digest_send(user_id=member.pk, now=end) == 2  # the start and her turn, in one email
    (digest,) = mail.outbox
    assert digest.to == [member.email] and f"/tables/{game.pk}/" in digest.body


def test_quiet_hours_set_later_hold_an_email_already_waiting_and_clearing_them_frees_it(owner, member):
    game = topology_table(owner, member)
    play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    quiet_now(member)
    waiting = NotificationDelivery.objects.get(pk=delivery.pk)
    assert waiting.not_before > delivery.not_before
    assert time_comes(GRACE + 1) == 0
    quiet_hours_set(user=member, start="", end="")
    assert not QuietHours.objects.filter(user=member).exists()
    assert time_comes(GRACE + 1) == 1


@pytest.mark.parametrize(
    ("start", "end", "message"),
    [
        ("22:00", "", "Give both"),
        ("25:00", "07:00", "HH:MM"),
        ("ten", "07:00", "HH:MM"),
        ("07:00", "07:00", "different times"),
    ],
)
def test_bad_quiet_hours_are_refused_and_change_nothing(member, start, end, message):
    quiet_hours_set(user=member, start="22:00", end="07:00")
    with pytest.raises(notes.BadRequest) as refused:
        quiet_hours_set(user=member, start=start, end=end)
    assert message in refused.value.message
    kept = QuietHours.objects.get(user=member)
    assert (kept.start, kept.end) == (time(22), time(7))


def test_the_sweep_waits_for_not_before_and_sends_what_a_lost_countdown_left(owner, member):
    game = topology_table(owner, member)
    play_turn(game, owner)
    (delivery,) = turn_deliveries(member)
    # Even long after it was queued, nothing goes before its time ...
    NotificationDelivery.objects.filter(pk=delivery.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert delivery.pk not in notes.deliveries_overdue()
    assert games_tasks.effects_sweep()["emails"] == 0 and turn_mails(member) == []
    # ... and once it is due (its countdown message lost: the inline task ran early), the beat's sweep sends it.
    NotificationDelivery.objects.filter(pk=delivery.pk).update(not_before=timezone.now() - timedelta(minutes=2))
    assert games_tasks.effects_sweep()["emails"] == 1
    assert len(turn_mails(member)) == 1 and turn_deliveries(member).get().status == "sent"
    assert games_tasks.effects_sweep()["emails"] == 0
