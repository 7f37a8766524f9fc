"""A chat message at one's table (decision 17): a feed event always, a notification unless she is looking at the
table (ruling S6), at most one unread per table, emailed only if she asked for it; told in the worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from chat.effects import chat_message_dispatch
from chat.models import ChatMessage
from chat.services import chat_mute, chat_post
from feed.models import Event
from games import services, tasks
from games.models import Seat
from notifications.models import Notification, NotificationDelivery, NotificationEvent
from notifications.selectors import email_choice
from notifications.services import notification_mark_read, notification_preferences_set
from tests.games.tables import read_by_her

pytestmark = pytest.mark.django_db


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """Post as the page or the API does; the worker's task runs once the message has committed (celery_eager)."""

    def write(user, game, body):
        with django_capture_on_commit_callbacks(execute=True):
            return chat_post(user=user, game_id=game.pk, body=body)

    return write


def chat_notes(user):
    return list(Notification.objects.filter(recipient=user, kind=NotificationEvent.CHAT))


def chat_events(user):
    return list(Event.objects.filter(user=user, kind=Event.Kind.CHAT).order_by("id"))


def test_the_other_player_is_told_and_the_author_is_not(game, owner, member, post):
    message = post(owner, game, "Good luck, have fun")
    [note] = chat_notes(member)
    assert note.game_id == game.pk and note.text == "" and note.params["excerpt"] == "Good luck, have fun"
    assert "ana" in read_by_her(note) and "Good luck, have fun" in read_by_her(note)
    [event] = chat_events(member)
    assert event.game_id == game.pk and event.data["message"] == message.pk and event.data["author"] == "ana"
    assert event.data["spectator"] is False and event.data["table"] == game.pk
    assert chat_notes(owner) == [] and chat_events(owner) == []
    assert ChatMessage.objects.get(pk=message.pk).dispatched_at is not None
    # Chat sends no email unless she asks for it.
    assert email_choice(user=member, event=NotificationEvent.CHAT) == "none"
    assert not NotificationDelivery.objects.exists() and mail.outbox == []


def test_one_unread_chat_note_per_table_rewritten_by_the_next_message(game, owner, member, post):
    post(owner, game, "first")
    post(owner, game, "second")
    [note] = chat_notes(member)
    assert "second" in read_by_her(note) and note.read_at is None
    assert len(chat_events(member)) == 2  # the feed has every message
    notification_mark_read(user=member, notification_id=note.pk)
    post(owner, game, "third")
    notes = chat_notes(member)
    assert len(notes) == 2 and sum(n.read_at is None for n in notes) == 1


def test_no_note_while_she_has_the_table_open_but_her_feed_still_gets_it(game, owner, member, post):
    """Ruling S6: she sees the message on the page she is looking at."""
    Seat.objects.filter(game=game, user=member).update(seen_at=timezone.now())
    post(owner, game, "you there?")
    assert chat_notes(member) == [] and len(chat_events(member)) == 1
    Seat.objects.filter(game=game, user=member).update(seen_at=timezone.now() - timedelta(hours=1))
    post(owner, game, "gone?")
    assert len(chat_notes(member)) == 1


def test_an_email_when_she_asked_for_one_once_per_unread_note(game, owner, member, post):
    notification_preferences_set(user=member, choices={NotificationEvent.CHAT: "immediate"})
    post(owner, game, "one")
    post(owner, game, "two")
    assert len(mail.outbox) == 1 and member.email in mail.outbox[0].to
    assert "one" in mail.outbox[0].body


def test_spectators_are_told_to_nobody_while_the_game_runs_and_to_the_players_after(
    game, owner, member, outsider, post
):
    post(outsider, game, "coaching!")
    assert chat_notes(owner) == chat_notes(member) == [] and chat_events(owner) == []
    assert chat_notes(outsider) == []  # spectators are not told: the table is not hers
    services.game_resign(game_id=game.pk, user=member)
    post(outsider, game, "well played")
    assert len(chat_events(owner)) == 1 and "well played" in read_by_her(chat_notes(owner)[0])
    assert "spectator" in read_by_her(chat_notes(owner)[0])


def test_a_player_who_muted_the_author_is_not_told(game, owner, member, post):
    chat_mute(user=member, username="ana")
    post(owner, game, "hello?")
    assert chat_notes(member) == [] and chat_events(member) == []


def test_a_message_is_told_once_and_the_sweep_tells_a_lost_one(game, owner, member):
    message = chat_post(user=owner, game_id=game.pk, body="lost task")  # no commit hook ran: its task was lost
    assert chat_notes(member) == []
    ChatMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=1))
    assert tasks.effects_sweep()["chat"] == 1
    assert len(chat_notes(member)) == 1 and len(chat_events(member)) == 1
    assert chat_message_dispatch(message_id=message.pk) is False
    assert tasks.effects_sweep()["chat"] == 0 and len(chat_events(member)) == 1


def test_the_settings_page_offers_chat_emails_off_by_default(member):
    from tests.web.conftest import client_for

    page = client_for(member).get("/accounts/notifications/").content.decode()
    assert 'name="chat" value="none" checked' in page
