"""Blocking (ruling S7) and what reaches her: their chat hidden from each other and telling nothing, a blocked
person's challenge making no notification and no email, while a running game's turns still reach her (a turn is
the game's, not his).  Tasks run in this process (tests/notifications/conftest.py)."""

from __future__ import annotations

import pytest
from django.core import mail

from chat.selectors import messages_visible
from chat.services import chat_post
from feed.models import Event
from games.services.blocks import player_block
from notifications.models import Notification, NotificationEvent
from notifications.services import notification_preferences_set
from tests.conftest import api_client_for
from tests.games.tables import play_turn, topology_table

pytestmark = pytest.mark.django_db(transaction=True)  # the tasks run on commit, as in the worker


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    def write(user, game, body):
        with django_capture_on_commit_callbacks(execute=True):
            return chat_post(user=user, game_id=game.pk, body=body)

    return write


def seen_by(user, game) -> list[str]:
    return [m.body for m in messages_visible(game, user)]


def chat_told(user) -> tuple[int, int]:
    notes = Notification.objects.filter(recipient=user, kind=NotificationEvent.CHAT).count()
    return notes, Event.objects.filter(user=user, kind=Event.Kind.CHAT).count()


@pytest.mark.parametrize("who_blocks", ["her", "him"])
def test_their_chat_is_hidden_from_each_other_and_tells_nothing(game, owner, member, outsider, post, who_blocks):
    for user in (owner, member):
        notification_preferences_set(user=user, choices={NotificationEvent.CHAT: "immediate"})
    post(owner, game, "before")
    assert chat_told(member) == (1, 1)  # without a block he is told (the test below can fail)
    blocker, blocked = (owner, member) if who_blocks == "her" else (member, owner)
    player_block(user=blocker, username=blocked.username)
    mail.outbox.clear()
    post(owner, game, "from ana")
    post(member, game, "from bruno")
    assert seen_by(owner, game) == ["before", "from ana"] and seen_by(member, game) == ["from bruno"]
    assert seen_by(outsider, game) == ["before", "from ana", "from bruno"]  # the others read both
    assert chat_told(member) == (1, 1) and chat_told(owner) == (0, 0)  # nothing new either way
    assert mail.outbox == []


def test_a_blocked_persons_challenge_makes_no_notification_and_no_email(owner, member, outsider):
    bruno = api_client_for(member)
    # Without a block a challenge is mailed to her at once (the default): so the test below can fail.
    assert api_client_for(outsider).post("/api/challenges/", {"username": "ana", "game": "topology"}).status_code == 201
    assert [m.to for m in mail.outbox] == [[owner.email]]
    mail.outbox.clear()
    player_block(user=owner, username="bruno")
    for _ in range(3):  # the measured case: three challenges, which had become three emails
        refused = bruno.post("/api/challenges/", {"username": "ana", "game": "topology"}, format="json")
        assert refused.status_code == 403 and refused.json()["error"] == "not_possible"
    assert mail.outbox == []
    assert Notification.objects.filter(recipient=owner, kind=NotificationEvent.INVITED).count() == 1  # chen's


def test_a_running_game_goes_on_and_her_turns_are_still_told(owner, member):
    game = topology_table(owner, member)
    player_block(user=owner, username="bruno")
    game = play_turn(game, owner)  # her move at the shared table
    game = play_turn(game, member)  # and his: both still play
    turns = Notification.objects.filter(recipient=owner, game=game, kind=NotificationEvent.YOUR_TURN)
    assert turns.filter(read_at__isnull=True).count() == 1  # the game's turn, not his: she is told
