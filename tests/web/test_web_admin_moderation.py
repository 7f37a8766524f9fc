"""Decision 17, moderation in the Django admin: a game with its seats and log, the "abort" action, and the users'
"deactivate" action, run by a member of staff."""

import pytest
from django.contrib.admin import helpers
from django.utils.html import escape

from accounts.models import ApiToken
from accounts.services import api_token_create, user_create
from games.log_words import entry_words, seat_names
from games.models import Game
from tests.games.tables import open_table, play_turn
from tests.web.conftest import client_for
from tests.web.helpers import started_topology

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(db):
    moderator = user_create(username="mod", email="mod@example.com", password="a-long-test-password")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    return client_for(moderator)


def test_staff_see_a_game_with_its_seats_and_its_log(staff_client, owner, member):
    game = open_table("topology", owner, member)
    play_turn(game, owner)  # seat 0 decides first
    game.refresh_from_db()
    html = staff_client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "ana" in html and "bruno" in html
    line = game.actions.order_by("seq").first()
    # The log line in words (decision 13: the entry is data, worded for the reader), HTML-escaped as the page shows it.
    assert line is not None
    words = entry_words(game.kind, line.entry, seat_names(game))
    assert words and escape(words) in html
    assert game.seed not in html  # ruling G0.2: the seed stays hidden until the game is over


def test_the_abort_action_aborts_running_games_through_the_service(staff_client, owner, member):
    running = started_topology(owner, member)
    over = started_topology(owner, member)
    Game.objects.filter(pk=over.pk).update(status=Game.Status.FINISHED)
    reply = staff_client.post(
        "/admin/games/game/", {"action": "abort", helpers.ACTION_CHECKBOX_NAME: [running.pk, over.pk]}, follow=True
    )
    assert reply.status_code == 200
    running.refresh_from_db()
    assert running.status == Game.Status.ABORTED and running.finished_at is not None
    assert not running.seats.filter(deadline__isnull=False).exists()  # no clock runs on an aborted game
    assert Game.objects.get(pk=over.pk).status == Game.Status.FINISHED  # refused: already over
    html = reply.content.decode()
    assert "1 game aborted." in html and "This game is already over." in html


def test_the_abort_action_is_for_staff_only(member_client, owner, member):
    game = started_topology(owner, member)
    reply = member_client.post("/admin/games/game/", {"action": "abort", helpers.ACTION_CHECKBOX_NAME: [game.pk]})
    assert reply.status_code == 302 and "/admin/login/" in reply["Location"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_the_deactivate_action_closes_accounts_and_revokes_their_tokens(staff_client, member_client, member):
    token, key = api_token_create(user=member, name="script")
    reply = staff_client.post(
        "/admin/accounts/user/", {"action": "deactivate", helpers.ACTION_CHECKBOX_NAME: [member.pk]}, follow=True
    )
    assert "1 account deactivated." in reply.content.decode()
    member.refresh_from_db()
    assert member.is_active is False and ApiToken.objects.get(pk=token.pk).revoked_at is not None
    # Her open session stops working, and so does her key.
    assert member_client.get("/accounts/profile/").status_code == 302
    assert member_client.get("/api/tables/mine/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 401


def test_staff_find_games_by_number_or_player(staff_client, owner, member, outsider):
    game = started_topology(owner, member)
    other = started_topology(owner, outsider)
    by_player = staff_client.get("/admin/games/game/", {"q": "bruno"})
    assert by_player.status_code == 200
    assert [g.pk for g in by_player.context["cl"].result_list] == [game.pk]
    by_number = staff_client.get("/admin/games/game/", {"q": str(other.pk)})
    assert [g.pk for g in by_number.context["cl"].result_list] == [other.pk]
