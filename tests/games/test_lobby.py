"""Decision 17 services: a table starts by itself when its last seat is taken, challenges, spectators, moderation."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import api_token_create, user_create, user_deactivate
from games import services
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Invitation, Spectator
from games.selectors import lobby, spectating
from games.services.aborting import game_abort_by_staff
from games.services.challenges import challenge_create
from games.services.invitations import invitation_accept, invitation_decline
from games.services.spectators import spectator_record
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def _running(game_id: int) -> Game:
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.RUNNING and game.seed and game.seed_commitment and game.state is not None
    return game


def test_the_last_join_starts_a_table_with_auto_start(owner, member, outsider):
    game = services.game_create(user=owner, kind="topology", players=3, auto_start=True)
    assert services.game_join(user=member, game_id=game.pk).status == Game.Status.OPEN  # a seat is still free
    started = services.game_join(user=outsider, game_id=game.pk)
    assert started.status == Game.Status.RUNNING
    game = _running(game.pk)
    assert game.rated and game.to_act and game.seats.filter(deadline__isnull=False).exists()  # clocks run


def test_accepting_the_invitation_that_fills_the_table_starts_it(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, auto_start=True)
    invitation = services.game_invite(user=owner, game_id=game.pk, username="bruno")
    assert invitation_accept(user=member, invitation_id=invitation.pk).status == Game.Status.RUNNING
    _running(game.pk)


def test_a_bot_taking_the_last_seat_starts_the_table_unrated(owner):
    game = services.game_create(user=owner, kind="topoum", players=3, auto_start=True)
    services.game_add_bot(user=owner, game_id=game.pk, level="random")
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    services.game_add_bot(user=owner, game_id=game.pk, level="random")
    assert _running(game.pk).rated is False  # ruling S5: a table with a bot is never rated


def test_without_auto_start_a_full_table_waits_for_its_creator_and_is_not_listed_as_open(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, auto_start=False)
    services.game_join(user=member, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert game.pk not in [g.pk for g in lobby.tables_open_listed()]
    assert services.game_start(user=owner, game_id=game.pk).status == Game.Status.RUNNING


def test_a_table_full_at_its_creation_waits_for_its_creators_start_unless_told_to_start_itself(owner):
    # Decision 26: with auto_start, a table its bots fill at the creation deals itself at once.
    started = services.game_create(user=owner, kind="topology", players=2, bots=["random"], auto_start=True)
    assert Game.objects.get(pk=started.pk).status == Game.Status.RUNNING
    game = services.game_create(user=owner, kind="topology", players=2, bots=["random"], auto_start=False)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    with pytest.raises(Conflict):
        services.game_add_bot(user=owner, game_id=game.pk, level="random")  # no seat is free


def test_the_open_list_keeps_tables_with_a_free_seat_only(owner, member, outsider):
    waiting = services.game_create(user=owner, kind="topology", players=3)
    started = started_topology(owner, member)
    full = services.game_create(user=outsider, kind="topology", players=2)
    services.game_join(user=owner, game_id=full.pk)
    listed = [g.pk for g in lobby.tables_open_listed()]
    assert waiting.pk in listed and started.pk not in listed and full.pk not in listed


def test_lobby_filters_narrow_the_open_tables(owner):
    topology = services.game_create(user=owner, kind="topology", players=2, rated=False)
    toppo = services.game_create(user=owner, kind="toppo", players=4, pace="live")
    assert [g.pk for g in lobby.tables_open_listed(game="toppo")] == [toppo.pk]
    assert [g.pk for g in lobby.tables_open_listed(players=2)] == [topology.pk]
    assert [g.pk for g in lobby.tables_open_listed(pace="live")] == [toppo.pk]
    assert [g.pk for g in lobby.tables_open_listed(rated=False)] == [topology.pk]
    assert [g.pk for g in lobby.tables_open_listed(rated=True)] == [toppo.pk]


def test_a_challenge_opens_a_table_and_invites_the_player_who_starts_it_by_accepting(owner, member):
    game = challenge_create(user=owner, username="BRUNO", kind="topology")
    assert game.auto_start and game.players == 2 and game.status == Game.Status.OPEN
    invitation = Invitation.objects.get(game=game, user=member)
    assert invitation.invited_by == owner
    assert member.notifications.filter(game=game).exists()  # told through the invitation path
    invitation_accept(user=member, invitation_id=invitation.pk)
    _running(game.pk)


def test_a_bot_account_can_be_challenged(owner):
    robot = user_create(username="robota", email="robota@example.com", password="a-long-test-password")
    services.account_make_bot(user=robot)
    game = challenge_create(user=owner, username="robota", kind="topology")
    assert Invitation.objects.filter(game=game, user=robot).exists()


@pytest.mark.parametrize(("name", "error"), [("nobody", NotFound), ("ana", BadRequest), ("  ", NotFound)])
def test_a_refused_challenge_opens_no_table(owner, name, error):
    with pytest.raises(error):
        challenge_create(user=owner, username=name, kind="topology")
    assert not Game.objects.exists()


def test_a_challenge_needs_a_free_seat_for_the_opponent(owner, member):
    with pytest.raises(BadRequest):
        challenge_create(user=owner, username="bruno", kind="topology", players=2, bots=["random"])
    assert not Game.objects.exists()


def test_a_declined_challenge_is_closed_and_gone_from_her_invitations(owner, member):
    game = challenge_create(user=owner, username="bruno", kind="topology")
    invitation_decline(user=member, invitation_id=Invitation.objects.get(game=game).pk)
    assert not lobby.invitations_pending(member).exists()
    # opened for her: closed by her decline, with no result (ruling S6: the challenger is told)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_spectators_are_viewers_who_do_not_sit_there_within_the_window(owner, member, outsider):
    game = Game.objects.prefetch_related("seats").get(pk=started_topology(owner, member).pk)
    assert spectator_record(game=game, viewer="anonymous-1") is True
    assert spectator_record(game=game, viewer="anonymous-1") is False  # written at most every half minute
    assert spectator_record(game=game, viewer="chen", user=outsider) is True
    assert spectator_record(game=game, viewer="ana", user=owner) is False  # a player is no spectator
    assert spectating.spectator_count(game) == 2 == spectating.spectator_counts([game])[game.pk]
    # Someone who watched and then sat down is not counted; nor a viewer gone for longer than the window.
    Spectator.objects.filter(viewer="chen").update(user=member)
    Spectator.objects.filter(viewer="anonymous-1").update(seen_at=timezone.now() - timedelta(minutes=10))
    assert spectating.spectator_count(game) == 0 == spectating.spectator_counts([game])[game.pk]


def test_staff_abort_any_running_game_and_nobody_else(owner, member, outsider):
    game = started_topology(owner, member)
    with pytest.raises(Forbidden):
        game_abort_by_staff(user=outsider, game_id=game.pk)
    outsider.is_staff = True
    outsider.save()
    assert game_abort_by_staff(user=outsider, game_id=game.pk).status == Game.Status.ABORTED
    with pytest.raises(Conflict):
        game_abort_by_staff(user=outsider, game_id=game.pk)


def test_a_deactivated_account_loses_its_tokens_and_cannot_be_invited(owner, member):
    token, _ = api_token_create(user=member, name="script")
    revoked = user_deactivate(user=member)
    assert [t.pk for t in revoked] == [token.pk]
    member.refresh_from_db()
    assert member.is_active is False and ApiToken.objects.get(pk=token.pk).revoked_at is not None
    with pytest.raises(NotFound):
        challenge_create(user=owner, username="bruno", kind="topology")


def test_declining_refreshes_the_tables_open_pages(owner, member):
    game = challenge_create(user=owner, username="bruno", kind="topology")
    before = Game.objects.get(pk=game.pk).updated_at
    invitation_decline(user=member, invitation_id=Invitation.objects.get(game=game).pk)
    assert Game.objects.get(pk=game.pk).updated_at > before  # the stamp the poller compares moved on


def test_a_seat_held_for_an_invited_player_is_not_offered_to_the_lobby(owner, member, outsider):
    challenge = challenge_create(user=owner, username="bruno", kind="topology")
    bigger = challenge_create(user=owner, username="bruno", kind="topology", players=3)
    listed = [g.pk for g in lobby.tables_open_listed()]
    assert challenge.pk not in listed and bigger.pk in listed  # one seat of the bigger table is still free
    invitation_decline(user=member, invitation_id=Invitation.objects.get(game=challenge).pk)
    assert challenge.pk not in [g.pk for g in lobby.tables_open_listed()]  # declined: the challenge is closed
    table = services.game_create(user=owner, kind="topology", players=2)  # an ordinary table's invitation
    services.game_invite(user=owner, game_id=table.pk, username="bruno")
    assert table.pk not in [g.pk for g in lobby.tables_open_listed()]
    invitation_decline(user=member, invitation_id=Invitation.objects.get(game=table).pk)
    assert table.pk in [g.pk for g in lobby.tables_open_listed()]  # declined: the seat is free again
