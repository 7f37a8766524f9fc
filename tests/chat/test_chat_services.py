"""The chat services (decision 17, point 1): who may write, who reads what, limits, deletion, mutes and reports."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.services import user_create
from chat import selectors as chat
from chat.models import ChatMessage, ChatMute, ChatReport
from chat.services import (
    ChatThrottled,
    chat_delete,
    chat_mute,
    chat_post,
    chat_report,
    chat_unmute,
)
from games import services
from games.errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests
from games.models import Game
from tests.games.factories import started_topology
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def bodies(game, user) -> list[str]:
    return [m.body for m in chat.messages_visible(Game.objects.get(pk=game.pk), user)]


def test_a_player_writes_as_a_player_and_anyone_else_as_a_spectator(owner, member, outsider):
    game = started_topology(owner, member)
    mine = chat_post(user=owner, game_id=game.pk, body="  good luck!  ")
    theirs = chat_post(user=outsider, game_id=game.pk, body="watching")
    assert (mine.body, mine.spectator) == ("good luck!", False)
    assert (theirs.body, theirs.spectator) == ("watching", True)


@pytest.mark.parametrize("body", ["", "   \n\t ", None, "x" * (ChatMessage.BODY_MAX + 1)])
def test_an_empty_or_too_long_message_is_refused_and_nothing_is_written(owner, member, body):
    game = started_topology(owner, member)
    with pytest.raises(BadRequest) as refused:
        chat_post(user=owner, game_id=game.pk, body=body)
    assert refused.value.status_code == 400 and refused.value.code == "chat_invalid"
    assert not ChatMessage.objects.exists()
    assert chat_post(user=owner, game_id=game.pk, body="x" * ChatMessage.BODY_MAX).body == "x" * 500


def test_nobody_logged_out_writes(owner, member):
    game = started_topology(owner, member)
    with pytest.raises(Forbidden):
        chat_post(user=AnonymousUser(), game_id=game.pk, body="hi")


def test_a_private_table_is_not_there_for_an_outsider_without_its_code(owner, member, outsider):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    with pytest.raises(NotFound) as refused:
        chat_post(user=outsider, game_id=game.pk, body="hello?")
    assert str(game.pk) in refused.value.message
    with pytest.raises(NotFound):
        chat_post(user=owner, game_id=987654, body="no such table")
    assert chat_post(user=outsider, game_id=game.pk, body="with the code", invite_code=game.invite_code).spectator
    assert chat_post(user=owner, game_id=game.pk, body="mine").spectator is False


def test_spectators_messages_reach_the_players_only_once_the_game_is_over(owner, member, outsider):
    """No coaching: players read the players' messages while the game runs; spectators read everything."""
    game = started_topology(owner, member)
    chat_post(user=owner, game_id=game.pk, body="have fun")
    chat_post(user=outsider, game_id=game.pk, body="play the corner!")
    assert bodies(game, member) == ["have fun"]
    assert bodies(game, owner) == ["have fun"]
    assert bodies(game, outsider) == ["have fun", "play the corner!"]
    assert bodies(game, AnonymousUser()) == ["have fun", "play the corner!"]  # reading a public table needs no login
    # A player's stamp does not even move when a spectator writes.
    players_stamp = chat.chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at)
    chat_post(user=outsider, game_id=game.pk, body="again")
    assert chat.chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at) == players_stamp
    everyone_played(game)  # ruling S1, turn 3: before that, leaving aborts the game
    services.game_resign(game_id=game.pk, user=member)  # two seats: the game is over
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert bodies(game, member) == ["have fun", "play the corner!", "again"]


def test_the_burst_limit_refuses_with_the_seconds_to_wait_and_writes_nothing(owner, member, settings):
    settings.TOPOS_CHAT_BURST = (3, 10)
    game = started_topology(owner, member)
    for n in range(3):
        chat_post(user=owner, game_id=game.pk, body=f"m{n}")
    with pytest.raises(TooManyRequests) as refused:
        chat_post(user=owner, game_id=game.pk, body="one too many")
    assert isinstance(refused.value, ChatThrottled) and refused.value.status_code == 429
    assert 1 <= refused.value.retry_after <= 10 and "second" in refused.value.message
    assert ChatMessage.objects.count() == 3
    chat_post(user=member, game_id=game.pk, body="her own count")  # per account


def test_the_daily_limit_counts_deleted_messages_too(owner, member, settings):
    settings.TOPOS_CHAT_BURST = (100, 10)
    settings.TOPOS_CHAT_DAILY = 2
    game = started_topology(owner, member)
    first = chat_post(user=owner, game_id=game.pk, body="one")
    chat_delete(user=owner, game_id=game.pk, message_id=first.pk)
    chat_post(user=owner, game_id=game.pk, body="two")
    with pytest.raises(ChatThrottled) as refused:
        chat_post(user=owner, game_id=game.pk, body="three")
    assert refused.value.retry_after > 23 * 3600 and "hour" in refused.value.message


def test_the_author_deletes_her_message_which_keeps_its_place(owner, member):
    game = started_topology(owner, member)
    message = chat_post(user=owner, game_id=game.pk, body="oops")
    before = chat.chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at)
    with pytest.raises(Forbidden):
        chat_delete(user=member, game_id=game.pk, message_id=message.pk)
    deleted = chat_delete(user=owner, game_id=game.pk, message_id=message.pk)
    assert deleted.deleted_at is not None
    assert chat_delete(user=owner, game_id=game.pk, message_id=message.pk).deleted_at == deleted.deleted_at
    shown = chat.message_public(chat.messages_visible(game, member).get(), member)
    assert shown["deleted"] is True and shown["body"] == "" and shown["author"] == "ana"
    assert (
        chat.chat_stamp(game.pk, hidden_since=Game.objects.get(pk=game.pk).started_at) != before
    )  # open pages refresh
    with pytest.raises(NotFound):
        chat_delete(user=owner, game_id=game.pk, message_id=message.pk + 100)


def test_a_spectators_message_cannot_be_reached_by_a_player_while_the_game_runs(owner, member, outsider):
    game = started_topology(owner, member)
    hidden = chat_post(user=outsider, game_id=game.pk, body="psst")
    with pytest.raises(NotFound):
        chat_report(user=member, game_id=game.pk, message_id=hidden.pk)


def test_a_mute_hides_her_messages_at_every_table_until_unmuted(owner, member, outsider):
    game = started_topology(owner, member)
    other = started_topology(outsider, member)
    chat_post(user=member, game_id=game.pk, body="at the first")
    chat_post(user=member, game_id=other.pk, body="at the second")
    mute, created = chat_mute(user=owner, username="bruno")
    assert created and not chat_mute(user=owner, username="bruno")[1]
    assert bodies(game, owner) == [] and bodies(other, owner) == []
    assert bodies(game, member) == ["at the first"]  # she still sees her own, and others see her
    assert bodies(other, outsider) == ["at the second"]
    chat_unmute(user=owner, username="bruno")
    assert bodies(game, owner) == ["at the first"]
    with pytest.raises(NotFound):
        chat_unmute(user=owner, username="bruno")
    with pytest.raises(NotFound):
        chat_mute(user=owner, username="nobody")
    with pytest.raises(BadRequest):
        chat_mute(user=owner, username="ana")
    assert not ChatMute.objects.exists()


def test_a_report_is_made_once_and_never_of_ones_own_message(owner, member):
    game = started_topology(owner, member)
    message = chat_post(user=member, game_id=game.pk, body="rude words")
    report = chat_report(user=owner, game_id=game.pk, message_id=message.pk, reason="abuse", note=" very rude ")
    assert (report.reporter, report.reason, report.note, report.resolved) == (owner, "abuse", "very rude", False)
    with pytest.raises(Conflict):
        chat_report(user=owner, game_id=game.pk, message_id=message.pk)
    with pytest.raises(Forbidden):
        chat_report(user=member, game_id=game.pk, message_id=message.pk)
    with pytest.raises(BadRequest):
        chat_report(user=owner, game_id=game.pk, message_id=message.pk, reason="boring")
    assert ChatReport.objects.count() == 1


def test_a_bot_account_may_chat_and_a_bot_seat_has_no_voice(owner):
    bot_account = user_create(username="robo", email="robo@example.com", password="a-long-test-password")
    game = services.game_create(user=owner, kind="topology", players=3, bots=["random"])
    services.game_join(user=bot_account, game_id=game.pk)
    type(bot_account).objects.filter(pk=bot_account.pk).update(is_bot_account=True)
    bot_account.refresh_from_db()
    assert chat_post(user=bot_account, game_id=game.pk, body="beep").spectator is False


def test_in_the_waiting_room_everybody_reads_everybody_and_it_stays_so(owner, member, outsider):
    """Nothing is dealt yet, so nobody can be coached: a spectator may ask for a seat, and the players read it
    (then and after the start); what spectators write once the game runs waits for its end."""
    game = services.game_create(user=owner, kind="topology", players=2)
    chat_post(user=outsider, game_id=game.pk, body="may I join later?")
    assert bodies(game, owner) == ["may I join later?"]
    services.game_join(user=member, game_id=game.pk)
    services.game_start(user=owner, game_id=game.pk)
    chat_post(user=outsider, game_id=game.pk, body="a hint")
    assert bodies(game, owner) == ["may I join later?"]
    assert bodies(game, outsider) == ["may I join later?", "a hint"]
