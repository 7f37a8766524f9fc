"""A move's rows read and written in plain SQL are the ORM's (decision 28, games.services.move_rows): the same game,
creator, seats, players, ratings, vacations and spectators as the querysets give, and the same writes (a move's log line
and game row in one statement on PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Action, Game, Seat, Spectator
from games.selectors import prefetch_seats_with_standing
from games.selectors.spectating import spectator_count
from games.services.move_rows import (
    locked_game_with_seats,
    row_insert,
    row_insert_and_update,
    row_instance,
    row_update,
    seats_clock_update,
    select_columns,
)
from games.services.vacation import vacation_start
from ratings.selectors import seat_ratings
from tests.ratings.helpers import played, table_of

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_locked_read_is_the_orms_read(owner, member, outsider):
    played([owner, member])  # both rated in Topology's key
    game = table_of([owner, member])
    vacation_start(user=member, days=7)
    Spectator.objects.create(game=game, viewer="v-outsider", user=outsider, seen_at=timezone.now())
    Spectator.objects.create(game=game, viewer="v-member", user=member, seen_at=timezone.now())  # seated: not counted
    now = timezone.now()
    with transaction.atomic():
        fast = locked_game_with_seats(game.pk, now)
    slow = Game.objects.select_related("created_by").get(pk=game.pk)
    prefetch_seats_with_standing(slow, now=now)
    assert _fields(fast) == _fields(slow) and _fields(fast.created_by) == _fields(slow.created_by)
    assert [_fields(s) for s in fast.seats.all()] == [_fields(s) for s in slow.seats.all()]
    assert [_fields(s.user) for s in fast.seats.all()] == [_fields(s.user) for s in slow.seats.all()]
    assert all(s.game is fast for s in fast.seats.all())
    assert fast._away_until == slow._away_until and member.pk in fast._away_until
    assert seat_ratings(fast) == seat_ratings(slow)
    assert spectator_count(fast) == 1 == spectator_count(slow)
    assert fast.seats.filter(index=0).get().pk == slow.seats.get(index=0).pk  # a filter still asks the database
    assert locked_game_with_seats(10**9, now) is None


def test_the_plain_writes_write_what_the_orm_would(owner, member):
    game = table_of([owner, member])
    seats = list(game.seats.order_by("index"))
    later = timezone.now() + timedelta(hours=3)
    seats[0].deadline, seats[0].turn_began, seats[1].deadline = later, 7, None
    seats_clock_update(seats, ["deadline", "turn_began"])
    stored = list(Seat.objects.filter(game=game).order_by("index"))
    assert (stored[0].deadline, stored[0].turn_began, stored[1].deadline) == (later, 7, None)
    action = Action(game=game, seq=game.version + 1, seat=0, user=owner, source="player", action={"type": "x"})
    action.entry, action.visibility = [{"code": "x"}], Action.Visibility.PUBLIC
    row_insert(action)
    assert _fields(Action.objects.get(pk=action.pk)) == _fields(action)
    game.version, game.turn_marker = game.version + 1, "m"
    row_update(game, ["version", "turn_marker", "updated_at"])
    again = Game.objects.get(pk=game.pk)
    assert (again.version, again.turn_marker, again.updated_at) == (game.version, "m", game.updated_at)


def test_the_log_line_and_the_game_row_are_written_together(owner, member):
    """One statement on PostgreSQL (a write in a WITH clause), two on SQLite: the same rows either way; a game row
    that is gone fails the write, so its line is not kept alone."""
    game = table_of([owner, member])
    action = Action(game=game, seq=game.version + 1, seat=1, user=member, source="player", action={"type": "y"})
    action.entry, action.visibility = [{"code": "y"}], Action.Visibility.PRIVATE
    game.version, game.turn_marker = game.version + 1, "n"
    with CaptureQueriesContext(connection) as queries:
        row_insert_and_update(action, game, ["version", "turn_marker", "updated_at"])
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    assert _fields(Action.objects.get(pk=action.pk)) == _fields(action)
    again = Game.objects.get(pk=game.pk)
    assert (again.version, again.turn_marker, again.updated_at) == (game.version, "n", game.updated_at)
    gone = Game(pk=10**9, version=1)
    lost = Action(game=game, seq=game.version + 1, seat=0, user=owner, source="player", action={"type": "z"})
    lost.entry, lost.visibility = [], Action.Visibility.PUBLIC
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        row_insert_and_update(lost, gone, ["version"])
    assert not Action.objects.filter(game=game, seq=game.version + 1).exists()


def test_an_instance_made_from_a_row_is_the_one_from_db_makes(owner, member):
    """Made without Model.__init__ (decision 28): the same values, state and deferred fields as from_db's, and a
    field left out is read when asked for, as .defer() leaves it."""
    game = table_of([owner, member])
    left_out = ("state", "options")
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT {select_columns(Game, "g", left_out)} FROM "games_game" g WHERE g."id" = %s', [game.pk])
        row = cursor.fetchone()
    made = row_instance(Game, row, left_out)
    orm = Game.objects.defer(*left_out).get(pk=game.pk)
    assert made.get_deferred_fields() == orm.get_deferred_fields() == {"state", "options"}
    assert (made._state.adding, made._state.db) == (orm._state.adding, orm._state.db) == (False, "default")
    assert {k: v for k, v in _fields(made).items() if k not in left_out} == {
        k: v for k, v in _fields(orm).items() if k not in left_out
    }
    assert made.options == Game.objects.get(pk=game.pk).options  # read when asked for
    assert made.created_by.pk == owner.pk and made == orm
