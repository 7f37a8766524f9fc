"""Decision 13: the log keeps the engine's entries as data, not English sentences.

The stored games are re-run from their seed and log (ruling G0.2), and each action's entry is
taken from the engine as it is applied: the faithful way to get the data the words were made from.
A game that no longer re-runs (none should) keeps a bare entry per action: who played which type.
"""
from django.db import migrations, models


def entries_from_replays(apps, schema_editor):
    from engine.core import get_game
    from engine.ranking import is_leave

    Game = apps.get_model("games", "Game")
    Action = apps.get_model("games", "Action")
    for game in Game.objects.filter(state__isnull=False).iterator():
        rows = list(Action.objects.filter(game=game).order_by("seq"))
        if not rows:
            continue
        try:
            state = get_game(game.kind).new_state(game.players, game.options, game.seed)
        except Exception:
            state = None
        for row in rows:
            if is_leave(row.action):
                row.entry = []
                continue
            entry = None
            if state is not None:
                try:
                    before = state.clone()
                    state.apply(row.seat, row.action)
                    entry = state.describe(row.seat, row.action, before)
                except Exception:
                    state = None  # the rest of this game cannot be re-run faithfully
            if not isinstance(entry, list):
                entry = [{"code": "action", "seat": row.seat, "type": str(row.action.get("type", "action"))}]
            row.entry = entry
        Action.objects.bulk_update(rows, ["entry"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_alter_notification_kind'),
    ]

    operations = [
        migrations.AddField(
            model_name='action',
            name='entry',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(entries_from_replays, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='action',
            name='description',
        ),
    ]
