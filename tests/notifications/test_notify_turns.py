"""'Your turn': named by the turn, one unread per table, no email if she looks within the grace, one email per visit
(ruling S6)."""

from __future__ import annotations

import types
from datetime import timedelta

import pytest
from django.core import mail
from django.db.models import F
from django.test import Client
from django.utils import timezone

from feed.presence import presence_record
from games import services, tasks
from games.models import Game, GameEffects, Seat
from games.services import moves
from notifications import tasks as notification_tasks
from notifications.events import game_effects_dispatch
from notifications.models import Notification, NotificationDelivery
from notifications.selectors import notifications_of_user
from notifications.services import notification_mark_read, notification_preferences_set
from tests.games.tables import dealt_with, play_turn, read_by_her, seed_for, time_comes, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


def turn_notes(user, game) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, game=game, kind="your_turn").order_by("pk"))


def turn_mails(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and m.subject.startswith("[Topos] Your turn")]


def versus_bot(owner) -> tuple:
    """The owner (seat 0, first to move) against a greedy bot: each of her turns is answered at once.

    She starts it from its page, so her first turn is told but not mailed (ruling S6), then leaves the page."""
    game = topology_table(owner, bots=["greedy"], start=False)
    at_the_board(owner, game)
    with dealt_with(seed_for("topology", 2)):
        game = services.game_start(user=owner, game_id=game.pk)
    seat = Seat.objects.get(game=game, user=owner)
    (first,) = turn_notes(owner, game)
    assert first.key == f"turn:{game.pk}:0:v0" and not first.deliveries.filter(status="sent").exists()
    time_passes(seat, minutes=10)
    return Game.objects.get(pk=game.pk), seat


def unread_turns(user, game) -> list[Notification]:
    """Her "your turn" notes there still unread: at most one (ruling S6); acting marks it read."""
    return [n for n in turn_notes(user, game) if n.read_at is None]


def at_the_board(user, game) -> Client:
    """She opens the table's page (ruling S6: that is what presence means)."""
    client = Client()
    client.force_login(user)
    assert client.get(f"/tables/{game.pk}/").status_code == 200
    return client


def time_passes(seat: Seat, minutes: int) -> None:
    """Move what the site remembers of her visits and mails into the past, as if `minutes` went by."""
    delta = timedelta(minutes=minutes)
    Seat.objects.filter(pk=seat.pk).update(seen_at=F("seen_at") - delta, turn_mailed_at=F("turn_mailed_at") - delta)


@pytest.fixture
def one_second(monkeypatch):
    """Every move happens at the same instant, so every turn's clock ends in the same second."""
    instant = timezone.now()
    monkeypatch.setattr(moves, "timezone", types.SimpleNamespace(now=lambda: instant))
    return instant


def test_two_turns_within_one_second_are_both_told(owner, one_second):
    game, seat = versus_bot(owner)
    deadlines, keys = set(), []
    for _ in range(6):
        game = play_turn(game, owner)  # the bot answers at once: her next turn begins
        seat.refresh_from_db()
        deadlines.add(seat.deadline)
        (note,) = unread_turns(owner, game)
        keys.append(note.key)  # her next move marks it read (ruling S6): the next turn is a new one
    assert len(deadlines) == 1  # six turns, one deadline second: the turn is not named by its clock
    assert len(set(keys)) == 6 and len(turn_notes(owner, game)) == 7  # and her first, at v0
    assert keys[-1] == f"turn:{game.pk}:0:v{seat.turn_began}"


def test_the_same_turn_dispatched_twice_is_told_once(owner):
    game, seat = versus_bot(owner)
    game = play_turn(game, owner)
    (note,) = unread_turns(owner, game)
    sent = len(mail.outbox)
    GameEffects.objects.filter(game=game).update(version=game.version - 1)  # a retried task, the sweep
    assert game_effects_dispatch(game_id=game.pk) is True
    assert unread_turns(owner, game) == [note] and len(turn_notes(owner, game)) == 2
    again = Notification.objects.get(pk=note.pk)
    assert (again.key, again.params, again.created_at, again.read_at) == (note.key, note.params, note.created_at, None)
    assert len(mail.outbox) == sent
    # one email for the turn she was away from (her first, started at the board, was seen there: never sent)
    assert NotificationDelivery.objects.filter(recipient=owner).exclude(status="seen").count() == 1


def test_a_later_turn_rewrites_the_unread_one_and_a_read_one_stays(owner, member):
    game, seat = versus_bot(owner)
    game = play_turn(game, owner)
    (first,) = unread_turns(owner, game)
    elsewhere = topology_table(member, owner)  # meanwhile she hears that another table started
    assert notifications_of_user(user=owner)[0].game_id == elsewhere.pk
    # A turn passes without a move of hers (a move would mark it read, ruling S6): the bot plays it at her deadline.
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 1
    (rewritten,) = unread_turns(owner, game)
    assert rewritten.pk == first.pk and rewritten.read_at is None
    assert rewritten.key != first.key and rewritten.created_at > first.created_at
    assert notifications_of_user(user=owner)[0].pk == first.pk  # back at the top of her list
    notification_mark_read(user=owner, notification_id=first.pk)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 1
    game = Game.objects.get(pk=game.pk)
    _, read, new = turn_notes(owner, game)
    assert read.pk == first.pk and read.key == rewritten.key and read.read_at is not None
    assert new.read_at is None and new.key == f"turn:{game.pk}:0:v{Seat.objects.get(pk=seat.pk).turn_began}"
    assert Notification.objects.filter(recipient=owner, game=game, kind="your_turn", read_at__isnull=True).count() == 1


@pytest.fixture
def grace(settings):
    """Ruling S6: a turn waits this long before it is mailed (inline tasks leave it pending; `time_comes` sends)."""
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 120
    return 120


def polls(client: Client, game) -> None:
    """Her open page asks the table again, as its poller does every few seconds."""
    assert client.get(f"/tables/{game.pk}/poll/", HTTP_HX_REQUEST="true").status_code in (200, 204)


def test_at_the_board_she_gets_the_note_but_no_email(owner, grace):
    game, seat = versus_bot(owner)
    page = at_the_board(owner, game)
    for _ in range(3):
        game = play_turn(game, owner)
        polls(page, game)  # the turn arrived while her page was open
    assert time_comes(grace + 1) == 0
    (note,) = unread_turns(owner, game)
    assert "It is your turn at Topology" in read_by_her(note)
    assert mail.outbox == []
    assert set(NotificationDelivery.objects.filter(recipient=owner).values_list("status", flat=True)) == {"seen"}


def test_a_table_is_mailed_once_until_she_visits_it_again(owner, grace):
    game, seat = versus_bot(owner)
    page = at_the_board(owner, game)
    game = play_turn(game, owner)
    polls(page, game)
    assert time_comes(grace + 1) == 0 and turn_mails(owner) == []  # she was looking
    time_passes(seat, minutes=10)  # she left the page
    game = play_turn(game, owner)
    assert turn_mails(owner) == []  # not yet: the grace
    assert time_comes(grace + 1) == 1
    (first,) = turn_mails(owner)
    assert f"https://topos.example/tables/{game.pk}/" in first.body
    for _ in range(2):  # she plays from elsewhere (the API): no visit, so no more emails about this table
        time_passes(seat, minutes=10)
        game = play_turn(game, owner)
        time_comes(grace + 1)
    assert len(turn_mails(owner)) == 1
    assert len(unread_turns(owner, game)) == 1  # the site's note kept up with every turn
    client = at_the_board(owner, game)  # she follows the mail back to the table
    polls(client, game)
    time_passes(seat, minutes=10)
    game = play_turn(game, owner)
    time_comes(grace + 1)
    assert len(turn_mails(owner)) == 2


def test_the_digest_follows_the_same_rule(owner, grace):
    notification_preferences_set(user=owner, choices={"your_turn": "digest"})
    game, seat = versus_bot(owner)
    page = at_the_board(owner, game)
    game = play_turn(game, owner)
    polls(page, game)
    assert notification_tasks.digests_send() == 0  # she was looking: nothing for her digest
    assert set(
        NotificationDelivery.objects.filter(recipient=owner, channel="digest").values_list("status", flat=True)
    ) == {"seen"}
    for _ in range(3):
        time_passes(seat, minutes=10)
        game = play_turn(game, owner)
    assert NotificationDelivery.objects.filter(recipient=owner, channel="digest", status="pending").count() == 1
    assert notification_tasks.digests_send() == 1
    (digest,) = mail.outbox
    (note,) = unread_turns(owner, game)
    assert read_by_her(note) in digest.body


def test_the_poller_writes_presence_at_most_every_half_minute_but_always_after_a_mail(owner, outsider, grace):
    game, seat = versus_bot(owner)
    now = timezone.now()

    def seen(user, seconds: int) -> bool:
        fresh = Game.objects.prefetch_related("seats").get(pk=game.pk)  # as the view loads it, per request
        return presence_record(game=fresh, user=user, now=now + timedelta(seconds=seconds))

    assert seen(owner, 0) is True
    assert seen(owner, 5) is False
    assert Seat.objects.get(pk=seat.pk).seen_at == now
    assert seen(owner, 31) is True
    Seat.objects.filter(pk=seat.pk).update(turn_mailed_at=now + timedelta(seconds=32))
    assert seen(owner, 33) is True  # the first visit after a mail always counts
    assert seen(outsider, 0) is False  # no seat, nothing to write


def test_the_presence_throttle_follows_the_grace(owner, settings):
    """A short grace writes presence more often, so that a page open throughout it is seen within it."""
    game, seat = versus_bot(owner)
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 8
    now = timezone.now()

    def seen(seconds: int) -> bool:
        fresh = Game.objects.prefetch_related("seats").get(pk=game.pk)
        return presence_record(game=fresh, user=owner, now=now + timedelta(seconds=seconds))

    assert seen(0) is True and seen(1) is False and seen(3) is True  # every 2 s (a quarter of the grace)


def test_a_finished_game_leaves_no_unread_turn(owner):
    game, seat = versus_bot(owner)
    while game.is_running:
        game = play_turn(game, owner)
    assert Notification.objects.filter(recipient=owner, game=game, kind="your_turn", read_at__isnull=True).count() == 0
    assert Notification.objects.filter(recipient=owner, game=game, kind="finished", read_at__isnull=True).count() == 1
