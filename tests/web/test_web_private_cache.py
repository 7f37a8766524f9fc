"""Pages and API answers built for one viewer say `Cache-Control: private, no-store`; static files keep their cache."""

import pytest
from django.test import Client
from django.utils.cache import get_max_age

from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def never_stored(response) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


def test_a_seats_table_page_and_its_fragments_are_never_stored(game, owner_client):
    # Her page shows her seat's hidden tiles: no shared cache may hand it to the next person.
    for response in (
        owner_client.get(f"/tables/{game.pk}/"),
        owner_client.get(f"/tables/{game.pk}/", **HX),
        owner_client.get(f"/tables/{game.pk}/poll/?stamp=old", **HX),
        owner_client.get(f"/tables/{game.pk}/log.json"),
    ):
        assert response.status_code == 200
        assert never_stored(response), response.get("Cache-Control")


def test_a_refused_move_is_never_stored_either(game, owner_client):
    response = owner_client.post(f"/tables/{game.pk}/act/", {"action": "{}", "version": "x"}, **HX)
    assert response.status_code == 400 and never_stored(response)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/accounts/profile/",
        "/notifications/",
        "/accounts/notifications/",
        "/tables/new/",
        "/accounts/players/ana/",
    ],
)
def test_her_own_pages_are_never_stored(owner_client, path):
    response = owner_client.get(path)
    assert response.status_code == 200
    assert never_stored(response), (path, response.get("Cache-Control"))


def test_api_answers_for_a_logged_in_player_are_never_stored(game, owner_api):
    for path in (
        f"/api/tables/{game.pk}/",
        f"/api/tables/{game.pk}/legal-actions/",
        f"/api/tables/{game.pk}/actions/",
        "/api/tables/mine/",
        "/api/tables/",
    ):
        response = owner_api.get(path)
        assert response.status_code == 200
        assert never_stored(response), (path, response.get("Cache-Control"))
    assert never_stored(owner_api.post(f"/api/tables/{game.pk}/resign/"))


def test_static_files_keep_their_own_cache(settings):
    # WhiteNoise answers them above the middleware that marks pages private (here from the apps' folders,
    # as with DEBUG on; after collectstatic the same middleware gives them a long max-age).
    settings.WHITENOISE_USE_FINDERS, settings.WHITENOISE_AUTOREFRESH = True, True
    response = Client().get("/static/js/site.js")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_a_view_that_chooses_its_cache_keeps_it(client):
    response = client.get("/favicon.ico")
    assert get_max_age(response) == 86400 and not never_stored(response)
