"""A turn's email waits out its grace in a real worker (ruling S6): the countdown on the embedded default's
filesystem broker and on Redis, the check when it is due, and the email itself (the console mailer's, which
the worker prints where TOPOS_EMAIL_CONSOLE_FD says: tests/integration/workers.py).
The grace is a few seconds here; nothing below asserts how long anything took.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from config.celery import app
from games.models import Seat
from notifications.models import NotificationDelivery
from tests.games.tables import play_turn, topology_table
from tests.integration.workers import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
GRACE = 4


@pytest.fixture
def short_grace(settings):
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = GRACE  # this process's pages write presence as the worker expects


@pytest.fixture
def embedded_mail_worker(transactional_db, tmp_path, sent_tasks, short_grace):
    """`celery worker -B` on the filesystem broker (the embedded default), with a short grace."""
    from tests.conftest import TEST_BROKER

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # the worker runs the tasks, whatever a test before left set
    worker = Worker("mail", tmp_path / "mail.log", broker_dir=TEST_BROKER, TOPOS_TURN_MAIL_GRACE_SECONDS=GRACE)
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()
        app.conf.task_always_eager = eager


def her_turn_delivery(user, game):
    return wait_for(
        lambda: (
            NotificationDelivery.objects.filter(recipient=user, notification__game=game, key__startswith="turn:")
            .order_by("-pk")
            .first()
        ),
        60,
        "the worker to tell her turn",
    )


def mails_to(worker: Worker, user) -> int:
    """How many "your turn" emails the worker's console mailer wrote to her."""
    return sum(
        1 for email in worker.emails() if email.subject.startswith("[Topos] Your turn") and email.to == [user.email]
    )


def she_left_just_before_and_is_mailed_once(worker: Worker, owner, member) -> None:
    game = topology_table(owner, member)
    page = Client()
    page.force_login(member)
    assert page.get(f"/tables/{game.pk}/").status_code == 200
    seen = Seat.objects.get(game=game, user=member).seen_at
    Seat.objects.filter(game=game, user=member).update(seen_at=seen - timedelta(seconds=10))
    play_turn(game, owner)  # she closed the page 10 s before this move
    delivery = her_turn_delivery(member, game)
    assert delivery.not_before > delivery.created_at  # it waits out the grace ...
    wait_for(lambda: NotificationDelivery.objects.get(pk=delivery.pk).status == "sent", 60, "the turn's email")
    wait_for(lambda: mails_to(worker, member) >= 1, 10, "the email the worker printed")
    # ... and goes once: the beat's sweep, running meanwhile, sends nothing more.
    assert NotificationDelivery.objects.filter(recipient=member, key__startswith="turn:").count() == 1
    assert mails_to(worker, member) == 1


def she_looks_within_the_grace_and_is_not_mailed(worker: Worker, owner, member) -> None:
    game = topology_table(owner, member)
    play_turn(game, owner)
    delivery = her_turn_delivery(member, game)
    page = Client()
    page.force_login(member)
    assert page.get(f"/tables/{game.pk}/").status_code == 200  # she comes to the table within the grace
    wait_for(lambda: NotificationDelivery.objects.get(pk=delivery.pk).status == "seen", 60, "the email to be dropped")
    assert mails_to(worker, member) == 0


def test_on_the_embedded_default(embedded_mail_worker, owner, member, outsider):
    she_left_just_before_and_is_mailed_once(embedded_mail_worker, owner, member)
    she_looks_within_the_grace_and_is_not_mailed(embedded_mail_worker, owner, outsider)


def test_on_redis(start_worker, short_grace, owner, member, outsider):
    worker = start_worker("mail", TOPOS_TURN_MAIL_GRACE_SECONDS=GRACE)
    she_left_just_before_and_is_mailed_once(worker, owner, member)
    she_looks_within_the_grace_and_is_not_mailed(worker, owner, outsider)
