"""A decision that tells nobody anything new sends no dispatch (decision 28, point 3): the first claims of a
correspondence Toppo round, sealed until the round resolves (ruling P4).  The cursor moves past them in the move's
own transaction, so the sweep does not pick the game up either; the claim that resolves the round is dispatched
and tells everything; a missed deadline in the middle of a round is still told (ruling S1).  Real moves on the real
database, the tasks read back from the broker's own files."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from feed.models import Event
from games import services, tasks
from games.models import Game, GameEffects, Seat
from games.selectors.sweeps import games_behind
from notifications.models import Notification
from tests.games.tables import decide, dispatches_sent, seat_of, toppo_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(django_capture_on_commit_callbacks):
    """`user` claims, and what her move's commit sets off runs (the test's own transaction never commits)."""

    def made(game: Game, user) -> Game:
        with django_capture_on_commit_callbacks(execute=True):
            return decide(game, user)

    return made


def _round_table(owner, member) -> Game:
    """A two-player Toppo table by correspondence, its start told (as the worker does), both to claim."""
    game = toppo_table(owner, member, hands=20)
    tasks.game_effects.run(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert sorted(game.to_act) == [0, 1]
    return game


def _behind() -> list[int]:
    return games_behind(now=timezone.now() + timedelta(minutes=5))


def test_the_first_claim_of_a_round_sends_no_dispatch_and_the_last_one_tells_it_all(owner, member, sent_tasks, claim):
    game = _round_table(owner, member)
    round_began = game.turn_version

    game = claim(game, owner)
    assert game.turn_version == round_began and game.to_act == [seat_of(game, member)]  # her round goes on
    assert dispatches_sent(sent_tasks()) == 0
    assert GameEffects.objects.get(game=game).version == game.version  # passed over in the move's transaction
    assert game.pk not in _behind()
    assert not Event.objects.filter(key=f"move:{game.pk}:v{game.version}").exists()

    game = claim(game, member)  # the round resolves: a new round, a new turn for both (ruling P4)
    assert game.turn_version == game.version != round_began
    assert dispatches_sent(sent_tasks()) == 1
    assert game.pk in _behind()  # had the task been lost, the sweep would send it again
    tasks.game_effects.run(game.pk)
    assert GameEffects.objects.get(game=game).version == game.version
    moves = Event.objects.filter(kind=Event.Kind.MOVE, game_id=game.pk, key=f"move:{game.pk}:v{game.version}")
    assert sorted(moves.values_list("user_id", flat=True)) == sorted([owner.pk, member.pk])
    turns = Event.objects.filter(kind=Event.Kind.YOUR_TURN, game_id=game.pk, key__endswith=f":v{game.version}")
    assert sorted(turns.values_list("user_id", flat=True)) == sorted([owner.pk, member.pk])


def test_a_claim_while_a_dispatch_is_due_leaves_the_cursor_to_it(owner, member, sent_tasks, claim):
    game = toppo_table(owner, member, hands=20)  # its start not told yet: its dispatch is due
    game = claim(game, owner)
    assert dispatches_sent(sent_tasks()) == 1
    assert GameEffects.objects.get(game=game).version < game.version
    tasks.game_effects.run(game.pk)
    assert GameEffects.objects.get(game=game).version == game.version
    assert Notification.objects.filter(recipient=member, game=game).exists()  # the start, and her round


def test_a_deadline_missed_in_the_middle_of_a_round_is_dispatched_and_told(
    owner, member, sent_tasks, django_capture_on_commit_callbacks
):
    game = _round_table(owner, member)
    seat = seat_of(game, member)
    Seat.objects.filter(game=game, index=seat).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        missed = services.deadline_expire(game_id=game.pk, seat=seat, version=game.version)
    assert missed is not None and missed.source == "timeout"
    game = Game.objects.get(pk=game.pk)
    assert game.to_act == [seat_of(game, owner)]  # the bot renewed for her; the owner's claim is still to come
    assert dispatches_sent(sent_tasks()) >= 1
    assert GameEffects.objects.get(game=game).version < game.version
    tasks.game_effects.run(game.pk)
    assert Seat.objects.get(game=game, index=seat).missed_deadlines == 1
    assert Notification.objects.filter(recipient=member, game=game, kind="bot_played").exists()
