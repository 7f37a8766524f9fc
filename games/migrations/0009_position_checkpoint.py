from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_game_seed_commitment'),
    ]

    operations = [
        migrations.CreateModel(
            name='PositionCheckpoint',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ply', models.PositiveIntegerField(help_text='Engine actions applied (0: the start).')),
                ('seq', models.PositiveIntegerField(help_text='The seq of the log row that made this ply (0 at the start).')),
                ('state', models.JSONField()),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='checkpoints', to='games.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'ply'), name='checkpoint_unique_ply')],
            },
        ),
    ]
