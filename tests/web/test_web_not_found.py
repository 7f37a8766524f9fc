"""With DEBUG on (run.sh --dev) the 404 page lists no URL patterns, except to staff; /favicon.ico answers."""

import pytest
from django.contrib.staticfiles import finders

from accounts.services import user_create

pytestmark = pytest.mark.django_db

DJANGO_DEBUG_PAGE = "Using the URLconf defined in"


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


@pytest.mark.parametrize("path", ["/no-such-page/", "/tables/999999/"])
def test_a_visitor_gets_the_sites_404_page_even_with_debug_on(debug, client, path):
    response = client.get(path)
    assert response.status_code == 404
    text = response.content.decode()
    assert DJANGO_DEBUG_PAGE not in text and "table_poll" not in text and "admin/" not in text
    if path.startswith("/api/"):  # the API's error shape, in JSON (config.not_found.not_found)
        assert response.json()["error"] == "not_found"
    else:
        assert "Page not found" in text and 'href="/"' in text


@pytest.mark.parametrize("path", ["/api/nothing-here/", "/api/tables/not-a-number/"])
def test_the_api_answers_an_unknown_address_in_its_error_shape_even_with_debug_on(debug, client, path):
    """Decision 12: an API client gets JSON it can read, not the site's page (nor Django's list of URL patterns)."""
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"] == "not_found" and "/api/docs/" in body["detail"]
    assert DJANGO_DEBUG_PAGE not in response.content.decode()


def test_a_logged_in_player_gets_it_too(debug, owner_client):
    response = owner_client.get("/tables/999999/")
    assert response.status_code == 404 and DJANGO_DEBUG_PAGE not in response.content.decode()


def test_staff_keep_djangos_debug_page(debug, client):
    client.force_login(_staff())
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and DJANGO_DEBUG_PAGE in response.content.decode()


def _staff():
    person = user_create(username="root", email="root@example.com", password="a-long-test-password")
    person.is_staff = True
    person.save(update_fields=["is_staff"])
    return person


def test_a_missing_slash_is_still_added(debug, client):
    response = client.get("/tables/new")
    assert response.status_code == 301 and response["Location"] == "/tables/new/"


def test_without_debug_the_same_page_is_served(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "Page not found" in response.content.decode()


def test_the_favicon_is_linked_and_answers_at_its_usual_address(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("/img/favicon.svg")
    assert finders.find("img/favicon.svg")
    assert 'rel="icon" href="/static/img/favicon.svg"' in client.get("/").content.decode()
