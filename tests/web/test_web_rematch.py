"""Rematch of a finished game, by the page and the API: a new table with the same game, options, pace and player
count, the asker in seat 0, the bots seated again at their levels, the other people invited."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Invitation
from tests.games.tables import open_table
from tests.web.conftest import client_for
from tests.web.test_web_end_of_game import play_out

# The bot's task is sent once the move's transaction commits: real commits here, so it answers at once.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished_with_bot(celery_eager, owner, member) -> Game:
    """Topology, two people and a greedy bot (seat 1), played to the end; the bot answers at once."""
    game = play_out(open_table("topology", owner, member, bots=["greedy"], turn_seconds=2 * 86400))
    assert game.status == Game.Status.FINISHED
    return game


def assert_rematch_of(old: Game, new: Game, asker, other):
    assert new.pk != old.pk and new.status == Game.Status.OPEN
    assert (new.kind, new.players, new.options, new.pace, new.turn_seconds, new.private) == (
        old.kind,
        old.players,
        old.options,
        old.pace,
        old.turn_seconds,
        old.private,
    )
    seats = {s.index: s for s in new.seats.all()}
    assert seats[0].user == asker
    assert [s.bot_level for s in seats.values() if s.is_bot] == ["greedy"]
    assert list(Invitation.objects.filter(game=new).values_list("user", flat=True)) == [other.pk]


def test_the_finished_page_offers_a_rematch_that_opens_the_new_table(finished_with_bot, owner, member):
    page = client_for(member).get(f"/tables/{finished_with_bot.pk}/").content.decode()
    assert f'action="/tables/{finished_with_bot.pk}/rematch/"' in page
    reply = client_for(member).post(f"/tables/{finished_with_bot.pk}/rematch/")
    new = Game.objects.exclude(pk=finished_with_bot.pk).get()
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{new.pk}/"
    assert_rematch_of(finished_with_bot, new, member, owner)


def test_the_api_rematch_answers_with_the_new_table(finished_with_bot, owner, member, owner_api):
    reply = owner_api.post(f"/api/tables/{finished_with_bot.pk}/rematch/")
    assert reply.status_code == 201, reply.content
    new = Game.objects.get(pk=reply.json()["id"])
    assert reply.json()["my_seat"] == 0 and reply.json()["status"] == "open"
    assert_rematch_of(finished_with_bot, new, owner, member)


def test_an_outsider_cannot_rematch_and_nothing_is_made(finished_with_bot, outsider):
    from tests.conftest import api_client_for

    assert api_client_for(outsider).post(f"/api/tables/{finished_with_bot.pk}/rematch/").status_code == 403
    assert client_for(outsider).post(f"/tables/{finished_with_bot.pk}/rematch/").status_code == 403
    Game.objects.filter(pk=finished_with_bot.pk).update(private=True)
    assert api_client_for(outsider).post(f"/api/tables/{finished_with_bot.pk}/rematch/").status_code == 404
    assert client_for(outsider).post(f"/tables/{finished_with_bot.pk}/rematch/").status_code == 404
    assert Game.objects.count() == 1


def test_a_running_game_has_no_rematch(owner, member, owner_api):
    game = open_table("topology", owner, member)
    reply = owner_api.post(f"/api/tables/{game.pk}/rematch/")
    assert reply.status_code == 409 and "finished" in reply.json()["detail"]
    assert Game.objects.count() == 1


def test_a_rematch_refused_by_the_invitation_limit_makes_nothing(finished_with_bot, owner, member, owner_api, settings):
    settings.TOPOS_RATE_LIMITS = {**settings.TOPOS_RATE_LIMITS, "invite-recipient": (1, 3600)}
    elsewhere = services.game_create(user=owner, kind="topology", players=2)
    services.game_invite(user=owner, game_id=elsewhere.pk, username=member.username)  # her one invitation
    reply = owner_api.post(f"/api/tables/{finished_with_bot.pk}/rematch/")
    assert reply.status_code == 429 and reply["Retry-After"]
    assert Game.objects.count() == 2 and Invitation.objects.count() == 1
