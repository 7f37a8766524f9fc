"""Turning an account into a bot account (games.services.bot_accounts, decision 12): refused while she sits as a person
at a table not yet over, refused a second time, and for good once done."""

import pytest

from games import services
from games.errors import Conflict
from games.services.bot_accounts import account_make_bot
from tests.games.factories import open_topology

pytestmark = pytest.mark.django_db


def test_refused_while_she_sits_at_an_open_table_then_granted_once_she_left(owner, member):
    game = open_topology(owner, member)
    with pytest.raises(Conflict, match="your 1 open or running table"):
        account_make_bot(user=member)
    member.refresh_from_db()
    assert not member.is_bot_account
    services.game_leave(user=member, game_id=game.pk)
    assert account_make_bot(user=member).is_bot_account
    member.refresh_from_db()
    assert member.is_bot_account
    with pytest.raises(Conflict, match="already is a bot account"):
        account_make_bot(user=member)
