"""Event now belongs to the feed app (its 0001); state only, the table games_event stays as it is."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0027_chat_moved_to_its_app'),
        ('feed', '0001_event_from_games'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.RemoveIndex(
                model_name='event',
                name='event_feed',
            ),
            migrations.RemoveConstraint(
                model_name='event',
                name='event_unique_per_user',
            ),
            migrations.DeleteModel(
                name='Event',
            ),
        ]),
    ]
