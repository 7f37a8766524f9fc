"""games.services.spectators: who watches a table is written at most every WRITE_EVERY_SECONDS per viewer, never for
a player, and only while the table is open or running; the viewer's key keeps nobody's session in clear."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from games import services
from games.models import Game, Spectator
from games.services.spectators import spectator_record, viewer_key
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_throttle():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def table(owner, member) -> Game:
    return Game.objects.prefetch_related("seats").get(pk=started_topology(owner, member).pk)


def test_a_viewer_is_written_once_within_the_throttle(owner, member, outsider):
    game = table(owner, member)
    assert spectator_record(game=game, viewer="v1", user=outsider) is True
    assert spectator_record(game=game, viewer="v1", user=outsider) is False
    assert list(Spectator.objects.values_list("viewer", "user_id")) == [("v1", outsider.pk)]


def test_a_player_and_a_finished_table_write_nothing(owner, member):
    game = table(owner, member)
    assert spectator_record(game=game, viewer="ana", user=owner) is False
    services.game_resign(game_id=game.pk, user=member)
    ended = Game.objects.prefetch_related("seats").get(pk=game.pk)
    assert spectator_record(game=ended, viewer="anyone") is False
    assert not Spectator.objects.exists()


def test_the_viewer_key_names_her_account_without_her_session_in_clear(owner):
    request = RequestFactory().get("/")
    request.user = owner
    anonymous = RequestFactory().get("/", REMOTE_ADDR="192.0.2.7")
    anonymous.user = AnonymousUser()
    anonymous.session = type("Session", (), {"session_key": "s3cret-session"})()
    assert viewer_key(request) == viewer_key(request) != viewer_key(anonymous)
    assert "s3cret-session" not in viewer_key(anonymous) and "192.0.2.7" not in viewer_key(anonymous)
