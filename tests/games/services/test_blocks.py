"""Blocking (ruling S7): the block and unblock services, the selectors that look both ways, and every path that
could bring two blocked people together (an invitation, a challenge, a rematch, a join, an invitation accepted),
refused in the same words whichever of them blocked; a tournament both entered still seats them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Block
from accounts.selectors import blocked_among, blocked_between, blocked_ids, blocks_of_user
from chat.effects import chat_message_dispatch
from chat.services import chat_post
from games import services
from games.errors import BadRequest, Forbidden, NotFound
from games.models import Game, Invitation
from games.services.blocks import NotPossible, player_block, player_unblock
from games.services.challenges import challenge_create
from games.services.invitations import invitation_accept
from notifications.models import Notification, NotificationDelivery, NotificationEvent
from notifications.services import digest_send, notification_preferences_set
from tests.games.tables import everyone_played
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def refusal(write) -> NotPossible:
    with pytest.raises(NotPossible) as refused:
        write()
    assert refused.value.status_code == 403 and refused.value.code == "not_possible"
    return refused.value


# --- the block itself -----------------------------------------------------------------------------------------


def test_block_is_made_once_and_unblock_lifts_only_her_own(owner, member):
    block, created = player_block(user=owner, username="bruno")
    assert created and block.blocker == owner and block.blocked == member
    again, created = player_block(user=owner, username="bruno")
    assert again.pk == block.pk and not created
    player_block(user=member, username="ana")  # both ways: two rows
    assert Block.objects.count() == 2
    player_unblock(user=owner, username="bruno")
    assert list(Block.objects.values_list("blocker__username", flat=True)) == ["bruno"]
    assert blocked_between(owner, member)  # his block of her stays
    with pytest.raises(NotFound):
        player_unblock(user=owner, username="bruno")  # not blocked (by her) any more


def test_herself_nobody_and_a_visitor_are_refused(owner):
    with pytest.raises(BadRequest) as bad:
        player_block(user=owner, username="ana")
    assert bad.value.field == "username"
    with pytest.raises(NotFound):
        player_block(user=owner, username="nobody")
    with pytest.raises(NotFound):
        player_unblock(user=owner, username="nobody")
    with pytest.raises(Forbidden):
        player_block(user=None, username="ana")
    assert not Block.objects.exists()
    # The database refuses a self-block and a second row for one pair, whatever writes them.
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=owner, blocked=owner)


def test_the_selectors_look_both_ways_in_one_query(owner, member, outsider):
    player_block(user=member, username="ana")
    with CaptureQueriesContext(connection) as queries:
        assert blocked_between(owner, member) and blocked_between(member, owner)
    assert len(queries) == 2
    assert not blocked_between(owner, outsider)
    assert blocked_among(owner, [outsider.pk, member.pk]) and not blocked_among(outsider, [owner, member])
    assert blocked_ids(owner) == {member.pk} and blocked_ids(member) == {owner.pk} and blocked_ids(None) == set()
    assert list(blocks_of_user(member)) == [Block.objects.get()] and not blocks_of_user(owner).exists()


# --- invitations and challenges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who_blocks", ["her", "him"])
def test_an_invitation_and_a_challenge_are_refused_both_ways_in_the_same_words(owner, member, who_blocks):
    blocker, blocked = (owner, member) if who_blocks == "her" else (member, owner)
    player_block(user=blocker, username=blocked.username)
    table = services.game_create(user=owner, kind="topology", players=2)
    invited = refusal(lambda: services.game_invite(user=owner, game_id=table.pk, username="bruno"))
    assert invited.message == "It is not possible to invite bruno." and invited.field == "username"
    challenged = refusal(lambda: challenge_create(user=owner, username="bruno", kind="topology"))
    assert challenged.message == "It is not possible to challenge bruno." and challenged.field == "username"
    # And the other way round, from him to her: the same words with her name.
    back = refusal(lambda: challenge_create(user=member, username="ana", kind="topology"))
    assert back.message == "It is not possible to challenge ana."
    assert not Invitation.objects.exists() and Game.objects.count() == 1  # a refused challenge opens nothing
    assert not Notification.objects.filter(kind=NotificationEvent.INVITED).exists()


def test_nobody_invites_someone_kept_apart_from_another_player_at_the_table(owner, member, outsider):
    table = services.game_create(user=owner, kind="topoum", players=3)
    services.game_join(user=outsider, game_id=table.pk)
    player_block(user=member, username="chen")  # bruno and chen are kept apart; ana invites bruno
    assert refusal(lambda: services.game_invite(user=owner, game_id=table.pk, username="bruno")).message == (
        "It is not possible to invite bruno."
    )


def test_a_rematch_between_them_is_refused_and_leaves_nothing(game, owner, member):
    everyone_played(game)  # so that resigning loses the game rather than aborting it (ruling S1, turn 3)
    services.game_resign(game_id=game.pk, user=member)
    player_block(user=member, username="ana")
    refusal(lambda: services.game_rematch(user=owner, game_id=game.pk))
    refusal(lambda: services.game_rematch(user=member, game_id=game.pk))
    assert Game.objects.count() == 1


# --- seating ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who_blocks", ["her", "him"])
def test_joining_a_table_where_the_other_sits_is_refused_in_the_same_words(owner, member, who_blocks):
    blocker, blocked = (owner, member) if who_blocks == "her" else (member, owner)
    player_block(user=blocker, username=blocked.username)
    table = services.game_create(user=owner, kind="topology", players=2)
    refused = refusal(lambda: services.game_join(user=member, game_id=table.pk))
    assert refused.message == "It is not possible for you to join this table."
    assert table.seats.count() == 1


def test_blocking_withdraws_the_invitations_between_them_and_their_notices(owner, member, outsider):
    hers = services.game_create(user=owner, kind="topology", players=2)
    services.game_invite(user=owner, game_id=hers.pk, username="bruno")
    his = services.game_create(user=member, kind="topoum", players=3)
    services.game_invite(user=member, game_id=his.pk, username="ana")
    other = services.game_create(user=outsider, kind="topoum", players=3)
    services.game_invite(user=outsider, game_id=other.pk, username="bruno")  # chen's invitation stays
    player_block(user=owner, username="bruno")
    assert list(Invitation.objects.values_list("game_id", "user__username")) == [(other.pk, "bruno")]
    unread = Notification.objects.filter(kind=NotificationEvent.INVITED, read_at__isnull=True)
    assert list(unread.values_list("recipient__username", "game_id")) == [("bruno", other.pk)]


def test_blocking_drops_the_digest_entries_of_his_invitation_and_his_chat(game, owner, member):
    choices = {NotificationEvent.INVITED: "digest", NotificationEvent.CHAT: "digest"}
    notification_preferences_set(user=owner, choices=choices)
    his = services.game_create(user=member, kind="topology", players=2)
    services.game_invite(user=member, game_id=his.pk, username="ana")
    chat_message_dispatch(message_id=chat_post(user=member, game_id=game.pk, body="hi").pk)
    assert NotificationDelivery.objects.filter(recipient=owner, status="pending").count() == 2
    player_block(user=owner, username="bruno")
    assert digest_send(user_id=owner.pk) == 0 and mail.outbox == []
    assert not Notification.objects.filter(recipient=owner, read_at__isnull=True).exists()


def test_an_invitation_left_from_before_is_not_accepted_across_a_block(owner, member, outsider):
    # Chen invited bruno to a table where ana sits; ana blocks bruno later: the invitation is withdrawn, and a
    # fresh one from chen is refused (ana sits there).
    table = services.game_create(user=outsider, kind="topoum", players=3)
    services.game_join(user=owner, game_id=table.pk)
    invitation = services.game_invite(user=outsider, game_id=table.pk, username="bruno")
    Block.objects.create(blocker=owner, blocked=member)  # as if the withdrawal had missed it
    refused = refusal(lambda: invitation_accept(user=member, invitation_id=invitation.pk))
    assert refused.message == "It is not possible for you to join this table."


def test_a_tournament_both_entered_seats_them_together(owner, member):
    player_block(user=owner, username="bruno")
    cup = tournaments.tournament_create(
        user=owner, name="Cup", kind="topology", players=2, starts_at=timezone.now() + timedelta(hours=1)
    )
    tournaments.tournament_register(user=member, tournament_id=cup.pk)  # she entered as its organiser
    tournaments.tournament_start_now(user=owner, tournament_id=cup.pk)
    tournaments.tournament_start(tournament_id=cup.pk, now=timezone.now() + timedelta(seconds=1))
    [table] = Game.objects.filter(tournament_table__tournament=cup)
    assert table.status == Game.Status.RUNNING
    assert set(table.seats.values_list("user__username", flat=True)) == {"ana", "bruno"}


def test_a_running_table_goes_on(game, owner, member):
    player_block(user=owner, username="bruno")
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    services.game_resign(game_id=game.pk, user=member)  # a write at a shared table is not refused
    assert Game.objects.get(pk=game.pk).status in (Game.Status.FINISHED, Game.Status.ABORTED)
