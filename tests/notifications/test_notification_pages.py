"""The notification list, the badge on every page, mark as read, and the email settings page."""

from __future__ import annotations

import re
from datetime import time

import pytest
from django.test import Client

from games import services
from notifications.models import Notification, NotificationPreference, QuietHours
from tests.games.tables import read_by_her, seed_for, topology_table

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def told(owner, member):
    """The member has one unread notification: the owner's table started.  At her own table the owner moves
    first: she pressed start and is told nothing there; the owner hears that it started and that it is her turn
    (ruling S6)."""
    game = topology_table(owner, member)
    other = topology_table(member, owner, seed=seed_for("topology", 2, first=1))
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
    assert read_by_her(note) in page
    assert f"/notifications/{note.pk}/open/" in page
    for other in Notification.objects.exclude(recipient=member):
        assert read_by_her(other) not in page


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


def badge_in(html: str) -> str:
    """The header badge as an answer carries it out of band (templates/notifications/_badge.html)."""
    match = re.search(r'<span id="notification-badge"[^>]*hx-swap-oob="true"[^>]*>(.*?)</span>\s*$', html, re.S)
    assert match, "the answer carries no out-of-band badge"
    return match.group(1)


def test_mark_all_as_read_with_htmx_returns_the_list_and_the_new_badge(told, member):
    client = client_for(member)
    assert '<span class="badge">1</span>' in client.get("/").content.decode()
    response = client.post("/notifications/read-all/", **HX)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="notification-list"' in html
    assert not Notification.objects.filter(recipient=member, read_at__isnull=True).exists()
    badge = badge_in(html)
    assert 'class="badge"' not in badge and 'href="/notifications/"' in badge  # no count left to show
    assert client.post("/notifications/read-all/").status_code == 302


def test_mark_one_as_read_with_htmx_answers_with_the_count_left(told, member, owner):
    table = services.game_create(
        user=owner, kind="topology", players=2, options={}, pace="correspondence", turn_seconds=None, bots=[]
    )
    services.game_invite(user=owner, game_id=table.pk, username=member.username)
    first, second = Notification.objects.filter(recipient=member).order_by("pk")
    response = client_for(member).post(f"/notifications/{second.pk}/read/", **HX)
    assert response.status_code == 200
    assert '<span class="badge">1</span>' in badge_in(response.content.decode())


def test_the_list_is_paged_and_every_notification_is_reachable(member):
    Notification.objects.bulk_create(
        Notification(recipient=member, kind="invited", key=f"test:{n}", text=f"Note number {n}.") for n in range(75)
    )
    client = client_for(member)
    pages = [client.get("/notifications/", {"page": p}).content.decode() for p in (1, 2, 3)]
    counts = [len(re.findall(r'<li id="notification-\d+"', page)) for page in pages]
    assert counts == [30, 30, 15]
    assert "Note number 74." in pages[0] and "Note number 0." in pages[2]  # newest first, the oldest last
    assert 'href="?page=2"' in pages[0] and 'href="?page=3"' in pages[0]
    assert client.get("/notifications/", {"page": 99}).content.decode().count('<li id="notification-') == 15
    # marking one read on page 3 answers with page 3 again
    oldest = Notification.objects.get(recipient=member, key="test:0")
    response = client.post(f"/notifications/{oldest.pk}/read/", {"page": "3"}, **HX)
    assert "Note number 0." in response.content.decode()
    assert client.post(f"/notifications/{oldest.pk}/read/", {"page": "3"})["Location"] == "/notifications/?page=3"


def test_the_settings_page_saves_the_email_choice_per_event(member):
    client = client_for(member)
    page = client.get("/accounts/notifications/").content.decode()
    assert 'name="your_turn" value="immediate" checked' in page
    choices = {
        "your_turn": "digest",
        "invited": "none",
        "started": "immediate",
        "finished": "digest",
        "deadline": "immediate",
        "bot_played": "none",
        "tournament": "digest",
    }
    response = client.post("/accounts/notifications/", choices)
    assert response.status_code == 302
    assert dict(NotificationPreference.objects.filter(user=member).values_list("event", "email")) == choices
    assert 'name="your_turn" value="digest" checked' in client.get("/accounts/notifications/").content.decode()
    refused = client.post("/accounts/notifications/", {**choices, "invited": "hourly"}, follow=True)
    assert NotificationPreference.objects.get(user=member, event="invited").email == "none"
    assert "Choose one of" in refused.content.decode()


def test_the_settings_page_sets_and_clears_quiet_hours_in_her_time_zone(member):
    """Ruling S6: quiet hours on the settings page; a bad time is refused with a message and changes nothing."""
    member.time_zone = "Europe/Madrid"
    member.save(update_fields=["time_zone"])
    client = client_for(member)
    page = client.get("/accounts/notifications/").content.decode()
    assert 'name="quiet_start" value=""' in page and "Europe/Madrid" in page
    assert client.post("/accounts/notifications/", {"quiet_start": "22:30", "quiet_end": "07:00"}).status_code == 302
    quiet = QuietHours.objects.get(user=member)
    assert (quiet.start, quiet.end) == (time(22, 30), time(7))
    page = client.get("/accounts/notifications/").content.decode()
    assert 'name="quiet_start" value="22:30"' in page and 'name="quiet_end" value="07:00"' in page
    refused = client.post(
        "/accounts/notifications/", {"quiet_start": "22:30", "quiet_end": "", "chat": "immediate"}, follow=True
    )
    assert "Give both the start and the end" in refused.content.decode()
    assert QuietHours.objects.filter(user=member).exists()
    assert not NotificationPreference.objects.filter(user=member, event="chat").exists()  # nothing changed
    assert client.post("/accounts/notifications/", {"quiet_start": "", "quiet_end": ""}).status_code == 302
    assert not QuietHours.objects.filter(user=member).exists()


def test_the_settings_page_in_spanish_and_chinese(member):
    for language, words in (("es", "Horas de silencio"), ("zh-hant", "安靜時段")):
        member.language = language
        member.save(update_fields=["language"])
        assert words in client_for(member).get("/accounts/notifications/").content.decode()


def test_the_profile_page_links_to_the_notification_settings(member):
    page = client_for(member).get("/accounts/profile/")
    assert page.status_code == 200
    assert 'href="/accounts/notifications/"' in page.content.decode()
