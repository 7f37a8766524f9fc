"""The base layout: account links, POST logout, language switcher, notifications badge."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

pytestmark = pytest.mark.django_db


def render_base(user, **context):
    request = RequestFactory().get("/")
    request.user = user
    return render_to_string("base.html", context, request=request)


def test_logged_in_visitors_log_out_with_a_post_form(owner_client):
    html = owner_client.get("/").content.decode()
    assert 'method="post" action="/accounts/logout/"' in html
    assert "ana" in html


def test_the_language_switcher_offers_the_three_languages(client):
    html = client.get("/").content.decode()
    for code in ("en", "es", "zh-hant"):
        assert f'value="{code}"' in html


def test_switching_language_changes_the_page_language(client):
    client.post("/i18n/setlang/", {"language": "es", "next": "/"})
    assert '<html lang="es">' in client.get("/").content.decode()


def test_the_badge_shows_unread_notifications_only_when_there_are_some(owner):
    assert 'class="badge"' not in render_base(owner)
    assert 'class="badge"' not in render_base(owner, unread_notifications=0)
    html = render_base(owner, unread_notifications=4)
    assert '<span class="badge">4</span>' in html
