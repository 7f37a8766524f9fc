"""The table page offers what aborting allows (games.services.aborting): agreement among people, alone among bots."""

import pytest

from games import services
from games.models import Game
from tests.web.conftest import HX
from tests.web.helpers import started_topology

pytestmark = pytest.mark.django_db


def test_people_agree_to_abort_from_the_page(owner, member, owner_client, member_client):
    game = started_topology(owner, member)
    page = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Agree to abort" in page and "Abort the game" not in page

    refused = owner_client.post(f"/tables/{game.pk}/abort/", **HX)
    assert refused.status_code == 409 and "Agree to abort, or resign" in refused.content.decode()

    agreed = owner_client.post(f"/tables/{game.pk}/abort-agreement/", {"agree": "1"}, **HX).content.decode()
    assert "You agree to abort this game" in agreed and "Take back my agreement to abort" in agreed
    other = member_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Agreed to abort: ana" in other and "Agree to abort" in other

    done = member_client.post(f"/tables/{game.pk}/abort-agreement/", {"agree": "1"}, **HX).content.decode()
    assert "it is aborted and has no result" in done
    assert "Every player still in the game agreed to abort it: no result, no rating change." in done
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_taking_the_agreement_back_from_the_page(owner, member, owner_client):
    game = started_topology(owner, member)
    owner_client.post(f"/tables/{game.pk}/abort-agreement/", {"agree": "1"}, **HX)
    back = owner_client.post(f"/tables/{game.pk}/abort-agreement/", {"agree": "0"}, **HX).content.decode()
    assert "You no longer agree to abort this game." in back and "Agreed to abort:" not in back


def test_alone_against_a_bot_the_page_offers_to_abort_until_the_first_action(owner, owner_client):
    game = services.game_create(user=owner, kind="topology", players=2, bots=["random"])
    services.game_start(user=owner, game_id=game.pk)
    page = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Abort the game" in page and "Agree to abort" not in page
    closed = owner_client.post(f"/tables/{game.pk}/abort/")
    assert closed.status_code == 302 and Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
