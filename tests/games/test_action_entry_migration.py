"""Migration 0015 (decision 13): stored games get their log entries back by re-running their logs."""

from __future__ import annotations

import importlib

from django.apps import apps

from engine.core import make_rng
from games import services
from games.models import Action
from games.selectors.positions import legal_actions_for
from tests.games.factories import seat_user, started_topology

migration = importlib.import_module("games.migrations.0018_action_entry")


def test_replaying_the_log_gives_back_the_entries_the_moves_wrote(owner, member):
    game = started_topology(owner, member)
    rng = make_rng("migration", 0)
    for _ in range(12):
        game.refresh_from_db()
        seat = game.to_act[0]
        action = rng.choice([a for a in legal_actions_for(game, seat) if a["type"] != "undo"])
        services.action_submit(
            game_id=game.pk, user=seat_user(game, seat), action=action, expected_version=game.version
        )
    written = list(Action.objects.filter(game=game).order_by("seq").values_list("entry", flat=True))
    Action.objects.filter(game=game).update(entry=[])  # as the rows were before the migration
    migration.entries_from_replays(apps, None)
    assert list(Action.objects.filter(game=game).order_by("seq").values_list("entry", flat=True)) == written
    assert all(entry and entry[0]["code"].startswith("topology.") for entry in written)
