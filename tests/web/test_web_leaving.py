"""The table page when seats leave (ruling S1): a left seat's move is refused with 409, the finished page names
the winners and nobody is still deciding, the log says who left, in the reader's language."""

import pytest

from games import services
from games.models import Action, Game
from games.selectors.positions import load_state
from tests.games.tables import everyone_played, open_table, play_turn, topology_table
from tests.web.conftest import HX
from tests.web.helpers import post_action

pytestmark = pytest.mark.django_db


def test_a_resigned_seat_posting_a_move_from_the_page_gets_409_and_the_board_unchanged(
    owner, member, outsider, member_client
):
    game = everyone_played(topology_table(owner, member, outsider))  # ruling S1, turn 3
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
    game = everyone_played(open_table("topoum", owner, member))  # ruling S1, turn 3
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
    game = everyone_played(topology_table(owner, member))
    reply = member_client.post(f"/tables/{game.pk}/resign/", **HX)
    assert reply.status_code == 200
    page = reply.content.decode()
    assert "You resigned; the game is over." in page and "Winner: ana." in page
    assert "is playing." not in page


def test_resigning_before_everyone_has_played_aborts_and_the_page_says_why_in_every_language(
    owner, member, owner_client, member_client
):
    """Ruling S1, turn 3: bruno resigns before he has played a turn: no winner, no result, the reason shown."""
    game = topology_table(owner, member)
    reply = member_client.post(f"/tables/{game.pk}/resign/", **HX)
    assert reply.status_code == 200
    assert "You resigned before every player had played a turn of their own" in reply.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    page = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert "bruno resigned before every player had played a turn of their own, so the game is aborted" in page
    assert "Winner" not in page and "Your turn." not in page
    es = owner_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "bruno se rindió antes de que todos" in es
    zh = owner_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "bruno 在所有玩家都下過" in zh
