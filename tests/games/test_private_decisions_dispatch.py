"""A decision private to its player sends no effects dispatch (ruling S3, amended; decision 16): her confirmation's
dispatch tells the others, once, all the turn did.  Tables whose every decision is public (Toppo, live or by
correspondence) still dispatch on each, and a bot whose turn is several private decisions still plays it through.

The effects task is run here by hand, as the worker takes it, with a broker and no worker: what the moves send
stays in the broker's queue for the test to read.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.celery import app
from feed.announce import table_channel
from feed.models import Event
from games import services, tasks
from games.models import Action, Game, GameEffects
from games.selectors.sweeps import games_behind
from tests.games.tables import dealt_with, decide, kinds_of, play_turn, seed_for, topology_table, toppo_table
from tests.integration.workers import TEST_REDIS_URL, redis_problem

pytestmark = pytest.mark.django_db(transaction=True)

DISPATCH = "games.tasks.game_effects"


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


@pytest.fixture
def by_hand(celery_eager, sent_tasks):
    """A broker is there but no worker: moves send their tasks, which the test reads or runs itself."""
    app.conf.task_always_eager = False
    return sent_tasks


def undo(game: Game, user) -> Game:
    services.action_submit(game_id=game.pk, user=user, action={"type": "undo"}, expected_version=game.version)
    return Game.objects.get(pk=game.pk)


def cursor(game: Game) -> tuple:
    return GameEffects.objects.filter(game=game).values_list("version", "status", "queued_at").get()


def visibility(game: Game) -> list[str]:
    return list(Action.objects.filter(game=game).order_by("seq").values_list("visibility", flat=True))


def events(user, game: Game) -> list[tuple[str, str]]:
    return list(Event.objects.filter(user=user, game=game).order_by("id").values_list("kind", "key"))


def behind(game: Game) -> bool:
    """Would the beat's sweep send the game's dispatch again, once its last change has settled?"""
    return game.pk in games_behind(now=timezone.now() + timedelta(minutes=1))


def test_a_decision_inside_her_turn_and_its_taking_back_send_nothing_and_mark_nothing(owner, member, by_hand):
    game = topology_table(owner, member)  # two players: three placements, then end_turn (ruling L5)
    tasks.game_effects.run(game.pk)  # the start's dispatch
    told, before = cursor(game), len(by_hand())
    assert told[2] is None
    game = decide(game, owner)
    game = undo(game, owner)  # takes the placement back
    game = decide(game, owner)
    assert visibility(game) == ["withdrawn", "withdrawn", "private"]
    assert game.to_act == [0] and game.version == 3
    assert by_hand()[before:] == []  # no task of any kind
    assert cursor(game) == told  # and no mark
    assert not behind(game)  # nor would the sweep send one for them
    assert [kind for kind, _ in events(member, game)] == ["started"]


def test_her_confirmation_sends_one_dispatch_which_tells_the_others_once(owner, member, by_hand):
    game = topology_table(owner, member)
    tasks.game_effects.run(game.pk)
    before = len(by_hand())
    game = play_turn(game, owner)  # three placements, then end_turn
    assert game.to_act == [1] and game.version == 4
    assert [name for name, _, _ in by_hand()[before:]] == [DISPATCH]
    assert visibility(game) == ["public"] * 4  # the confirmation made her turn public
    assert behind(game)  # until it has run, the sweep would send it again
    assert tasks.game_effects.run(game.pk)
    assert events(member, game) == [
        ("started", f"started:{game.pk}"),
        ("move", f"move:{game.pk}:v4"),
        ("your_turn", f"turn:{game.pk}:1:v4"),
    ]
    assert events(owner, game) == [
        ("started", f"started:{game.pk}"),
        ("your_turn", f"turn:{game.pk}:0:v0"),
        ("move", f"move:{game.pk}:v4"),
    ]
    assert kinds_of(member) == ["started", "your_turn"]
    assert cursor(game)[:2] == (4, "running") and not behind(game)
    assert not tasks.game_effects.run(game.pk)  # run again: nothing new, nobody told twice
    assert Event.objects.filter(game=game).count() == 6


def test_a_dispatch_that_comes_in_the_middle_of_her_turn_leaves_the_rest_to_her_confirmation(owner, member, by_hand):
    """The start's dispatch, run late, reads her first decision with the table: the cursor moves past it, and her
    confirmation tells from there."""
    game = topology_table(owner, member)
    game = decide(game, owner)
    tasks.game_effects.run(game.pk)  # the start's, late
    assert cursor(game)[0] == 1
    game = undo(game, owner)  # taking back what that dispatch read: still nobody else's business
    assert cursor(game)[0] == 1 and not behind(game)
    before = len(by_hand())
    game = play_turn(game, owner)
    assert [name for name, _, _ in by_hand()[before:]] == [DISPATCH]
    tasks.game_effects.run(game.pk)
    assert [key for _, key in events(member, game)] == [
        f"started:{game.pk}",
        f"move:{game.pk}:v1",
        f"move:{game.pk}:v{game.version}",
        f"turn:{game.pk}:1:v{game.version}",
    ]


@pytest.mark.parametrize("pace", ["correspondence", "live"])
def test_every_toppo_decision_is_public_and_told_when_it_is_news(owner, member, by_hand, pace):
    """Toppo keeps no turn unconfirmed: every decision is public, at a live table and in a correspondence round.
    Each live decision sends its dispatch; by correspondence, a sealed claim while the rival is still to claim tells
    nobody anything new (decision 28): no dispatch, no "move" event, the cursor passed over it in the move; the
    claim that resolves the round is dispatched and told to both."""
    game = toppo_table(owner, member, hands=20, pace=pace, turn_seconds=60 if pace == "live" else None)
    tasks.game_effects.run(game.pk)
    for n in range(4):
        before, round_began = len(by_hand()), game.turn_version
        user = owner if n % 2 == 0 else member
        if game.seats.get(user=user).index not in game.to_act:
            user = member if user == owner else owner
        game = decide(game, user)
        assert visibility(game)[-1] == "public"
        moves = Event.objects.filter(kind="move", key=f"move:{game.pk}:v{game.version}")
        if pace == "correspondence" and game.turn_version == round_began:
            assert by_hand()[before:] == [] and cursor(game)[0] == game.version and not behind(game), n
            assert not tasks.game_effects.run(game.pk) and not moves.exists()
            continue
        assert [name for name, _, _ in by_hand()[before:]] == [DISPATCH], n
        assert tasks.game_effects.run(game.pk)
        assert moves.count() == 2


def test_a_bot_whose_turn_is_several_private_decisions_plays_it_through(owner):
    """By correspondence the bot plays its whole turn in one task and one transaction: its confirmation's dispatch
    tells the owner, whose turn it is, and her own private decisions ask no bot.  (Tasks run inline here.)"""
    game = topology_table(owner, bots=["greedy"], start=False)
    with dealt_with(seed_for("topology", 2, game.options, first=1)):  # the bot starts
        services.game_start(user=owner, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.to_act == [0]
    rows = list(Action.objects.filter(game=game).order_by("seq").values_list("seat", "action__type", "visibility"))
    assert rows == [(1, "place", "public")] * 3 + [(1, "end_turn", "public")]
    assert [key for _, key in events(owner, game)] == [
        f"started:{game.pk}",
        f"move:{game.pk}:v4",
        f"turn:{game.pk}:0:v4",
    ]
    game = decide(game, owner)  # a private decision of hers: the bot has nothing to do
    assert game.version == 5 and game.to_act == [0]
    game = play_turn(game, owner)  # her end_turn, then the bot's whole turn after it
    game = Game.objects.get(pk=game.pk)
    assert game.to_act == [0]
    hers = Action.objects.filter(game=game, seat=0).latest("seq").seq
    assert list(Action.objects.filter(game=game, seq__gt=hers).values_list("seat", "action__type")) == [
        (1, "place"),
        (1, "place"),
        (1, "place"),
        (1, "end_turn"),
    ]


@pytest.mark.redis
def test_with_redis_a_private_decision_nudges_the_tables_streams_itself(owner, member, by_hand, settings):
    """Her own other pages follow the table's stream, which with Redis waits for a nudge: the move sends it."""
    problem = redis_problem(TEST_REDIS_URL)
    if problem:
        pytest.skip(problem)
    import redis

    settings.REDIS_URL = TEST_REDIS_URL
    game = topology_table(owner, member)
    tasks.game_effects.run(game.pk)
    client = redis.Redis.from_url(TEST_REDIS_URL)
    listening = client.pubsub()
    listening.subscribe(table_channel(game.pk))
    assert listening.get_message(timeout=1)["type"] == "subscribe"
    before = len(by_hand())
    try:
        game = decide(game, owner)
        message = listening.get_message(timeout=2)
        assert message is not None and message["type"] == "message"
        assert message["channel"].decode() == table_channel(game.pk)
        assert DISPATCH not in [name for name, _, _ in by_hand()[before:]]
    finally:
        listening.close()
        client.close()
