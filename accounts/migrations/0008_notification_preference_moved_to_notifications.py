"""NotificationPreference now belongs to the notifications app (its 0001); state only, the table stays."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_alter_notificationpreference_event'),
        ('notifications', '0001_initial_from_games_and_accounts'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.RemoveConstraint(
                model_name='notificationpreference',
                name='notification_preference_unique',
            ),
            migrations.DeleteModel(
                name='NotificationPreference',
            ),
        ]),
    ]
