"""The worker's after-effects of a move in a handful of statements (issue 16), telling what it always told.

The effects task is run here by hand, as the worker takes it, with a broker and no worker: what it sends (the
emails, each in its own task) stays in the broker's queue for the test to read.  Its statements are counted on the
real database; a count that grew with the seats would mean a read or a write per person.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import user_create
from config.celery import app
from games import tasks
from games.models import Event, Game, GameEffects
from games.notifications.models import Notification, NotificationDelivery
from tests.notifications.tables import decide, dispatches_sent, kinds_of, play_turn, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)

# The most statements one task may make (BEGIN and COMMIT included), whatever the seats: the start tells everyone,
# a decision that passes the turn tells one person, one inside a turn tells nobody (only the feed's move event).
MOST = {"start": 15, "turn passes": 15, "inside a turn": 9, "nothing new": 4}
EMAIL_TASK = "games.notifications.tasks.notification_email_send"


@pytest.fixture
def by_hand(celery_eager, settings, sent_tasks):
    """A broker is there but no worker: moves send their effects task, which the test runs itself."""
    app.conf.task_always_eager = False
    return sent_tasks


def effects_run(game: Game) -> list[str]:
    """The effects task of the table, as a worker runs it; the statements it made."""
    with CaptureQueriesContext(connection) as queries:
        tasks.game_effects.run(game.pk)
    return [q["sql"] for q in queries.captured_queries]


def people(n: int) -> list:
    return [
        user_create(username=f"p{n}{i}", email=f"p{n}{i}@example.com", password="a-long-test-password")
        for i in range(n)
    ]


def test_a_table_of_four_costs_the_worker_no_more_statements_than_a_table_of_two(owner, by_hand):
    counts = {}
    for seats in (2, 4):
        others = people(seats - 1)
        game = toppo_table(owner, *others)  # by correspondence every seat decides at once (rulings P3, P4)
        start = effects_run(game)
        for user in others:  # each was told of the start and of her turn once, and gets each by email once
            assert kinds_of(user) == ["started", "your_turn"]
            assert NotificationDelivery.objects.filter(recipient=user, channel="email").count() == 2
        assert kinds_of(owner) == []  # she pressed start and sees the board
        game = decide(game, owner)  # her claim: the others are still in the turn they were told of
        claim = effects_run(game)
        assert [kinds_of(user) for user in others] == [["started", "your_turn"]] * len(others)
        again = effects_run(game)
        counts[seats] = (len(start), len(claim), len(again))
        emails = [args for name, args, _ in by_hand() if name == EMAIL_TASK]
        deliveries = NotificationDelivery.objects.filter(notification__game=game, channel="email")
        assert sorted(a[0] for a in emails[-len(others) * 2 :]) == sorted(deliveries.values_list("pk", flat=True))
    assert counts[2] == counts[4]
    start, claim, again = counts[4]
    assert start <= MOST["start"] and claim <= MOST["turn passes"] and again <= MOST["nothing new"]


def test_a_decision_inside_a_turn_touches_no_notification(owner, member, by_hand):
    """A decision inside her turn sends no dispatch (ruling S3, games.services.effects), but a dispatch sent before
    it may run after it (one taken late): reading her turn in progress, it tells nobody of a turn."""
    game = topology_table(owner, member)  # three placements, then end_turn (ruling L5)
    effects_run(game)
    game = decide(game, owner)
    assert game.to_act == [0]
    statements = effects_run(game)  # as a dispatch taken late would
    assert len(statements) <= MOST["inside a turn"]
    assert not [sql for sql in statements if "games_notification" in sql]
    assert kinds_of(member) == ["started"] and kinds_of(owner) == []
    for user in (owner, member):  # the feed still says the table moved on, to both
        assert Event.objects.filter(user=user, kind="move", key=f"move:{game.pk}:v{game.version}").count() == 1
    while game.to_act == [0]:  # the rest of her turn, to her end_turn
        game = decide(game, owner)
    statements = effects_run(game)  # her end_turn: now the member is told, in as few
    assert len(statements) <= MOST["turn passes"]
    assert kinds_of(member) == ["started", "your_turn"]
    assert Notification.objects.get(recipient=member, kind="your_turn").key == f"turn:{game.pk}:1:v{game.version}"


def test_a_dispatch_with_nothing_new_only_reads_the_table_and_clears_its_mark(owner, member, by_hand):
    game = topology_table(owner, member)
    effects_run(game)
    GameEffects.objects.filter(game=game).update(queued_at=None)
    assert len(effects_run(game)) <= 4  # BEGIN, the table, the cursor, COMMIT
    before = len(by_hand())
    game = play_turn(game, owner)  # her confirmation marks the game's task as queued and sends it
    assert GameEffects.objects.get(game=game).queued_at is not None
    assert [name for name, _, _ in by_hand()[before:]] == ["games.tasks.game_effects"]
    effects_run(game)
    assert GameEffects.objects.get(game=game).queued_at is None  # cleared by the dispatch, in its transaction
    play_turn(game, member)  # so the next change sends a task of its own
    assert dispatches_sent(by_hand()[before:]) == 2
