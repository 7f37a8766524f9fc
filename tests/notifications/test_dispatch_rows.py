"""The effects dispatch's rows read and written in plain SQL are the ORM's (decision 28, point 3): the table
(notifications.table_rows), the notices (notice_rows) and the inserts (games.services.move_rows.rows_insert); and a
turn's label read ahead of the
dispatch's transaction is told only at the version it was read at."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import Q

from feed.models import Event
from games.models import Game, GameEffects, Seat
from games.selectors.turn_labels import turn_label
from games.services.move_rows import rows_insert
from notifications import events, notice_rows, table_rows
from notifications.models import Notification
from tests.games.tables import decide, toppo_table

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    left_out = instance.get_deferred_fields()  # not read: asking for one would read it
    return {
        f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields if f.attname not in left_out
    }


def test_the_table_read_is_the_orms_read(owner, member):
    game = toppo_table(owner, member)
    events.game_effects_run(game.pk)  # its cursor made and moved
    fast, seats, cursor, in_a_tournament = table_rows.table_read(game.pk)
    slow = Game.objects.defer("state").get(pk=game.pk)
    assert fast.get_deferred_fields() == {"state"} and _fields(fast) == _fields(slow)
    assert _fields(cursor) == _fields(GameEffects.objects.get(game=game)) and fast.effects is cursor
    stored = list(Seat.objects.select_related("user").filter(game=game).order_by("index"))
    assert [_fields(s) for s in seats] == [_fields(s) for s in stored]
    assert [_fields(s.user) for s in seats] == [_fields(s.user) for s in stored]
    assert all(s.game is fast for s in seats) and in_a_tournament is False
    assert table_rows.table_read(10**9) == (None, [], None, False)
    assert table_rows.state_read(game.pk, game.version) == Game.objects.get(pk=game.pk).state
    assert table_rows.state_read(game.pk, game.version - 1) is None  # moved on since: no position


def test_the_notices_read_locked_are_the_orms(owner, member):
    game = toppo_table(owner, member)
    events.game_effects_run(game.pk)
    with transaction.atomic():
        fast = notice_rows.told_locked(
            keys={f"started:{game.pk}"}, recipient_ids={owner.pk, member.pk}, turns_of={owner.pk}, game_id=game.pk
        )
    told = Q(key=f"started:{game.pk}") | Q(recipient=owner, game=game, kind="your_turn", read_at__isnull=True)
    slow = Notification.objects.filter(told, recipient__in=[owner, member]).order_by("-created_at", "-pk")
    assert [_fields(n) for n in fast] == [_fields(n) for n in slow] and len(fast) == 2


def test_rows_insert_gives_keys_and_skips_what_is_there(owner, member):
    made = [Event(user=owner, kind="move", key="move:x:v1", data={"a": 1}), Event(user=member, kind="move", key="k")]
    assert rows_insert(made) == [(), ()]  # nothing asked back but the keys, set on each
    stored = {e.pk: e for e in Event.objects.filter(user__in=[owner, member])}
    assert sorted(stored) == sorted(e.pk for e in made)
    assert [_fields(stored[e.pk]) for e in made] == [_fields(e) for e in made]
    again = [Event(user=owner, kind="move", key="move:x:v1"), Event(user=owner, kind="move", key="move:x:v2")]
    written = rows_insert(again, skip_on=("user", "key"), returning=("user_id", "key"))
    assert written == [(owner.pk, "move:x:v2")]  # the one there kept, untouched
    assert Event.objects.get(user=owner, key="move:x:v1").data == {"a": 1}


def test_a_label_read_ahead_is_told_only_at_its_version(owner, member, monkeypatch):
    """A move between the read ahead and the dispatch's lock: the labels read ahead are of a position gone by, so
    the dispatch reads the position again under the lock and labels the turns it tells from that."""
    game = toppo_table(owner, member)
    events.game_effects_run(game.pk)
    game = decide(decide(game, owner), member)  # the round resolves: a new turn for both
    real = events._labels_ahead
    seen = {}

    def ahead_then_a_move(game_ahead, seats, cursor):
        labels = real(game_ahead, seats, cursor)
        seen["version"], seen["labels"] = game_ahead.version, labels
        decide(Game.objects.get(pk=game_ahead.pk), owner)  # her next claim commits before the dispatch locks
        return {index: "stale" for index in labels}

    monkeypatch.setattr(events, "_labels_ahead", ahead_then_a_move)
    events.game_effects_run(game.pk)
    assert seen["labels"] and seen["version"] == game.version
    now = Game.objects.get(pk=game.pk)
    assert now.version > game.version
    notes = Notification.objects.filter(game=game, kind="your_turn", read_at__isnull=True)
    assert notes.exists()
    for note in notes:
        seat = note.params["seat"]
        assert note.params["label"] != "stale"
        assert note.params["label"] == turn_label(now, seat)["label"]
