"""The notification list, the badge on every page, mark as read, and the email settings page."""
from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import NotificationPreference
from games.models import Notification
from tests.notifications.tables import topology_table

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def told(owner, member):
    """The member has one unread notification: the owner's table started.  At her own table she starts and
    moves first, so she is told nothing there; the owner hears that it started."""
    game = topology_table(owner, member)
    other = topology_table(member, owner)
    return game, other


def test_pages_need_a_login():
    for url in ("/notifications/", "/accounts/notifications/"):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_every_page_has_the_unread_count_and_the_badge(told, member, outsider):
    unread = Notification.objects.filter(recipient=member, read_at__isnull=True).count()
    assert unread == 1
    response = client_for(member).get("/")
    assert response.status_code == 200
    assert response.context["unread_notifications"] == 1
    assert '<span class="badge">1</span>' in response.content.decode()
    assert client_for(outsider).get("/").context["unread_notifications"] == 0


def test_the_list_shows_her_notifications_only_with_links_to_the_games(told, member, owner):
    game, _ = told
    page = client_for(member).get("/notifications/").content.decode()
    note = Notification.objects.get(recipient=member)
    assert note.text in page
    assert f"/notifications/{note.pk}/open/" in page
    for other in Notification.objects.exclude(recipient=member):
        assert other.text not in page


def test_mark_one_as_read_and_open_it(told, member, owner):
    game, _ = told
    note = Notification.objects.get(recipient=member)
    client = client_for(member)
    assert client.get(f"/notifications/{note.pk}/read/").status_code == 405
    response = client.post(f"/notifications/{note.pk}/open/")
    assert response.status_code == 302 and response["Location"] == f"/tables/{game.pk}/"
    note.refresh_from_db()
    assert note.read_at is not None
    assert client.get("/").context["unread_notifications"] == 0
    # someone else's notification does not exist for her
    theirs = Notification.objects.filter(recipient=owner).first()
    assert client.post(f"/notifications/{theirs.pk}/read/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_mark_all_as_read_with_htmx_returns_the_list_and_refreshes_the_badge(told, member):
    client = client_for(member)
    response = client.post("/notifications/read-all/", **HX)
    assert response.status_code == 200 and response["HX-Trigger"] == "notifications-changed"
    assert 'id="notification-list"' in response.content.decode()
    assert not Notification.objects.filter(recipient=member, read_at__isnull=True).exists()
    assert client.post("/notifications/read-all/").status_code == 302


def test_the_settings_page_saves_the_email_choice_per_event(member):
    client = client_for(member)
    page = client.get("/accounts/notifications/").content.decode()
    assert 'name="your_turn" value="immediate" checked' in page
    choices = {"your_turn": "digest", "invited": "none", "started": "immediate", "finished": "digest",
               "deadline": "immediate", "bot_played": "none"}
    response = client.post("/accounts/notifications/", choices)
    assert response.status_code == 302
    assert dict(NotificationPreference.objects.filter(user=member).values_list("event", "email")) == choices
    assert 'name="your_turn" value="digest" checked' in client.get("/accounts/notifications/").content.decode()
    refused = client.post("/accounts/notifications/", {**choices, "invited": "hourly"}, follow=True)
    assert NotificationPreference.objects.get(user=member, event="invited").email == "none"
    assert "Choose one of" in refused.content.decode()


def test_the_profile_page_links_to_the_notification_settings(member):
    page = client_for(member).get("/accounts/profile/")
    assert page.status_code == 200
    assert 'href="/accounts/notifications/"' in page.content.decode()
