"""Ruling G0.3 on the outbound channels (decision 29): no push and no webhook tells its reader anything the game hides.

The canary sweep of tests/notifications/test_notify_hidden.py, with both players also subscribed to push (a browser
each, at a local push service) and holding a webhook (a local receiver): every push, decrypted as her browser
would, and every webhook body is checked as the notifications and emails are, against the engine's markers planted
in every hidden place while the tasks that speak to people run, and against the real hidden information.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import tasks
from games.models import Game
from notifications.events import reminders_send
from notifications.models import Notification
from outbound import services
from tests.games.tables import open_table, play_turn
from tests.notifications.test_notify_hidden import CASES, Reader, held  # noqa: F401 (held: the fixture)
from tests.outbound.test_push import Browser

pytestmark = pytest.mark.django_db(transaction=True)
SPEAKING = ("games.notifications.tasks.notification_channel_send", "outbound.tasks.webhook_deliver")


class OutboundReader(Reader):
    """Reads the pushes and webhook bodies each seat received too."""

    def __init__(self, game: Game, receiver, browsers: dict[int, Browser]):
        super().__init__(game)
        self.receiver, self.browsers, self.seen_posts, self.outbound = receiver, browsers, 0, 0

    def new_texts(self):
        texts = super().new_texts()
        posts = self.receiver.received[self.seen_posts :]
        self.seen_posts = len(self.receiver.received)
        for post in posts:
            kind, seat = post.path.strip("/").split("/")
            body = self.browsers[int(seat)].open(post.body) if kind == "push" else json.loads(post.body)
            texts.append((int(seat), str(body)))
            self.outbound += 1
        return texts

    def around(self, task):
        return self.secrets_planted() if task.name in SPEAKING else super().around(task)


@pytest.mark.parametrize("kind,options", CASES)
def test_no_push_or_webhook_reveals_what_the_game_hides(kind, options, owner, member, held, receiver, local_allowed):  # noqa: F811
    browsers = {0: Browser(), 1: Browser()}
    for seat, user in ((0, owner), (1, member)):
        services.push_subscription_register(user=user, endpoint=f"{receiver.url}/push/{seat}", **browsers[seat].keys)
        services.webhook_create(user=user, url=f"{receiver.url}/hook/{seat}")
    game = open_table(kind, owner, member, options=options)
    reader = OutboundReader(game, receiver, browsers)
    users = {0: owner, 1: member}
    held.deliver(reader.around)
    decisions_before_the_miss = 12
    missed = False
    while game.is_running:  # as the notifications' sweep plays it: a reminder and a missed deadline on the way
        seat = game.to_act[0]
        if not missed and game.version >= decisions_before_the_miss:
            game.seats.filter(index=seat).update(deadline=timezone.now() + timedelta(minutes=30))
            with reader.secrets_planted():
                assert reminders_send() == 1
            held.deliver(reader.around)
            game.seats.filter(index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
            assert tasks.deadlines_sweep() == 1
            missed = True
        else:
            play_turn(game, users[seat])
        held.deliver(reader.around)
        game.refresh_from_db()
    assert reader.checked == Notification.objects.count() + len(mail.outbox) + reader.outbound
    assert {p.path.split("/")[1] for p in receiver.received} == {"push", "hook"}
    assert reader.hidden_words > 0
