"""The table page when seats leave (ruling S1): a left seat's move is refused with 409, the finished page names
the winners and nobody is still deciding, the log says who left, in the reader's language."""

import pytest

from games import services
from games.models import Action, Game
from games.positions import load_state
from tests.notifications.tables import open_table, play_turn, topology_table
from tests.web.conftest import HX
from tests.web.helpers import post_action

pytestmark = pytest.mark.django_db


def test_a_resigned_seat_posting_a_move_from_the_page_gets_409_and_the_board_unchanged(
    owner, member, outsider, member_client
):
    game = topology_table(owner, member, outsider)
    game = play_turn(game, owner)
    services.game_resign(game_id=game.pk, user=member)
    game = Game.objects.get(pk=game.pk)
    action = load_state(game).legal_actions(1)[0]
    before = (game.version, Action.objects.filter(game=game).count())
    reply = post_action(member_client, game, action, game.version, **HX)
    assert reply.status_code == 409
    assert "You resigned this game" in reply.content.decode()
    game.refresh_from_db()
    assert (game.version, Action.objects.filter(game=game).count()) == before
    page = member_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Your turn." not in page and 'id="topology-places"' not in page


def test_the_page_of_a_game_ended_by_resignation_names_the_winner_and_nobody_is_deciding(
    owner, member, owner_client, member_client
):
    game = open_table("topoum", owner, member)
    assert game.to_act == [0]
    services.game_resign(game_id=game.pk, user=owner)
    for client in (owner_client, member_client):
        page = client.get(f"/tables/{game.pk}/").content.decode()
        assert "Winner: bruno." in page
        assert "is deciding" not in page and "Your turn." not in page and "Your setup placement." not in page
        assert "The war is over." in page
        assert "ana resigned." in page and "(left the game)" in page and "a bot plays on" not in page
    zh = member_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "勝者：bruno。" in zh and "ana 認輸了。" in zh
    es = member_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ganador: bruno." in es and "ana se rindió." in es


def test_resigning_from_the_page_says_the_game_is_over_when_it_is(owner, member, member_client):
    game = topology_table(owner, member)
    reply = member_client.post(f"/tables/{game.pk}/resign/", **HX)
    assert reply.status_code == 200
    page = reply.content.decode()
    assert "You resigned; the game is over." in page and "Winner: ana." in page
    assert "is playing." not in page
