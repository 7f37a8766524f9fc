"""Notification and NotificationDelivery now belong to the notifications app (its 0001); state only, the tables stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_notification_params'),
        ('notifications', '0001_initial_from_games_and_accounts'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.RemoveIndex(
                model_name='notification',
                name='notification_unread',
            ),
            migrations.RemoveConstraint(
                model_name='notification',
                name='notification_unique_event',
            ),
            migrations.RemoveIndex(
                model_name='notificationdelivery',
                name='delivery_queue',
            ),
            migrations.RemoveConstraint(
                model_name='notificationdelivery',
                name='delivery_unique_per_channel',
            ),
            migrations.RemoveField(
                model_name='notificationdelivery',
                name='notification',
            ),
            migrations.RemoveField(
                model_name='notificationdelivery',
                name='recipient',
            ),
            migrations.DeleteModel(
                name='Notification',
            ),
            migrations.DeleteModel(
                name='NotificationDelivery',
            ),
        ]),
    ]
