"""The worker's after-effects of a move in a handful of statements (decision 16), telling what it always told.

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
from feed.models import Event
from games import tasks
from games.models import Game, GameEffects, Seat
from notifications.models import Notification, NotificationDelivery
from tests.games.tables import decide, dispatches_sent, kinds_of, play_turn, seat_of, topology_table, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)

# The most statements one task may make (BEGIN and COMMIT included), whatever the seats: the start tells everyone,
# a decision that passes the turn tells one person, one inside a turn tells nobody (only the feed's move event).
# Decision 29: a turn told reads the position once, for its label (forced, quick or deep; games.selectors.turn_labels).
MOST = {"start": 16, "turn passes": 16, "inside a turn": 9, "nothing new": 4}
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
        # she moves first: told like anyone (ruling S6)
        assert list(Notification.objects.filter(recipient=owner, game=game).values_list("kind", flat=True)) == [
            "your_turn"
        ]
        game = decide(game, owner)  # her claim: the others are still in the turn they were told of
        claim = effects_run(game)
        assert [kinds_of(user) for user in others] == [["started", "your_turn"]] * len(others)
        again = effects_run(game)
        counts[seats] = (len(start), len(claim), len(again))
        emails = [args for name, args, _ in by_hand() if name == EMAIL_TASK]
        deliveries = NotificationDelivery.objects.filter(notification__game=game, channel="email")
        # and the owner's first turn: this dispatch ran after she had left the page (ruling S6)
        assert sorted(a[0] for a in emails[-len(others) * 2 - 1 :]) == sorted(deliveries.values_list("pk", flat=True))
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
    assert kinds_of(member) == ["started"] and kinds_of(owner) == ["your_turn"]
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
    assert len(effects_run(game)) <= 4  # the table read ahead, BEGIN, the game's lock with its cursor, COMMIT
    before = len(by_hand())
    game = play_turn(game, owner)  # her confirmation marks the game's task as queued and sends it
    assert GameEffects.objects.get(game=game).queued_at is not None
    assert [name for name, _, _ in by_hand()[before:]] == ["games.tasks.game_effects"]
    effects_run(game)
    assert GameEffects.objects.get(game=game).queued_at is None  # cleared by the dispatch, in its transaction
    play_turn(game, member)  # so the next change sends a task of its own
    assert dispatches_sent(by_hand()[before:]) == 2


def test_a_sealed_claim_inside_a_round_tells_no_turn_and_the_next_round_tells_each_once(owner, member, by_hand):
    """Decision 16: a Toppo claim by correspondence is public (who claimed, not what), but the others are still in
    the round they were told of.  Decision 28: so it tells nobody anything new, and its move passes the effects
    cursor over it (no dispatch, no event; games.services.effects.sealed_decision_told); a dispatch that runs all
    the same (the sweep, a retried task) reads no notice and no position.  The round's end begins a new turn for
    everyone, told once."""
    third = people(1)[0]
    game = toppo_table(owner, member, third)
    effects_run(game)
    round_began = game.version
    game = decide(game, owner)  # her sealed claim: the member and the third still to claim in the same round
    assert sorted(game.to_act) == [1, 2] and Seat.objects.get(game=game, index=1).turn_began == round_began
    assert GameEffects.objects.get(game=game).version == game.version
    statements = effects_run(game)
    assert not [sql for sql in statements if "games_notification" in sql]  # neither read nor written
    assert not [sql for sql in statements if '"games_game"."state"' in sql]  # no position read for a label
    assert len(statements) <= MOST["inside a turn"]
    for user in (owner, member, third):
        assert not Event.objects.filter(user=user, key=f"move:{game.pk}:v{game.version}").exists()
        assert Event.objects.filter(user=user, kind="your_turn").count() == 1  # the first round's, from the start
    assert kinds_of(member) == kinds_of(third) == ["started", "your_turn"]
    game = decide(game, member)
    effects_run(game)
    assert kinds_of(third) == ["started", "your_turn"]
    game = decide(game, third)  # the last claim ends the round: a new one begins for everyone (ruling S1)
    assert game.is_running and sorted(game.to_act) == [0, 1, 2]
    effects_run(game)
    GameEffects.objects.filter(game=game).update(version=game.version - 1)  # run again (a retried task, the sweep)
    effects_run(game)
    for user in (owner, member, third):
        keys = list(Notification.objects.filter(recipient=user, kind="your_turn").values_list("key", flat=True))
        index = seat_of(game, user)
        assert f"turn:{game.pk}:{index}:v{game.version}" in keys and len(keys) == len(set(keys))
        events = Event.objects.filter(user=user, kind="your_turn", key=f"turn:{game.pk}:{index}:v{game.version}")
        assert events.count() == 1
