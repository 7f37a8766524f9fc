"""The feed becomes an app of its own: its Event model moves here from games.

State only: the table keeps its name (db_table games_event), its index and constraint theirs, so no row moves and
nothing is created; games/migrations/0027 takes the model out of games' state."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0026_alter_action_source_paceprofile'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='Event',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('your_turn', 'Your turn'), ('move', 'A move at one of your tables'), ('invited', 'Invited to a table'), ('started', 'A table you sit at started'), ('finished', 'A game is over'), ('chat', 'A chat message at one of your tables'), ('answered', 'An invitation of yours was accepted or declined'), ('vacation', "An opponent's vacation started or ended")], max_length=20)),
                    ('key', models.CharField(help_text="Names the event, e.g. 'move:12:v37'; once per person.", max_length=160)),
                    ('data', models.JSONField(default=dict)),
                    ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                    ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='events', to='games.game')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_event',
                    'ordering': ['id'],
                    'indexes': [models.Index(fields=['user', 'id'], name='event_feed')],
                    'constraints': [models.UniqueConstraint(fields=('user', 'key'), name='event_unique_per_user')],
                },
            ),
        ]),
    ]
