"""A private table one may not see answers every write exactly as a table that does not exist (404).

Reads already did; a 403 or 409 to a write would tell that table #n is there.  Ids stay sequential:
the invite code, not the number, is what lets a stranger in.
"""

import pytest
from django.test import Client

from games import services
from games.models import Action, Game, Seat

pytestmark = pytest.mark.django_db

NO_SUCH_TABLE = 987654


@pytest.fixture
def open_private(owner):
    return services.game_create(user=owner, kind="topology", players=3, private=True)


@pytest.fixture
def running_private(owner, member):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_invite(user=owner, game_id=game.pk, username=member.username)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


WRITES = [
    ("join/", {}),
    ("join/", {"invite_code": "not-the-code"}),
    ("leave/", {}),
    ("bots/", {"level": "random"}),
    ("invite/", {"username": "bruno"}),
    ("start/", {}),
    ("abort/", {}),
    ("resign/", {}),
    ("abort-agreement/", {"agree": True}),
    ("actions/", {"action": {"type": "end_turn"}, "expected_version": 0}),
]


def same_as_missing(api, game: Game, path: str, body: dict, **headers) -> None:
    hidden = api.post(f"/api/tables/{game.pk}/{path}", body, format="json", **headers)
    missing = api.post(f"/api/tables/{NO_SUCH_TABLE}/{path}", body, format="json", **headers)
    assert hidden.status_code == missing.status_code == 404, (path, hidden.data)
    assert hidden.data == {
        "error": "not_found",
        "detail": missing.data["detail"].replace(str(NO_SUCH_TABLE), str(game.pk)),
    }
    assert hidden.get("Idempotent-Replayed") is None


@pytest.mark.parametrize("path,body", WRITES)
def test_a_stranger_writing_to_an_open_private_table_is_told_it_does_not_exist(open_private, outsider_api, path, body):
    same_as_missing(outsider_api, open_private, path, body)
    assert list(open_private.seats.values_list("user__username", flat=True)) == ["ana"]
    assert Game.objects.get(pk=open_private.pk).status == Game.Status.OPEN


@pytest.mark.parametrize("path,body", WRITES)
def test_a_stranger_writing_to_a_running_private_game_is_told_it_does_not_exist(
    running_private, outsider_api, path, body
):
    before, logged = Game.objects.get(pk=running_private.pk), Action.objects.filter(game=running_private).count()
    same_as_missing(outsider_api, running_private, path, body)
    # Retried with an Idempotency-Key, still nothing tells the two apart (nothing is recorded for either).
    same_as_missing(outsider_api, running_private, path, body, HTTP_IDEMPOTENCY_KEY=f"k-{path}")
    same_as_missing(outsider_api, running_private, path, body, HTTP_IDEMPOTENCY_KEY=f"k-{path}")
    after = Game.objects.get(pk=running_private.pk)
    assert (after.status, after.version) == (before.status, before.version)
    assert Action.objects.filter(game=after).count() == logged


def test_the_invite_code_lets_a_stranger_join_and_then_she_sees_it(open_private, outsider_api):
    assert outsider_api.get(f"/api/tables/{open_private.pk}/").status_code == 404
    joined = outsider_api.post(
        f"/api/tables/{open_private.pk}/join/", {"invite_code": open_private.invite_code}, format="json"
    )
    assert joined.status_code == 200 and joined.data["my_seat"] == 1
    assert outsider_api.get(f"/api/tables/{open_private.pk}/").status_code == 200


def test_those_who_see_a_public_table_still_get_their_own_refusals(owner, outsider_api):
    game = services.game_create(user=owner, kind="topology", players=2)
    reply = outsider_api.post(f"/api/tables/{game.pk}/start/")
    assert reply.status_code == 403 and "opened the table" in reply.data["detail"]


HTMX_WRITES = ["join/", "leave/", "bots/", "invite/", "start/", "abort/", "resign/", "abort-agreement/", "act/"]


@pytest.mark.parametrize("path", HTMX_WRITES)
def test_the_pages_answer_404_too(running_private, open_private, outsider, path):
    client = Client()
    client.force_login(outsider)
    for game in (open_private, running_private):
        reply = client.post(
            f"/tables/{game.pk}/{path}",
            {"username": "bruno", "level": "random", "agree": "1", "action": "{}", "version": "0"},
            HTTP_HX_REQUEST="true",
        )
        assert reply.status_code == 404, (path, game.status)
        assert client.post(f"/tables/{game.pk}/{path}", {"invite_code": "wrong"}).status_code == 404
    assert not Seat.objects.filter(user=outsider).exists()
