"""The chat becomes an app of its own (decision 17, point 1): its models move here from games (games 0027).

State only: the tables keep their names (db_table games_chat*), their indexes and constraints their names, so no
row moves and nothing is created; `sqlmigrate chat 0001` prints no statement that touches them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0027_chat_moved_to_its_app'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='ChatMessage',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('body', models.TextField(max_length=500)),
                    ('spectator', models.BooleanField(default=False, help_text='Written by someone not seated at the table.')),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('deleted_at', models.DateTimeField(blank=True, help_text='Deleted by its author or a moderator.', null=True)),
                    ('dispatched_at', models.DateTimeField(blank=True, null=True)),
                    ('author', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to=settings.AUTH_USER_MODEL)),
                    ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_messages', to='games.game')),
                ],
                options={
                    'db_table': 'games_chatmessage',
                    'ordering': ['game', 'id'],
                },
            ),
            migrations.CreateModel(
                name='ChatMute',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('muted', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_mutes', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_chatmute',
                    'ordering': ['user', '-created_at'],
                },
            ),
            migrations.CreateModel(
                name='ChatReport',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.CharField(choices=[('abuse', 'Abusive or hateful'), ('spam', 'Spam or advertising'), ('coaching', 'Helping a player during the game'), ('other', 'Something else')], default='abuse', max_length=10)),
                    ('note', models.TextField(blank=True, default='', max_length=500)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('resolved', models.BooleanField(default=False)),
                    ('resolved_at', models.DateTimeField(blank=True, null=True)),
                    ('message', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='chat.chatmessage')),
                    ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_reports', to=settings.AUTH_USER_MODEL)),
                    ('resolved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_chatreport',
                    'ordering': ['resolved', '-created_at'],
                },
            ),
            migrations.AddIndex(
                model_name='chatmessage',
                index=models.Index(fields=['game', 'id'], name='chat_table'),
            ),
            migrations.AddIndex(
                model_name='chatmessage',
                index=models.Index(fields=['author', 'created_at'], name='chat_author_recent'),
            ),
            migrations.AddIndex(
                model_name='chatmessage',
                index=models.Index(condition=models.Q(('dispatched_at__isnull', True)), fields=['created_at'], name='chat_undispatched'),
            ),
            migrations.AddConstraint(
                model_name='chatmute',
                constraint=models.UniqueConstraint(fields=('user', 'muted'), name='chat_mute_unique'),
            ),
            migrations.AddConstraint(
                model_name='chatmute',
                constraint=models.CheckConstraint(condition=models.Q(('user', models.F('muted')), _negated=True), name='chat_mute_not_self'),
            ),
            migrations.AddIndex(
                model_name='chatreport',
                index=models.Index(fields=['resolved', 'created_at'], name='chat_report_queue'),
            ),
            migrations.AddConstraint(
                model_name='chatreport',
                constraint=models.UniqueConstraint(fields=('message', 'reporter'), name='chat_report_once'),
            ),
        ]),
    ]
