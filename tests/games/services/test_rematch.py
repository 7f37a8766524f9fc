"""A rematch (games.services.rematch): a new table like the finished one, opened by one of its players, her
opponents invited and its bots seated again; refused to an outsider and before the game is over."""

import pytest

from games import services
from games.errors import Conflict, Forbidden, NotFound
from games.models import Game, Invitation
from games.services.rematch import game_rematch
from tests.games.factories import open_topology, table_snapshot
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(owner, member, outsider):
    """Ana, Bruno and a bot at Topology; Bruno and Ana resign one after the other, so the game is over."""
    game = open_topology(owner, member, private=True)
    services.game_add_bot(user=owner, game_id=game.pk, level="random")
    services.game_start(user=owner, game_id=game.pk)
    everyone_played(game)  # ruling S1, turn 3: before that, resigning would abort it
    services.game_resign(user=member, game_id=game.pk)
    services.game_resign(user=owner, game_id=game.pk)  # only the bot is left: it ends
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    return game


def test_the_new_table_copies_the_old_one_and_invites_the_other_person(finished, member):
    new = game_rematch(user=member, game_id=finished.pk)
    assert new.pk != finished.pk and new.status == Game.Status.OPEN
    assert (new.kind, new.players, new.private, new.pace) == (finished.kind, 3, True, finished.pace)
    assert [(s.index, s.user_id, s.bot_level) for s in new.seats.order_by("index")] == [
        (0, member.pk, ""),
        (1, None, "random"),
    ]
    assert list(Invitation.objects.filter(game=new).values_list("user__username", flat=True)) == ["ana"]


def test_an_outsider_cannot_see_the_private_game_and_a_running_one_is_refused(finished, owner, member, outsider):
    before = table_snapshot(finished)
    with pytest.raises(NotFound):
        game_rematch(user=outsider, game_id=finished.pk)
    running = open_topology(owner, member, players=2)
    services.game_start(user=owner, game_id=running.pk)
    with pytest.raises(Conflict):
        game_rematch(user=member, game_id=running.pk)
    assert table_snapshot(finished) == before
    assert Game.objects.count() == 2


def test_a_seen_but_not_played_game_is_refused(owner, member, outsider):
    game = open_topology(owner, member, players=2)
    services.game_start(user=owner, game_id=game.pk)
    services.game_resign(user=member, game_id=game.pk)
    with pytest.raises(Forbidden):
        game_rematch(user=outsider, game_id=game.pk)  # a public table: she sees it, but did not play
