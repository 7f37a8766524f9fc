"""Notifications store the data, not the words (decision 13): each is worded when shown or sent, in her language.

A notification of each kind is made while its recipient reads Spanish; she then switches her account to
Traditional Chinese, and her page, the API and her email all say the same notification in Chinese.  A
notification stored before (words in `text`, no params) still shows its words.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation
from django.utils.html import escape

from accounts.personal import her_words
from chat.services import chat_post
from games import services, tasks
from games.models import Seat
from games.services.moves import game_resign
from games.services.tables import game_invite
from notifications.emails import digest_email, notification_email
from notifications.events import game_effects_dispatch, reminders_send
from notifications.models import Notification, NotificationEvent
from notifications.services import notification_create
from notifications.texts import notification_words
from tests.conftest import api_client_for
from tests.games.tables import everyone_played, play_turn, topology_table
from tests.web.conftest import client_for
from tournaments import notify
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _one(member, kind):
    note = Notification.objects.filter(recipient=member, kind=kind).order_by("-pk").first()
    assert note is not None, f"no {kind} notification"
    return note


def _table(owner, member):
    game = topology_table(owner, member)
    game_effects_dispatch(game_id=game.pk)  # the worker's dispatch (run here: no commit in these tests)
    return game


def _started(owner, member, capture):
    _table(owner, member)
    return _one(member, NotificationEvent.STARTED)


def _your_turn(owner, member, capture):
    game = play_turn(_table(owner, member), owner)  # now it is her turn, with a deadline
    game_effects_dispatch(game_id=game.pk)
    return _one(member, NotificationEvent.YOUR_TURN)


def _invited(owner, member, capture):
    game = services.game_create(user=owner, kind="topology", players=2)
    with capture(execute=True):
        game_invite(user=owner, game_id=game.pk, username=member.username)
    return _one(member, NotificationEvent.INVITED)


def _deadline(owner, member, capture):
    game = play_turn(_table(owner, member), owner)
    Seat.objects.filter(game=game, user=member).update(deadline=timezone.now() + timedelta(minutes=30))
    assert reminders_send() == 1
    return _one(member, NotificationEvent.DEADLINE)


def _bot_played(owner, member, capture):
    game = play_turn(_table(owner, member), owner)
    Seat.objects.filter(game=game, user=member).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.deadlines_sweep() == 1
    game_effects_dispatch(game_id=game.pk)
    return _one(member, NotificationEvent.BOT_PLAYED)


def _finished(owner, member, capture):
    game = everyone_played(_table(owner, member))  # ruling S1, turn 3: before that, resigning aborts
    game_resign(game_id=game.pk, user=owner)  # she wins: the game ends there (ruling S1)
    game_effects_dispatch(game_id=game.pk)
    return _one(member, NotificationEvent.FINISHED)


def _aborted(owner, member, capture):
    game = _table(owner, member)
    game_resign(game_id=game.pk, user=owner)  # before bruno has played: the game is aborted (ruling S1, turn 3)
    game_effects_dispatch(game_id=game.pk)
    return _one(member, NotificationEvent.ABORTED)


def _chat(owner, member, capture):
    game = _table(owner, member)
    with capture(execute=True):
        chat_post(user=owner, game_id=game.pk, body="Good luck")
    return _one(member, NotificationEvent.CHAT)


def _tournament(owner, member, capture):
    cup = tournaments.tournament_create(
        user=owner, name="Cup", kind="topology", players=2, starts_at=timezone.now() + timedelta(hours=2)
    )
    tournaments.tournament_register(user=member, tournament_id=cup.pk)
    Tournament.objects.filter(pk=cup.pk).update(winner=member, finished_at=timezone.now())
    cup.refresh_from_db()
    notify.finished(cup, list(cup.entrants.select_related("user")))
    return _one(member, NotificationEvent.TOURNAMENT)


MAKERS = {
    "started": _started,
    "your_turn": _your_turn,
    "invited": _invited,
    "deadline": _deadline,
    "bot_played": _bot_played,
    "finished": _finished,
    "aborted": _aborted,
    "chat": _chat,
    "tournament": _tournament,
}


def _read_everywhere(member, note) -> dict[str, str]:
    """What her page, the API and her emails say about the note now."""
    note = Notification.objects.select_related("recipient", "game").get(pk=note.pk)
    api = api_client_for(member).get("/api/notifications/").json()["results"]
    return {
        "page": client_for(member).get("/notifications/").content.decode(),
        "api": next(row["text"] for row in api if row["id"] == note.pk),
        "email": notification_email(note).body,
        "digest": digest_email(note.recipient, [note]).body,
    }


def test_every_kind_is_made_by_the_events(owner, member, django_capture_on_commit_callbacks):
    """Each writer stores a code and its facts, and no words (the words would be in one language only)."""
    member.language = "es"
    member.save(update_fields=["language"])
    for kind, make in MAKERS.items():
        note = make(owner, member, django_capture_on_commit_callbacks)
        assert note.text == "" and note.params["code"] == kind == note.kind


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_notification_made_in_spanish_reads_in_chinese_once_she_switches(
    kind, owner, member, django_capture_on_commit_callbacks
):
    member.language = "es"
    member.save(update_fields=["language"])
    note = MAKERS[kind](owner, member, django_capture_on_commit_callbacks)
    with translation.override("en"):
        english = notification_words(note)
    with her_words(member):
        spanish = notification_words(note)
    assert spanish and spanish != english  # the Spanish translations of the kept msgids apply
    read = _read_everywhere(member, note)
    assert escape(spanish) in read["page"]
    assert read["api"] == spanish
    assert spanish in read["email"] and spanish in read["digest"]

    member.language = "zh-hant"
    member.save(update_fields=["language"])
    member.refresh_from_db()
    with her_words(member):
        chinese = notification_words(note)
    assert chinese and chinese not in (english, spanish)
    read = _read_everywhere(member, note)
    assert escape(chinese) in read["page"] and escape(spanish) not in read["page"]
    assert read["api"] == chinese
    assert chinese in read["email"] and spanish not in read["email"]
    assert chinese in read["digest"]


def test_an_old_notification_keeps_its_words(member):
    """Stored before params existed: its words in `text`, shown as they were written, in any language."""
    old = Notification.objects.create(
        recipient=member, kind=NotificationEvent.INVITED, key="old:1", text="ana invited you to a table of Topology #3."
    )
    assert old.params == {}
    for language in ("es", "zh-hant"):
        member.language = language
        member.save(update_fields=["language"])
        read = _read_everywhere(member, old)
        assert "ana invited you to a table of Topology #3." in read["page"]
        assert read["api"] == old.text
        assert old.text in read["email"] and old.text in read["digest"]


def test_words_given_by_hand_are_shown_as_they_are(member):
    """notification_create with `text` only (no event of the site's): those words, not a sentence of a kind."""
    note = notification_create(recipient=member, kind=NotificationEvent.INVITED, key="by-hand", text="Hello")
    assert note.params == {} and notification_words(note) == "Hello"
    assert _read_everywhere(member, note)["api"] == "Hello"
