"""A committed move is never lost when the broker is briefly down: the beat sweep sends it later, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import tasks
from games.models import Action, Game, GameEffects
from games.selectors.sweeps import games_behind
from notifications.models import Notification, NotificationDelivery
from tests.games.tables import kinds_of, play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


@pytest.fixture
def broker_down():
    """Every task send fails the way kombu fails when Redis is unreachable, until `.undo()`."""

    def refuse(self, *args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    patch = pytest.MonkeyPatch()
    patch.setattr("celery.app.task.Task.apply_async", refuse)
    yield patch
    patch.undo()


def later(seconds=120):
    return timezone.now() + timedelta(seconds=seconds)


def test_a_move_committed_while_the_broker_is_down_is_told_by_the_sweep_once(owner, member, broker_down):
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # no error reaches the player: each of the turn's decisions is committed
    assert game.version == Action.objects.filter(game=game).count() == 4 and game.to_act == [1]
    assert Notification.objects.count() == 0 and mail.outbox == []
    assert games_behind(now=later()) == [game.pk]

    broker_down.undo()  # the broker is back
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
    assert tasks.effects_sweep()["games"] == 1
    assert kinds_of(member) == ["started", "your_turn"]
    assert len(mail.outbox) == 2
    assert GameEffects.objects.get(game=game).version == game.version
    # the next sweeps find nothing left to do
    assert tasks.effects_sweep() == {"games": 0, "emails": 0, "gave_up": 0, "bots": 0, "chat": 0}
    assert len(mail.outbox) == 2


def test_a_bot_move_lost_with_the_broker_is_played_by_the_sweep_once(owner, broker_down):
    game = topology_table(owner, bots=["random"])
    game = play_turn(game, owner)
    mine = game.version
    assert game.to_act == [1] and Action.objects.filter(game=game, source="bot").count() == 0

    broker_down.undo()
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    tasks.effects_sweep()
    game.refresh_from_db()
    # the bot's whole turn, once: three placements, then end_turn (ruling L5)
    bot = list(Action.objects.filter(game=game, source="bot").order_by("seq").values_list("seq", "action__type"))
    assert bot == [(mine + 1, "place"), (mine + 2, "place"), (mine + 3, "place"), (mine + 4, "end_turn")]
    assert game.to_act == [0] and game.version == mine + 4
    tasks.effects_sweep()
    assert Action.objects.filter(game=game, source="bot").count() == 4


def test_an_email_the_broker_did_not_take_is_sent_by_the_sweep_once(owner, member):
    sent = []

    def refuse_emails(self, args=None, kwargs=None, **options):
        if self.name.endswith("notification_email_send"):
            raise OperationalError("Connection refused.")
        sent.append(self.name)
        return self.apply(args, kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr("celery.app.task.Task.apply_async", refuse_emails)
    topology_table(owner, member)
    delivery = NotificationDelivery.objects.get(recipient=member)
    assert delivery.status == "pending" and mail.outbox == []
    assert tasks.effects_sweep()["emails"] == 0  # not overdue yet: the normal path may still be on its way
    NotificationDelivery.objects.filter(pk=delivery.pk).update(
        created_at=timezone.now() - timedelta(minutes=2), not_before=timezone.now() - timedelta(minutes=2)
    )
    patch.undo()
    assert tasks.effects_sweep()["emails"] == 1
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [member.email]
    assert NotificationDelivery.objects.get(pk=delivery.pk).status == "sent"
    assert tasks.effects_sweep()["emails"] == 0 and len(mail.outbox) == 1


def test_a_mail_server_failure_is_retried_and_a_send_cut_short_is_never_repeated(owner, member):
    def refuse(self, *args, **kwargs):
        raise ConnectionRefusedError("the mail server refused the connection")

    patch = pytest.MonkeyPatch()
    patch.setattr("django.core.mail.EmailMessage.send", refuse)
    topology_table(owner, member)
    patch.undo()
    delivery = NotificationDelivery.objects.get(recipient=member)
    assert delivery.status == "pending" and delivery.attempts == 1 and "refused" in delivery.error
    NotificationDelivery.objects.filter(pk=delivery.pk).update(
        created_at=timezone.now() - timedelta(minutes=2), not_before=timezone.now() - timedelta(minutes=2)
    )
    tasks.effects_sweep()
    assert NotificationDelivery.objects.get(pk=delivery.pk).status == "sent" and len(mail.outbox) == 1

    # a sender that died between claiming and finishing: given up after an hour, never sent twice
    NotificationDelivery.objects.filter(pk=delivery.pk).update(
        status="sending", claimed_at=timezone.now() - timedelta(hours=2)
    )
    assert tasks.effects_sweep()["gave_up"] == 1
    assert NotificationDelivery.objects.get(pk=delivery.pk).status == "failed" and len(mail.outbox) == 1
