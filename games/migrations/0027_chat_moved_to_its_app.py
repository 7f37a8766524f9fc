"""ChatMessage, ChatMute and ChatReport now belong to the chat app (its 0001, which depends on this one).

State only: the tables keep their names (games_chatmessage, games_chatmute, games_chatreport, by db_table in
chat/models.py), so no row moves and nothing is dropped; games' migrations never need the chat app."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0026_alter_action_source_paceprofile'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name='ChatReport'),
            migrations.DeleteModel(name='ChatMute'),
            migrations.DeleteModel(name='ChatMessage'),
        ]),
    ]
