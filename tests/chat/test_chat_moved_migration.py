"""The chat's models moved from games to the chat app in the migrations' state only (games 0027, chat 0001): a
database filled under the old layout keeps every row, read through chat.models afterwards, and the migrations
touch no table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.services import user_create
from chat.models import ChatMessage, ChatMute, ChatReport
from tests.games.factories import started_topology

BEFORE = [("games", "0026_alter_action_source_paceprofile"), ("chat", None)]  # just before the move
MOVE = [("games", "0027_chat_moved_to_its_app"), ("chat", "0001_initial")]


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader: what is applied now


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_rows_written_under_the_old_layout_are_read_whole_through_chat_models():
    ana = user_create(username="ana", email="ana@example.com", password="a-long-test-password")
    bruno = user_create(username="bruno", email="bruno@example.com", password="a-long-test-password")
    game = started_topology(ana, bruno)

    executor = _migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[0]).apps
    assert ("chat", "0001_initial") not in executor.loader.applied_migrations
    Message, Mute, Report = (old.get_model("games", name) for name in ("ChatMessage", "ChatMute", "ChatReport"))
    when = timezone.now() - timedelta(hours=1)
    written = Message.objects.create(
        game_id=game.pk, author_id=ana.pk, body="good luck, Bruno", spectator=False, dispatched_at=when
    )
    deleted = Message.objects.create(
        game_id=game.pk, author_id=bruno.pk, body="oops", spectator=True, deleted_at=when, dispatched_at=None
    )
    mute = Mute.objects.create(user_id=bruno.pk, muted_id=ana.pk)
    report = Report.objects.create(
        message_id=written.pk,
        reporter_id=bruno.pk,
        reason="spam",
        note="again",
        resolved=True,
        resolved_at=when,
        resolved_by_id=ana.pk,
    )
    before = {
        model: list(model.objects.order_by("pk").values()) for model in (Message, Mute, Report)
    }  # every field, as the old layout stored it

    _migrate(_latest())

    assert list(ChatMessage.objects.order_by("pk").values()) == before[Message]
    assert list(ChatMute.objects.order_by("pk").values()) == before[Mute]
    assert list(ChatReport.objects.order_by("pk").values()) == before[Report]
    # ... and through the models' own fields and relations, one by one.
    message = ChatMessage.objects.get(pk=written.pk)
    assert (message.game, message.author, message.body, message.spectator) == (game, ana, "good luck, Bruno", False)
    assert (message.created_at, message.deleted_at, message.dispatched_at) == (written.created_at, None, when)
    gone = ChatMessage.objects.get(pk=deleted.pk)
    assert (gone.author, gone.spectator, gone.deleted_at, gone.dispatched_at) == (bruno, True, when, None)
    muted = ChatMute.objects.get(pk=mute.pk)
    assert (muted.user, muted.muted, muted.created_at) == (bruno, ana, mute.created_at)
    told = ChatReport.objects.get(pk=report.pk)
    assert (told.message, told.reporter, told.reason, told.note) == (message, bruno, ChatReport.Reason.SPAM, "again")
    assert (told.resolved, told.resolved_at, told.resolved_by, told.created_at) == (True, when, ana, report.created_at)
    # The relations from the other side (games.Game and the users) still lead to them.
    assert list(game.chat_messages.order_by("pk")) == [message, gone]
    assert list(message.reports.all()) == [told] and list(bruno.chat_mutes.all()) == [muted]


@pytest.mark.django_db
@pytest.mark.parametrize(("app", "name"), MOVE)
def test_the_move_touches_no_table(app, name, capsys):
    call_command("sqlmigrate", app, name)
    sql = [line for line in capsys.readouterr().out.splitlines() if line and not line.startswith("--")]
    assert sql == ["BEGIN;", "COMMIT;"]
