"""Notifications become an app of their own (decision 15): the models move here from games and accounts.

State only: the tables keep their names (db_table), so no row moves and nothing is created."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('games', '0019_notification_params'),
        ('accounts', '0007_alter_notificationpreference_event'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.CreateModel(
                name='Notification',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('your_turn', 'It is your turn'), ('invited', 'You are invited to a table'), ('started', 'A table you sit at has started'), ('finished', 'A game is over'), ('deadline', 'A deadline is near (24 hours and 1 hour before)'), ('bot_played', "The site's bot played for you after a missed deadline"), ('chat', 'A chat message at a table you sit at'), ('tournament', 'A tournament you entered started, was cancelled or ended')], max_length=20)),
                    ('key', models.CharField(help_text="Names the event, e.g. 'turn:12:0:v37'.", max_length=160)),
                    ('text', models.TextField(blank=True, default='', help_text='The words of a notification stored before params.')),
                    ('params', models.JSONField(blank=True, default=dict, help_text='The event as data: a code and its facts.')),
                    ('read_at', models.DateTimeField(blank=True, null=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                    ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to='games.game')),
                    ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_notification',
                    'ordering': ['-created_at', '-id'],
                },
            ),
            migrations.CreateModel(
                name='NotificationDelivery',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('key', models.CharField(help_text="The notification's event key.", max_length=160)),
                    ('channel', models.CharField(choices=[('email', 'Email'), ('digest', 'Daily digest')], max_length=10)),
                    ('status', models.CharField(choices=[('pending', 'Pending'), ('sending', 'Sending'), ('sent', 'Sent'), ('failed', 'Failed')], default='pending', max_length=10)),
                    ('attempts', models.PositiveSmallIntegerField(default=0)),
                    ('batch', models.CharField(blank=True, default='', help_text='The send that claimed it.', max_length=32)),
                    ('error', models.TextField(blank=True, default='')),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('claimed_at', models.DateTimeField(blank=True, null=True)),
                    ('sent_at', models.DateTimeField(blank=True, null=True)),
                    ('notification', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deliveries', to='notifications.notification')),
                    ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'games_notificationdelivery',
                    'ordering': ['created_at', 'id'],
                },
            ),
            migrations.CreateModel(
                name='NotificationPreference',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('event', models.CharField(choices=[('your_turn', 'It is your turn'), ('invited', 'You are invited to a table'), ('started', 'A table you sit at has started'), ('finished', 'A game is over'), ('deadline', 'A deadline is near (24 hours and 1 hour before)'), ('bot_played', "The site's bot played for you after a missed deadline"), ('chat', 'A chat message at a table you sit at'), ('tournament', 'A tournament you entered started, was cancelled or ended')], max_length=20)),
                    ('email', models.CharField(choices=[('immediate', 'Email at once'), ('digest', 'In the daily digest'), ('none', 'No email')], default='immediate', max_length=10)),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notification_preferences', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'db_table': 'accounts_notificationpreference',
                },
            ),
            migrations.AddIndex(
                model_name='notification',
                index=models.Index(fields=['recipient', 'read_at'], name='notification_unread'),
            ),
            migrations.AddConstraint(
                model_name='notification',
                constraint=models.UniqueConstraint(fields=('recipient', 'key'), name='notification_unique_event'),
            ),
            migrations.AddIndex(
                model_name='notificationdelivery',
                index=models.Index(fields=['channel', 'status'], name='delivery_queue'),
            ),
            migrations.AddConstraint(
                model_name='notificationdelivery',
                constraint=models.UniqueConstraint(fields=('key', 'channel', 'recipient'), name='delivery_unique_per_channel'),
            ),
            migrations.AddConstraint(
                model_name='notificationpreference',
                constraint=models.UniqueConstraint(fields=('user', 'event'), name='notification_preference_unique'),
            ),
        ]),
    ]
