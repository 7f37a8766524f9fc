"""Events written while the model lived in games are read through the feed's model after the move (state only: the
table games_event keeps its name, its rows, its index and its constraint)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0026_alter_action_source_paceprofile"), ("feed", None)]
AFTER = [("games", "0028_event_moved_to_feed"), ("feed", "0001_event_from_games")]


def _migrate(targets):
    """Migrate games and feed to `targets` (the other apps stay at their newest); the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in ("games", "feed")]
    return executor.loader.project_state(others + [t for t in targets if t[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_events_written_under_games_are_read_through_the_feed_after_the_move():
    old = _migrate(BEFORE)
    try:
        assert not any(model._meta.app_label == "feed" for model in old.get_models())
        User, Game, OldEvent = (old.get_model(name) for name in ("accounts.User", "games.Game", "games.Event"))
        owner = User.objects.create(username="ann", email="ann@example.com")
        table = Game.objects.create(kind="toppo", players=2, turn_seconds=86400, created_by=owner)
        written = [
            OldEvent.objects.create(user=owner, kind="move", key=f"move:{table.pk}:v{v}", game=table, data={"v": v})
            for v in (1, 2)
        ] + [OldEvent.objects.create(user=owner, kind="invited", key="invited:0", data={"by": "bob"})]

        new = _migrate(AFTER)
        assert "Event" not in {m.__name__ for m in new.get_app_config("games").get_models()}
        from feed.models import Event

        rows = list(Event.objects.filter(user_id=owner.pk).order_by("id"))
        assert [(e.pk, e.kind, e.key, e.game_id, e.data) for e in rows] == [
            (e.pk, e.kind, e.key, e.game_id, e.data) for e in written
        ]
        assert Event._meta.db_table == "games_event" and rows[0].game.pk == table.pk
        with pytest.raises(IntegrityError), transaction.atomic():  # the constraint is the table's still
            Event.objects.create(user_id=owner.pk, kind="move", key=written[0].key)
        # The cursor carries on from the rows written before the move.
        later = Event.objects.create(user_id=owner.pk, kind="move", key=f"move:{table.pk}:v3", game_id=table.pk)
        assert later.pk > written[-1].pk
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
