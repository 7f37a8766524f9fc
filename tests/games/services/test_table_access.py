"""Who may write at a table (games.services.table_access): public tables to anyone signed in, private ones to
those seated or invited or holding the code; to anyone else a private table answers as one that does not exist."""

import pytest

from games.errors import NotFound
from games.services.table_access import can_see, game_lock_for, table_not_found
from tests.games.factories import open_topology

pytestmark = pytest.mark.django_db


def test_a_public_table_is_seen_by_an_outsider(owner, outsider):
    game = open_topology(owner)
    assert can_see(game, outsider)
    assert game_lock_for(outsider, game.pk).pk == game.pk


def test_a_private_table_is_seen_by_its_players_and_with_its_code_only(owner, member, outsider):
    game = open_topology(owner, member, private=True)
    assert can_see(game, owner) and can_see(game, member)
    assert not can_see(game, outsider)
    assert not can_see(game, outsider, invite_code="wrong")
    assert can_see(game, outsider, invite_code=game.invite_code)


def test_a_private_table_and_a_missing_one_give_the_same_answer(owner, outsider):
    game = open_topology(owner, private=True)
    with pytest.raises(NotFound) as hidden:
        game_lock_for(outsider, game.pk)
    with pytest.raises(NotFound) as missing:
        game_lock_for(outsider, game.pk + 1000)
    assert str(hidden.value) == str(table_not_found(game.pk))
    assert str(missing.value) == str(table_not_found(game.pk + 1000))
