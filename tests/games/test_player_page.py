"""A player's public page: her public games and results, nothing private."""

import pytest
from django.urls import reverse

from games import services
from tests.accounts.conftest import finish
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def private_game(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    return services.game_start(user=owner, game_id=game.pk)


def test_anyone_sees_her_public_games_with_results(client, owner, member):
    public = finish(started_topology(owner, member), {0: (1, 50), 1: (2, 20)})
    r = client.get(reverse("player", args=["ana"]))
    assert r.status_code == 200
    assert [g["id"] for g in r.context["finished_games"]] == [public.pk]
    assert "ana@example.com" not in r.content.decode()


def test_private_tables_stay_off_the_public_page(client, owner, member, outsider):
    secret = private_game(owner, member)
    client.force_login(outsider)
    r = client.get(reverse("player", args=["ana"]))
    ids = [g["id"] for g in r.context["current_games"] + r.context["finished_games"]]
    assert secret.pk not in ids
    assert reverse("table", args=[secret.pk]) not in r.content.decode()


def test_unknown_or_inactive_players_are_not_found(client, owner):
    assert client.get(reverse("player", args=["nobody"])).status_code == 404
    owner.is_active = False
    owner.save()
    assert client.get(reverse("player", args=["ana"])).status_code == 404
